# A PyTorch training loop to profile (docs/pytorch.md): a small MLP classifier, trained for a few
# steps on random data (forward, cross-entropy loss, backward, an Adam step), deterministic, so
# that two runs launch the same kernels in the same order.
#
#   python3 samples/pytorch/train_step.py [--steps N] [--batch B] [--width W] [--profile-step S]
#
# Each step is an NVTX range named "step <n>" (torch.cuda.nvtx.range_push/pop: rocprofv3
# --marker-trace records them). With --profile-step S, step S runs between
# torch.cuda.profiler.start() and stop() (cudaProfilerStart/Stop: rocprofv3 --selected-regions
# collects only there).
#
# Prints the loss after each step and "train_step: OK" at the end. Exits 2 without PyTorch or a
# CUDA device, saying which.
import argparse
import sys

parser = argparse.ArgumentParser(description="a small PyTorch training loop to profile")
parser.add_argument("--steps", type=int, default=5, help="training steps (default 5)")
parser.add_argument("--batch", type=int, default=64, help="batch size (default 64)")
parser.add_argument("--width", type=int, default=512, help="hidden layer width (default 512)")
parser.add_argument(
    "--profile-step",
    type=int,
    default=0,
    help="run step S between torch.cuda.profiler.start() and stop() (default 0: none)",
)
args = parser.parse_args()
if args.steps < 1 or args.batch < 1 or args.width < 1:
    parser.error("--steps, --batch and --width must be positive")
if args.profile_step < 0 or args.profile_step > args.steps:
    parser.error(f"--profile-step must be between 0 (none) and --steps ({args.steps})")

try:
    import torch
except ImportError as error:
    print(f"train_step: PyTorch is not installed: {error}", file=sys.stderr)
    sys.exit(2)
if not torch.cuda.is_available():
    print("train_step: PyTorch sees no CUDA device", file=sys.stderr)
    sys.exit(2)

torch.manual_seed(0)
torch.use_deterministic_algorithms(True)
model = torch.nn.Sequential(
    torch.nn.Linear(256, args.width),
    torch.nn.ReLU(),
    torch.nn.Linear(args.width, args.width),
    torch.nn.ReLU(),
    torch.nn.Linear(args.width, 10),
).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
inputs = torch.randn(args.batch, 256, device="cuda")
labels = torch.randint(0, 10, (args.batch,), device="cuda")

for step in range(1, args.steps + 1):
    profiled = step == args.profile_step
    if profiled:
        torch.cuda.profiler.start()
    torch.cuda.nvtx.range_push(f"step {step}")
    optimizer.zero_grad(set_to_none=False)
    loss = torch.nn.functional.cross_entropy(model(inputs), labels)
    loss.backward()
    optimizer.step()
    torch.cuda.nvtx.range_pop()
    if profiled:
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
    print(f"step {step}: loss {loss.item():.6f}")
torch.cuda.synchronize()
print(f"train_step: OK ({args.steps} steps, torch {torch.__version__})")
