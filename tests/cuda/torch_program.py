# A tiny PyTorch program for the GPU suite: a few kernels (cuBLAS matmul, elementwise, in-place
# non-idempotent updates, a reduction) whose result bytes go to argv[1]. Exits 77 (CTest SKIP) when
# PyTorch or a CUDA device is missing.
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
x = torch.randn(512, 512, device="cuda")
w = torch.randn(512, 512, device="cuda")
y = torch.relu(x @ w)
y.add_(1.0)  # in place: replayed without a restore it would add once per pass
y.mul_(0.5)
z = torch.softmax(y, dim=1).sum(dim=0)
acc = torch.zeros(512, device="cuda")
for _ in range(3):
    acc += z  # in place, repeated
torch.cuda.synchronize()
out = torch.cat([acc, y.flatten()[:4096]]).cpu().numpy().tobytes()
with open(sys.argv[1], "wb") as f:
    f.write(out)
print(f"torch_program: torch {torch.__version__}, {len(out)} result bytes, acc[0]={acc[0].item():.6f}")
