# Kernel replay at full GPU memory: a PyTorch program that holds a fraction of the device's memory
# (an LLM server's weights and cache, a big training job) and runs real training steps of an MLP
# (forward, loss, backward, Adam step). The bytes of the parameters and of the optimizer state go to
# argv[1], so that a profiled run can be compared bit for bit with a run without the profiler.
#
# Usage: torch_full_memory.py <out.bin> [--hold-gib G | --hold-fraction F] [--steps N]
# Prints one line: "held_gib=<held> kernels_per_step~<n> wall_s=<seconds of the steps>".
import argparse
import sys
import time

try:
    import torch
except Exception as error:  # noqa: BLE001 - any import failure means "no PyTorch here"
    print(f"SKIP: PyTorch is not importable: {error}")
    sys.exit(77)
if not torch.cuda.is_available():
    print("SKIP: PyTorch has no CUDA device")
    sys.exit(77)

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--hold-gib", type=float, default=None)
parser.add_argument("--hold-fraction", type=float, default=0.9)
parser.add_argument("--steps", type=int, default=2)
args = parser.parse_args()

torch.manual_seed(1234)
torch.use_deterministic_algorithms(True)
# Deterministic mode also fills every new tensor (torch.empty included); the held memory below
# must stay unwritten, as an LLM server's weights that this step does not use.
torch.utils.deterministic.fill_uninitialized_memory = False
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False

free, total = torch.cuda.mem_get_info()
hold_bytes = (
    int(args.hold_gib * (1 << 30)) if args.hold_gib is not None else int(total * args.hold_fraction)
)
# The held memory, never touched by the training step (as model weights that this step does not
# use, or a preallocated cache). Left unwritten, so that no kernel of the setup writes 90% of the
# device: the profiler still tracks, and verifies, all of it.
held = torch.empty(hold_bytes, dtype=torch.uint8, device="cuda")

model = torch.nn.Sequential(
    torch.nn.Linear(1024, 2048),
    torch.nn.ReLU(),
    torch.nn.Linear(2048, 2048),
    torch.nn.ReLU(),
    torch.nn.Linear(2048, 10),
).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
inputs = torch.randn(256, 1024, device="cuda")
labels = torch.randint(0, 10, (256,), device="cuda")
torch.cuda.synchronize()

start = time.perf_counter()
for _ in range(args.steps):
    optimizer.zero_grad(set_to_none=False)
    loss = torch.nn.functional.cross_entropy(model(inputs), labels)
    loss.backward()
    optimizer.step()
torch.cuda.synchronize()
wall = time.perf_counter() - start

tensors = [p.detach().flatten() for p in model.parameters()]
for state in optimizer.state.values():
    tensors += [state["exp_avg"].flatten(), state["exp_avg_sq"].flatten()]
out = torch.cat(tensors).cpu().numpy().tobytes()
with open(args.out, "wb") as f:
    f.write(out)
print(f"held_gib={hold_bytes / (1 << 30):.1f} total_gib={total / (1 << 30):.1f} wall_s={wall:.3f}")
