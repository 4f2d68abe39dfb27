// An MPI program on the host reference device: every rank computes on the device, passes its result
// to the next rank around a ring and checks what it got (the multi-rank tests of rocprofv3/rocpd).
//
//   mpi_ring [--elements N]
//
// Rank r of a job of S ranks:
//   1. copies its input (element i = r + 1 + i) from host memory to the device (HOST_TO_DEVICE),
//   2. dispatches "ring_scale" (doubles every element) r + 1 times, each followed by a copy of the
//      scaled data to a backup buffer on the device (DEVICE_TO_DEVICE),
//   3. copies the scaled data to host memory (DEVICE_TO_HOST) and sends it to rank (r + 1) % S,
//      receiving rank (r - 1) % S's with MPI_Sendrecv,
//   4. copies what it received to the device (HOST_TO_DEVICE), dispatches "ring_add" once (its own
//      scaled data plus the received), copies the sum back (DEVICE_TO_HOST) and checks it against
//      the values computed on the host,
//   5. agrees with the others through MPI_Allreduce whether every rank's check passed.
// So rank r dispatches r + 2 kernels (r + 1 ring_scale, 1 ring_add) and makes r + 5 copies; it
// prints "mpi_ring: rank r of S: kernels K copies C check ok|FAILED". Exits 0 when every rank's
// check passed, 1 when one failed, 90 when a device call failed.
#include <rocprofiler-sdk-host/host.h>

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace
{
struct ring_args
{
    int64_t* data;     // scaled in place by ring_scale; the left operand of ring_add
    int64_t* received; // the right operand of ring_add
    int64_t* sum;      // ring_add's result
    uint64_t n;
};

void
ring_scale(const rocprofiler_host_work_item_t* item, void* args)
{
    const auto* a = static_cast<const ring_args*>(args);
    if(item->global_linear_id < a->n) a->data[item->global_linear_id] *= 2;
}

void
ring_add(const rocprofiler_host_work_item_t* item, void* args)
{
    const auto* a = static_cast<const ring_args*>(args);
    const auto  i = item->global_linear_id;
    if(i < a->n) a->sum[i] = a->data[i] + a->received[i];
}

void
check(rocprofiler_host_status_t status, const char* what)
{
    if(status == ROCPROFILER_HOST_STATUS_SUCCESS) return;
    std::fprintf(stderr, "mpi_ring: %s failed: %s\n", what, rocprofiler_host_status_string(status));
    MPI_Abort(MPI_COMM_WORLD, 90);
}

// The scaled input of rank @p rank: (rank + 1 + i) * 2^(rank + 1), exact in 64 bits for the
// ranks and sizes main() accepts.
int64_t
scaled_value(int rank, uint64_t i)
{
    return (static_cast<int64_t>(rank) + 1 + static_cast<int64_t>(i)) << (rank + 1);
}
} // namespace

int
main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    uint64_t n = 1024;
    for(int i = 1; i < argc; ++i)
    {
        if(std::strcmp(argv[i], "--elements") == 0 && i + 1 < argc)
            n = std::strtoull(argv[++i], nullptr, 10);
        else
        {
            if(rank == 0) std::fprintf(stderr, "mpi_ring: unknown argument '%s'\n", argv[i]);
            MPI_Finalize();
            return 2;
        }
    }
    if(size > 32 || n == 0 || n > (uint64_t{1} << 24))
    {
        if(rank == 0)
            std::fprintf(stderr,
                         "mpi_ring: at most 32 ranks and 1 to 2^24 elements (64-bit values)\n");
        MPI_Finalize();
        return 2;
    }

    auto host_in  = std::vector<int64_t>(n);
    auto host_out = std::vector<int64_t>(n);
    auto host_got = std::vector<int64_t>(n);
    for(uint64_t i = 0; i < n; ++i)
        host_in[i] = static_cast<int64_t>(rank) + 1 + static_cast<int64_t>(i);

    auto       args  = ring_args{};
    int64_t*   saved = nullptr;
    const auto bytes = n * sizeof(int64_t);
    args.n           = n;
    check(rocprofiler_host_malloc(bytes, reinterpret_cast<void**>(&args.data)), "malloc");
    check(rocprofiler_host_malloc(bytes, reinterpret_cast<void**>(&args.received)), "malloc");
    check(rocprofiler_host_malloc(bytes, reinterpret_cast<void**>(&args.sum)), "malloc");
    check(rocprofiler_host_malloc(bytes, reinterpret_cast<void**>(&saved)), "malloc");

    rocprofiler_host_kernel_t scale = {};
    rocprofiler_host_kernel_t add   = {};
    rocprofiler_host_queue_t  queue = {};
    check(rocprofiler_host_register_kernel("ring_scale", ring_scale, 0, 0, &scale), "register");
    check(rocprofiler_host_register_kernel("ring_add", ring_add, 0, 0, &add), "register");
    check(rocprofiler_host_create_queue(&queue), "create_queue");

    auto kernels  = 0;
    auto copies   = 0;
    auto dispatch = [&](rocprofiler_host_kernel_t kernel)
    {
        auto params           = rocprofiler_host_dispatch_params_t{};
        params.size           = sizeof(params);
        params.kernel         = kernel;
        params.grid           = {static_cast<uint32_t>((n + 63) / 64), 1, 1};
        params.workgroup_size = {64, 1, 1};
        params.args           = &args;
        params.args_size      = sizeof(args);
        check(rocprofiler_host_dispatch(queue, &params), "dispatch");
        check(rocprofiler_host_queue_synchronize(queue), "synchronize");
        ++kernels;
    };
    auto copy = [&](void* dst, const void* src)
    {
        check(rocprofiler_host_memcpy(dst, src, bytes), "memcpy");
        ++copies;
    };

    copy(args.data, host_in.data());
    for(int round = 0; round <= rank; ++round)
    {
        dispatch(scale);
        copy(saved, args.data);
    }
    copy(host_out.data(), args.data);

    const auto right = (rank + 1) % size;
    const auto left  = (rank + size - 1) % size;
    MPI_Sendrecv(host_out.data(),
                 static_cast<int>(n),
                 MPI_INT64_T,
                 right,
                 0,
                 host_got.data(),
                 static_cast<int>(n),
                 MPI_INT64_T,
                 left,
                 0,
                 MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);

    copy(args.received, host_got.data());
    dispatch(add);
    copy(host_out.data(), args.sum);

    auto good = 1;
    for(uint64_t i = 0; i < n && good != 0; ++i)
        if(host_out[i] != scaled_value(rank, i) + scaled_value(left, i))
        {
            std::fprintf(stderr,
                         "mpi_ring: rank %d: element %llu is %lld, expected %lld\n",
                         rank,
                         static_cast<unsigned long long>(i),
                         static_cast<long long>(host_out[i]),
                         static_cast<long long>(scaled_value(rank, i) + scaled_value(left, i)));
            good = 0;
        }
    auto all_good = 0;
    MPI_Allreduce(&good, &all_good, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);

    std::printf("mpi_ring: rank %d of %d: kernels %d copies %d check %s\n",
                rank,
                size,
                kernels,
                copies,
                good != 0 ? "ok" : "FAILED");
    std::fflush(stdout);

    check(rocprofiler_host_destroy_queue(queue), "destroy_queue");
    for(auto* p : {args.data, args.received, args.sum, saved})
        check(rocprofiler_host_free(p), "free");
    MPI_Finalize();
    return all_good != 0 ? 0 : 1;
}
