# A PyTorch DistributedDataParallel training step over NCCL, one process per GPU, for the
# multi-GPU suite. Usage:
#   python3 ddp_step.py run <out_dir>
#       spawns DDP_WORLD_SIZE processes (default: min(2, number of GPUs); 1 is allowed: NCCL with
#       one rank on one GPU) with torch.multiprocessing. Rank r uses GPU r: a small MLP wrapped in
#       DDP (1 MB buckets, so gradients are all-reduced in several buckets while backward still
#       runs), 3 steps of forward, loss, backward, Adam step, then an explicit all_reduce. Writes
#       <out_dir>/rank<r>.pt (torch.save: parameters, gradients, Adam moments, losses, the
#       all_reduce result) and <out_dir>/rank<r>.json (rank, pid, device, versions). With
#       DDP_RANK_STDERR=1 each rank's stderr (the SDK's log lines) goes to <out_dir>/rank<r>.stderr.
#   python3 ddp_step.py compare <ref_dir> <prof_dir>
#       compares every tensor of every rank bit for bit; prints RESULT/FAIL lines, exits 1 on a
#       difference.
# Exits 77 (CTest SKIP) without PyTorch, CUDA, NCCL, or with fewer GPUs than the world size.
import datetime
import json
import os
import socket
import sys

STEPS = 3


def skip(message):
    print(f"SKIP: {message}")
    sys.exit(77)


def worker(rank, world_size, out_dir, port):
    if os.environ.get("DDP_RANK_STDERR") == "1":
        fd = os.open(os.path.join(out_dir, f"rank{rank}.stderr"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 2)
        os.close(fd)
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.cuda.set_device(rank)
    torch.use_deterministic_algorithms(True)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    timeout = datetime.timedelta(seconds=int(os.environ.get("DDP_TIMEOUT_S", "120")))
    dist.init_process_group("nccl", rank=rank, world_size=world_size, timeout=timeout)

    torch.manual_seed(1234)  # the same initial model on every rank (DDP broadcasts rank 0's too)
    model = torch.nn.Sequential(
        torch.nn.Linear(256, 512),
        torch.nn.ReLU(),
        torch.nn.Linear(512, 512),
        torch.nn.ReLU(),
        torch.nn.Linear(512, 10),
    ).cuda()
    ddp = DistributedDataParallel(model, device_ids=[rank], bucket_cap_mb=1)
    optimizer = torch.optim.Adam(ddp.parameters(), lr=1e-2)
    generator = torch.Generator(device="cuda")
    generator.manual_seed(100 + rank)  # each rank its own data
    inputs = torch.randn(64, 256, device="cuda", generator=generator)
    labels = torch.randint(0, 10, (64,), device="cuda", generator=generator)
    losses = []
    for _ in range(STEPS):
        optimizer.zero_grad(set_to_none=False)
        loss = torch.nn.functional.cross_entropy(ddp(inputs), labels)
        loss.backward()
        optimizer.step()
        losses.append(loss.detach())
    extra = torch.arange(1024, device="cuda", dtype=torch.float32) * (rank + 1)
    dist.all_reduce(extra)
    torch.cuda.synchronize()

    state = {"loss": torch.stack(losses).cpu(), "all_reduce": extra.cpu()}
    for name, p in model.named_parameters():
        state["param." + name] = p.detach().cpu().clone()
        state["grad." + name] = p.grad.detach().cpu().clone()
    for index, s in enumerate(optimizer.state.values()):
        state[f"adam.{index}.exp_avg"] = s["exp_avg"].cpu().clone()
        state[f"adam.{index}.exp_avg_sq"] = s["exp_avg_sq"].cpu().clone()
    torch.save(state, os.path.join(out_dir, f"rank{rank}.pt"))
    version = torch.cuda.nccl.version()
    nccl = ".".join(str(v) for v in version) if isinstance(version, tuple) else str(version)
    info = {
        "rank": rank,
        "pid": os.getpid(),
        "device": rank,
        "world_size": world_size,
        "torch": torch.__version__,
        "nccl": nccl,
        "loss": [float(x) for x in state["loss"]],
    }
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as f:
        json.dump(info, f)
    dist.barrier()
    dist.destroy_process_group()


def run(out_dir):
    try:
        import torch
        import torch.distributed as dist
        import torch.multiprocessing as mp
    except Exception as error:  # noqa: BLE001 - any import failure means "no PyTorch here"
        skip(f"PyTorch is not importable: {error}")
    if not torch.cuda.is_available():
        skip("PyTorch has no CUDA device")
    if not dist.is_available() or not dist.is_nccl_available():
        skip("PyTorch has no NCCL backend")
    gpus = torch.cuda.device_count()
    world_size = int(os.environ.get("DDP_WORLD_SIZE", str(min(2, gpus))))
    if world_size < 1 or world_size > 2:
        print(f"DDP_WORLD_SIZE must be 1 or 2, not {world_size}", file=sys.stderr)
        sys.exit(2)
    if gpus < world_size:
        skip(f"needs {world_size} GPUs (found {gpus})")
    os.makedirs(out_dir, exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(worker, args=(world_size, out_dir, port), nprocs=world_size, join=True)
    print(f"ddp_step: world_size={world_size} torch={torch.__version__} steps={STEPS} done")


def compare(ref_dir, prof_dir):
    import torch

    failures = []

    def fail(message):
        print(f"FAIL: {message}")
        failures.append(message)

    ranks = sorted(f for f in os.listdir(ref_dir) if f.startswith("rank") and f.endswith(".pt"))
    if not ranks:
        fail(f"no rank*.pt in {ref_dir}")
    compared = 0
    differing = []
    profiled = {}
    for name in ranks:
        path = os.path.join(prof_dir, name)
        if not os.path.exists(path):
            fail(f"the profiled run wrote no {name}")
            continue
        ref = torch.load(os.path.join(ref_dir, name), map_location="cpu")
        prof = torch.load(path, map_location="cpu")
        profiled[name] = prof
        if set(ref) != set(prof):
            fail(f"{name}: tensors differ in names: {sorted(set(ref) ^ set(prof))}")
        for key in sorted(set(ref) & set(prof)):
            a, b = ref[key], prof[key]
            compared += 1
            same = a.dtype == b.dtype and a.shape == b.shape and a.numpy().tobytes() == b.numpy().tobytes()
            if not same:
                differing.append(f"{name}:{key}")
    print(f"RESULT multi_gpu_ddp_ranks={len(ranks)}")
    print(f"RESULT multi_gpu_ddp_tensors_compared={compared}")
    if differing:
        fail(f"{len(differing)} tensors differ from the run without the profiler (multi_gpu_bit_identical=NO): "
             + ", ".join(differing[:8]))
    else:
        print("RESULT multi_gpu_bit_identical=yes")
    # DDP keeps the replicas equal: parameters of every rank are the same bytes.
    if len(profiled) > 1:
        names = sorted(profiled)
        first = profiled[names[0]]
        diverged = [
            f"{other}:{key}"
            for other in names[1:]
            for key in first
            if key.startswith("param.") and first[key].numpy().tobytes() != profiled[other][key].numpy().tobytes()
        ]
        print(f"RESULT multi_gpu_ddp_replicas_equal={'no' if diverged else 'yes'}")
        if diverged:
            fail("DDP replicas diverged in the profiled run: " + ", ".join(diverged[:8]))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "run":
        run(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        print(__doc__ or "usage: ddp_step.py run <out_dir> | compare <ref_dir> <prof_dir>", file=sys.stderr)
        sys.exit(2)
