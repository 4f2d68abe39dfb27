# torch.cuda.graph under rocprofv3 --kernel-trace: a two-layer step captured once and replayed
# REPLAYS times. Exit 77 (skip) without PyTorch or a CUDA device.
import sys

try:
    import torch
except ImportError:
    print("SKIP no torch")
    sys.exit(77)
if not torch.cuda.is_available():
    print("SKIP no CUDA device for torch")
    sys.exit(77)

REPLAYS = 5
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 64)).cuda()
static_in = torch.randn(32, 256, device="cuda")
side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    for _ in range(3):  # warm-up outside the graph, as PyTorch asks
        model(static_in)
torch.cuda.current_stream().wait_stream(side)
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    static_out = model(static_in)
expected = model(static_in).clone()
for _ in range(REPLAYS):
    graph.replay()
torch.cuda.synchronize()
ok = torch.allclose(static_out, expected, rtol=1e-5, atol=1e-6)
print(f"RESULT torch_graph_equal={int(ok)}")
print(f"GRAPH_EXPECT replays={REPLAYS}")
sys.exit(0 if ok else 1)
