# A Triton kernel (a += b, in place: not idempotent), launched 3 times; writes the result bytes to
# argv[1]. Exits 77 without Triton, PyTorch or a CUDA device.
import sys

try:
    import torch
    import triton
    import triton.language as tl
except Exception as exc:  # noqa: BLE001
    print(f"SKIP: triton/torch not importable ({exc})")
    sys.exit(77)
if not torch.cuda.is_available():
    print("SKIP: no CUDA device")
    sys.exit(77)


@triton.jit
def triton_add_into(a_ptr, b_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(a_ptr + offs, a + b, mask=mask)


n = 1 << 20
a = (torch.arange(n, device="cuda", dtype=torch.float32) % 101) * 0.5
b = (torch.arange(n, device="cuda", dtype=torch.float32) % 13) * 0.25
want = a + 3 * b
for _ in range(3):
    triton_add_into[(triton.cdiv(n, 1024),)](a, b, n, BLOCK=1024)
torch.cuda.synchronize()
ok = bool(torch.equal(a, want))
print(f"triton_program: a[1]={a[1].item()} (expect {want[1].item()}) equal={ok} triton={triton.__version__}")
with open(sys.argv[1], "wb") as f:
    f.write(a.cpu().numpy().tobytes())
sys.exit(0 if ok else 1)
