#!/usr/bin/env python3
"""A Python parent and 3 worker processes, each dispatching kernels on the host reference device.

    python3 python_workers.py <path of librocprofiler-sdk.so> <results.json>

The workers are started with multiprocessing's "spawn" method (a fresh interpreter, as PyTorch
asks for workers that use a device): each process, the parent included, loads the device library
itself and dispatches its own number of kernels (the parent 5, worker i 6 + i), checking every
result. Writes {"<pid>": <dispatches>} of the four processes to results.json; prints
"python_workers: ok" and exits 0 when every result was right, else exits 1.
"""

import json
import multiprocessing
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rocprofv3",
                                "programs"))
from fork_multiprocessing import Device  # noqa: E402  (the ctypes binding of the host device)


def worker(library, count, conn):
    good = Device(library).run(count)
    conn.send((os.getpid(), count, good))
    conn.close()


def main():
    library, results_path = sys.argv[1], sys.argv[2]
    context = multiprocessing.get_context("spawn")
    # Pipes, not a Queue: a Queue's lock would start multiprocessing's resource tracker, one
    # more interpreter that uses no device.
    workers = []
    for i in range(3):
        parent_end, child_end = context.Pipe(duplex=False)
        p = context.Process(target=worker, args=(library, 6 + i, child_end))
        p.start()
        child_end.close()
        workers.append((p, parent_end))
    counts = {str(os.getpid()): 5}
    good = Device(library).run(5)
    for p, conn in workers:
        pid, count, ok = conn.recv()
        p.join(60)
        counts[str(pid)] = count
        good = good and ok and p.exitcode == 0
    with open(results_path, "w") as f:
        json.dump(counts, f)
    print("python_workers:", "ok" if good else "FAILED")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
