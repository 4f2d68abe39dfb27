# A PyTorch training step for the GPU suite: forward, loss, backward and an Adam step, twice (or
# TORCH_STEPS times: the batched-counting benchmark runs many), on a small MLP. The optimizer's in-place updates of the parameters and of its moment estimates are
# non-idempotent, so a replay that did not restore memory would change them. The bytes of every
# parameter and of the optimizer state go to argv[1]. Exits 77 (CTest SKIP) when PyTorch or a
# CUDA device is missing.
import os
import sys

try:
    import torch
except Exception as error:  # noqa: BLE001 - any import failure means "no PyTorch here"
    print(f"SKIP: PyTorch is not importable: {error}")
    sys.exit(77)
if not torch.cuda.is_available():
    print("SKIP: PyTorch has no CUDA device")
    sys.exit(77)

torch.manual_seed(1234)
torch.use_deterministic_algorithms(True)
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False

model = torch.nn.Sequential(
    torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10)
).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
inputs = torch.randn(64, 256, device="cuda")
labels = torch.randint(0, 10, (64,), device="cuda")
steps = int(os.environ.get("TORCH_STEPS", "2"))
for _ in range(steps):
    optimizer.zero_grad(set_to_none=False)
    loss = torch.nn.functional.cross_entropy(model(inputs), labels)
    loss.backward()
    optimizer.step()
torch.cuda.synchronize()

tensors = [p.detach().flatten() for p in model.parameters()]
for state in optimizer.state.values():
    tensors += [state["exp_avg"].flatten(), state["exp_avg_sq"].flatten()]
out = torch.cat(tensors).cpu().numpy().tobytes()
with open(sys.argv[1], "wb") as f:
    f.write(out)
print(f"torch_training_step: torch {torch.__version__}, {len(out)} result bytes, loss={loss.item():.6f}")
# How the caching allocator got its memory: expandable segments map VMM memory (cuMemCreate,
# cuMemMap) into one reserved range per segment; run_torch_test.sh reports the count.
segments = torch.cuda.memory_snapshot()
expandable = sum(1 for s in segments if s.get("is_expandable", False))
print(f"RESULT allocator_segments={len(segments)} expandable_segments={expandable}")
