"""A Python program that uses the host reference device and forks workers with multiprocessing.

    python3 fork_multiprocessing.py <path of librocprofiler-sdk.so>

The parent dispatches 10 kernels, starts 3 workers with the "fork" start method (each dispatches
10 kernels of its own on the device it inherited), then dispatches 10 more. Every result is
checked; prints "fork_multiprocessing: ok" and exits 0 when all are right, else exits 1.
"""

import ctypes
import multiprocessing
import sys

N = 64


class Dim3(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint32), ("y", ctypes.c_uint32), ("z", ctypes.c_uint32)]


class DispatchParams(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("kernel", ctypes.c_uint64),
        ("grid", Dim3),
        ("workgroup_size", Dim3),
        ("args", ctypes.c_void_p),
        ("args_size", ctypes.c_size_t),
        ("dynamic_group_segment_size", ctypes.c_uint32),
        ("completion_signal", ctypes.c_uint64),
    ]


KERNEL_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)


def add_one(_item, args):
    # One work-item adds 1 to each of the N ints its argument points to.
    data = ctypes.cast(ctypes.c_void_p.from_address(args).value, ctypes.POINTER(ctypes.c_int))
    for i in range(N):
        data[i] += 1


KERNEL = KERNEL_FN(add_one)


class Device:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.kernel = ctypes.c_uint64(0)
        self.queue = ctypes.c_uint64(0)
        self.check(
            self.lib.rocprofiler_host_register_kernel(
                b"py_add_one", KERNEL, 0, 0, ctypes.byref(self.kernel)
            ),
            "register",
        )
        self.check(self.lib.rocprofiler_host_create_queue(ctypes.byref(self.queue)), "queue")

    @staticmethod
    def check(status, what):
        if status != 0:
            raise RuntimeError(f"{what} failed with status {status}")

    def run(self, count):
        """Dispatches add_one `count` times over fresh memory; True when every int is `count`."""
        raw = ctypes.c_void_p()
        self.check(self.lib.rocprofiler_host_malloc(ctypes.c_size_t(4 * N), ctypes.byref(raw)), "malloc")
        ctypes.memset(raw, 0, 4 * N)
        done = ctypes.c_uint64(0)
        self.check(self.lib.rocprofiler_host_create_signal(ctypes.c_int64(count), ctypes.byref(done)), "signal")
        args = ctypes.c_void_p(raw.value)
        for _ in range(count):
            params = DispatchParams()
            params.size = ctypes.sizeof(DispatchParams)
            params.kernel = self.kernel.value
            params.grid = Dim3(1, 1, 1)
            params.workgroup_size = Dim3(1, 1, 1)
            params.args = ctypes.cast(ctypes.byref(args), ctypes.c_void_p)
            params.args_size = ctypes.sizeof(args)
            params.completion_signal = done.value
            self.check(self.lib.rocprofiler_host_dispatch(self.queue, ctypes.byref(params)), "dispatch")
        observed = ctypes.c_int64(-1)
        self.check(
            self.lib.rocprofiler_host_signal_wait(
                done, 2, ctypes.c_int64(1), ctypes.c_uint64(30_000_000_000), ctypes.byref(observed)
            ),
            "wait",
        )
        data = ctypes.cast(raw, ctypes.POINTER(ctypes.c_int))
        good = all(data[i] == count for i in range(N))
        self.lib.rocprofiler_host_destroy_signal(done)
        self.lib.rocprofiler_host_free(raw)
        return good


DEVICE = None


def worker(_index):
    return DEVICE.run(10)


def main():
    global DEVICE
    DEVICE = Device(sys.argv[1])
    good = DEVICE.run(10)
    context = multiprocessing.get_context("fork")
    pool = context.Pool(3)
    results = pool.map(worker, range(3))
    pool.close()
    pool.join()
    good = good and all(results) and DEVICE.run(10)
    print("fork_multiprocessing:", "ok" if good else f"FAILED (workers: {results})")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
