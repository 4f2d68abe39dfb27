/*
 * host_demo: a small application for the host reference device.
 *
 * It registers five named kernels, copies two inputs from host memory to the device, runs the
 * kernels on two in-order queues for a number of iterations (waiting on one completion signal per
 * iteration), copies two results back, and checks every result against values computed on the
 * CPU. Two kernels are not idempotent (accumulate: a[i] += b[i]; scale_inplace:
 * x[i] *= s), so a profiler that replays a kernel without restoring memory makes this program
 * fail. Run it under a tool with ROCP_TOOL_LIBRARIES=<tool.so> or rocprofv3.
 *
 * Exit status: 0 when every result matches, 1 on a mismatch, 2 on bad options or a device error.
 * The last line of a successful run is "host_demo: OK ..." with the number of dispatches made.
 */
#include <rocprofiler-sdk-host/host.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HISTOGRAM_BINS 16u
#define WORKGROUP_SIZE 64u
/* Dispatches per iteration: 3 on queue A, 2 on queue B. */
#define DISPATCHES_PER_ITERATION 5
/* How long one iteration may take before the demo gives up, in nanoseconds. */
#define ITERATION_TIMEOUT_NS (30ull * 1000ull * 1000ull * 1000ull)

#define CHECK_HOST(CALL)                                                                           \
    do                                                                                             \
    {                                                                                              \
        rocprofiler_host_status_t status_ = (CALL);                                                \
        if(status_ != ROCPROFILER_HOST_STATUS_SUCCESS)                                             \
        {                                                                                          \
            fprintf(stderr,                                                                        \
                    "host_demo: %s failed: %s (%s)\n",                                             \
                    #CALL,                                                                         \
                    rocprofiler_host_status_string(status_),                                       \
                    rocprofiler_host_status_message(status_));                                     \
            exit(2);                                                                               \
        }                                                                                          \
    } while(0)

/* ---- kernels ---------------------------------------------------------------------------------
 * Each is called once per work-item; work-items past the end of the data return at once. */

typedef struct vector_add_args
{
    const float* a;
    const float* b;
    float*       c;
    uint64_t     n;
} vector_add_args;

static void
vector_add(const rocprofiler_host_work_item_t* item, void* args)
{
    const vector_add_args* p = (const vector_add_args*)args;
    uint64_t               i = item->global_linear_id;
    if(i < p->n) p->c[i] = p->a[i] + p->b[i];
}

typedef struct saxpy_args
{
    float        alpha;
    const float* x;
    const float* y;
    float*       z;
    uint64_t     n;
} saxpy_args;

/* z = alpha * x + y */
static void
saxpy(const rocprofiler_host_work_item_t* item, void* args)
{
    const saxpy_args* p = (const saxpy_args*)args;
    uint64_t          i = item->global_linear_id;
    if(i < p->n) p->z[i] = p->alpha * p->x[i] + p->y[i];
}

typedef struct accumulate_args
{
    int64_t*       a;
    const int64_t* b;
    uint64_t       n;
} accumulate_args;

/* a[i] += b[i]: not idempotent. */
static void
accumulate(const rocprofiler_host_work_item_t* item, void* args)
{
    const accumulate_args* p = (const accumulate_args*)args;
    uint64_t               i = item->global_linear_id;
    if(i < p->n) p->a[i] += p->b[i];
}

typedef struct histogram_args
{
    const uint32_t* data;
    uint32_t*       bins; /* HISTOGRAM_BINS counters, accumulated over every iteration */
    uint64_t        n;
} histogram_args;

/* Counts values per bin. Each workgroup counts into its group segment (its work-items run one
 * after another on one thread, so no atomics are needed there), and the last work-item of the
 * workgroup adds the workgroup's counts to the global bins with atomics, since workgroups run
 * concurrently. */
static void
histogram(const rocprofiler_host_work_item_t* item, void* args)
{
    const histogram_args* p     = (const histogram_args*)args;
    uint32_t*             local = (uint32_t*)item->group_segment;
    uint64_t              i     = item->global_linear_id;
    uint32_t wg_items = item->workgroup_size.x * item->workgroup_size.y * item->workgroup_size.z;

    if(i < p->n) local[p->data[i] % HISTOGRAM_BINS] += 1;
    if(item->local_linear_id + 1 == wg_items)
    {
        uint32_t bin;
        for(bin = 0; bin < HISTOGRAM_BINS; ++bin)
            if(local[bin] != 0) __atomic_fetch_add(&p->bins[bin], local[bin], __ATOMIC_RELAXED);
    }
}

typedef struct scale_args
{
    double*  x;
    double   s;
    uint64_t n;
} scale_args;

/* x[i] *= s: not idempotent. */
static void
scale_inplace(const rocprofiler_host_work_item_t* item, void* args)
{
    const scale_args* p = (const scale_args*)args;
    uint64_t          i = item->global_linear_id;
    if(i < p->n) p->x[i] *= p->s;
}

/* ---- helpers --------------------------------------------------------------------------------- */

static void
usage(FILE* out)
{
    fprintf(out,
            "usage: host_demo [--iterations N] [--size N]\n"
            "  --iterations N  times the kernel sequence runs (default 5, 1..100000)\n"
            "  --size N        elements per array (default 4096, 1..16777216)\n");
}

static int
parse_count(const char* text, unsigned long max_value, unsigned long* out)
{
    char*         end = NULL;
    unsigned long value;
    if(text == NULL || *text == '\0' || *text == '-') return 0;
    errno = 0;
    value = strtoul(text, &end, 10);
    if(errno != 0 || end == NULL || *end != '\0' || value == 0 || value > max_value) return 0;
    *out = value;
    return 1;
}

static void*
device_alloc(size_t bytes)
{
    void* ptr = NULL;
    CHECK_HOST(rocprofiler_host_malloc(bytes, &ptr));
    return ptr;
}

static void
dispatch(rocprofiler_host_queue_t  queue,
         rocprofiler_host_kernel_t kernel,
         uint64_t                  n,
         const void*               args,
         size_t                    args_size,
         uint32_t                  dynamic_group_bytes,
         rocprofiler_host_signal_t signal)
{
    rocprofiler_host_dispatch_params_t params;
    memset(&params, 0, sizeof(params));
    params.size                       = sizeof(params);
    params.kernel                     = kernel;
    params.grid.x                     = (uint32_t)((n + WORKGROUP_SIZE - 1) / WORKGROUP_SIZE);
    params.grid.y                     = 1;
    params.grid.z                     = 1;
    params.workgroup_size.x           = WORKGROUP_SIZE;
    params.workgroup_size.y           = 1;
    params.workgroup_size.z           = 1;
    params.args                       = args;
    params.args_size                  = args_size;
    params.dynamic_group_segment_size = dynamic_group_bytes;
    params.completion_signal          = signal;
    CHECK_HOST(rocprofiler_host_dispatch(queue, &params));
}

static int
close_enough(float expected, float actual)
{
    float diff = fabsf(expected - actual);
    return diff <= 1e-5f * (fabsf(expected) > 1.0f ? fabsf(expected) : 1.0f);
}

/* ---- main ------------------------------------------------------------------------------------ */

int
main(int argc, char** argv)
{
    unsigned long             iterations = 5;
    unsigned long             size       = 4096;
    uint64_t                  n, i, it;
    unsigned long             mismatches = 0;
    int                       argi;
    rocprofiler_host_kernel_t k_vector_add, k_saxpy, k_accumulate, k_histogram, k_scale;
    rocprofiler_host_queue_t  queue_a, queue_b;
    float *                   a, *b, *c, *z;
    float *                   host_a, *host_b, *host_c, *host_z; /* ordinary host memory */
    int64_t *                 acc, *inc;
    uint32_t *                data, *bins;
    double*                   x;
    uint32_t                  expected_bins[HISTOGRAM_BINS];
    double                    expected_x[5];
    const float               alpha = 2.5f;
    const double              s     = 1.5;

    for(argi = 1; argi < argc; ++argi)
    {
        if(strcmp(argv[argi], "--help") == 0 || strcmp(argv[argi], "-h") == 0)
        {
            usage(stdout);
            return 0;
        }
        else if(strcmp(argv[argi], "--iterations") == 0 && argi + 1 < argc)
        {
            if(!parse_count(argv[++argi], 100000ul, &iterations))
            {
                fprintf(stderr, "host_demo: invalid --iterations '%s'\n", argv[argi]);
                usage(stderr);
                return 2;
            }
        }
        else if(strcmp(argv[argi], "--size") == 0 && argi + 1 < argc)
        {
            if(!parse_count(argv[++argi], 16777216ul, &size))
            {
                fprintf(stderr, "host_demo: invalid --size '%s'\n", argv[argi]);
                usage(stderr);
                return 2;
            }
        }
        else
        {
            fprintf(stderr, "host_demo: unknown or incomplete option '%s'\n", argv[argi]);
            usage(stderr);
            return 2;
        }
    }
    n = size;

    CHECK_HOST(rocprofiler_host_register_kernel("vector_add", vector_add, 0, 0, &k_vector_add));
    CHECK_HOST(rocprofiler_host_register_kernel("saxpy", saxpy, 0, 0, &k_saxpy));
    CHECK_HOST(rocprofiler_host_register_kernel("accumulate", accumulate, 0, 0, &k_accumulate));
    /* The histogram's bins live in the dynamic group segment of each dispatch. */
    CHECK_HOST(rocprofiler_host_register_kernel("histogram", histogram, 0, 0, &k_histogram));
    CHECK_HOST(rocprofiler_host_register_kernel("scale_inplace", scale_inplace, 0, 0, &k_scale));
    CHECK_HOST(rocprofiler_host_create_queue(&queue_a));
    CHECK_HOST(rocprofiler_host_create_queue(&queue_b));

    a    = (float*)device_alloc(n * sizeof(float));
    b    = (float*)device_alloc(n * sizeof(float));
    c    = (float*)device_alloc(n * sizeof(float));
    z    = (float*)device_alloc(n * sizeof(float));
    acc  = (int64_t*)device_alloc(n * sizeof(int64_t));
    inc  = (int64_t*)device_alloc(n * sizeof(int64_t));
    data = (uint32_t*)device_alloc(n * sizeof(uint32_t));
    bins = (uint32_t*)device_alloc(HISTOGRAM_BINS * sizeof(uint32_t));
    x    = (double*)device_alloc(n * sizeof(double));
    /* The float inputs and outputs travel through host memory, as a GPU program's do. */
    host_a = (float*)malloc(n * sizeof(float));
    host_b = (float*)malloc(n * sizeof(float));
    host_c = (float*)malloc(n * sizeof(float));
    host_z = (float*)malloc(n * sizeof(float));
    if(!host_a || !host_b || !host_c || !host_z)
    {
        fprintf(stderr, "host_demo: out of host memory\n");
        return 2;
    }

    for(i = 0; i < n; ++i)
    {
        host_a[i] = (float)(i % 1000) * 0.25f;
        host_b[i] = (float)(i % 7) - 3.0f;
        acc[i]    = (int64_t)i * 3 - 100;
        inc[i]    = (int64_t)(i % 11) + 1;
        data[i]   = (uint32_t)((i * 2654435761u) >> 7);
        x[i]      = 1.0 + (double)(i % 5);
    }
    CHECK_HOST(rocprofiler_host_memcpy(a, host_a, n * sizeof(float)));
    CHECK_HOST(rocprofiler_host_memcpy(b, host_b, n * sizeof(float)));
    CHECK_HOST(rocprofiler_host_memset(bins, 0, HISTOGRAM_BINS * sizeof(uint32_t)));

    for(it = 0; it < iterations; ++it)
    {
        rocprofiler_host_signal_t done;
        rocprofiler_host_status_t wait_status;
        int64_t                   observed = 0;
        vector_add_args           va       = {a, b, c, n};
        saxpy_args                sx       = {alpha, a, b, z, n};
        accumulate_args           ac       = {acc, inc, n};
        histogram_args            hg       = {data, bins, n};
        scale_args                sc       = {x, s, n};

        /* One signal for the iteration: every dispatch decrements it once. */
        CHECK_HOST(rocprofiler_host_create_signal(DISPATCHES_PER_ITERATION, &done));
        dispatch(queue_a, k_vector_add, n, &va, sizeof(va), 0, done);
        dispatch(queue_a, k_saxpy, n, &sx, sizeof(sx), 0, done);
        dispatch(queue_a, k_accumulate, n, &ac, sizeof(ac), 0, done);
        dispatch(queue_b,
                 k_histogram,
                 n,
                 &hg,
                 sizeof(hg),
                 (uint32_t)(HISTOGRAM_BINS * sizeof(uint32_t)),
                 done);
        dispatch(queue_b, k_scale, n, &sc, sizeof(sc), 0, done);

        wait_status = rocprofiler_host_signal_wait(
            done, ROCPROFILER_HOST_SIGNAL_CONDITION_EQ, 0, ITERATION_TIMEOUT_NS, &observed);
        if(wait_status != ROCPROFILER_HOST_STATUS_SUCCESS)
        {
            fprintf(stderr,
                    "host_demo: iteration %llu: completion signal still %lld after waiting: %s\n",
                    (unsigned long long)it,
                    (long long)observed,
                    rocprofiler_host_status_string(wait_status));
            return 2;
        }
        CHECK_HOST(rocprofiler_host_destroy_signal(done));
    }
    CHECK_HOST(rocprofiler_host_queue_synchronize(queue_a));
    CHECK_HOST(rocprofiler_host_queue_synchronize(queue_b));
    CHECK_HOST(rocprofiler_host_memcpy(host_c, c, n * sizeof(float)));
    CHECK_HOST(rocprofiler_host_memcpy(host_z, z, n * sizeof(float)));

    /* ---- verification against the CPU -------------------------------------------------------- */
    /* x starts at one of 5 values; each is multiplied by s once per iteration, in order. */
    for(i = 0; i < 5; ++i)
    {
        expected_x[i] = 1.0 + (double)i;
        for(it = 0; it < iterations; ++it)
            expected_x[i] *= s;
    }
    memset(expected_bins, 0, sizeof(expected_bins));
    for(i = 0; i < n; ++i)
        expected_bins[data[i] % HISTOGRAM_BINS] += (uint32_t)iterations;

    for(i = 0; i < n; ++i)
    {
        float   want_c   = host_a[i] + host_b[i];
        float   want_z   = alpha * host_a[i] + host_b[i];
        int64_t want_acc = (int64_t)i * 3 - 100 + (int64_t)iterations * inc[i];
        double  want_x   = expected_x[i % 5];

        if(!close_enough(want_c, host_c[i]) && mismatches++ < 10)
            fprintf(stderr,
                    "host_demo: vector_add[%llu] = %g, expected %g\n",
                    (unsigned long long)i,
                    (double)host_c[i],
                    (double)want_c);
        if(!close_enough(want_z, host_z[i]) && mismatches++ < 10)
            fprintf(stderr,
                    "host_demo: saxpy[%llu] = %g, expected %g\n",
                    (unsigned long long)i,
                    (double)host_z[i],
                    (double)want_z);
        if(acc[i] != want_acc && mismatches++ < 10)
            fprintf(stderr,
                    "host_demo: accumulate[%llu] = %lld, expected %lld (applied %s)\n",
                    (unsigned long long)i,
                    (long long)acc[i],
                    (long long)want_acc,
                    acc[i] > want_acc ? "too often" : "too rarely");
        if(x[i] != want_x && mismatches++ < 10)
            fprintf(stderr,
                    "host_demo: scale_inplace[%llu] = %.17g, expected %.17g\n",
                    (unsigned long long)i,
                    x[i],
                    want_x);
    }
    for(i = 0; i < HISTOGRAM_BINS; ++i)
    {
        if(bins[i] != expected_bins[i] && mismatches++ < 10)
            fprintf(stderr,
                    "host_demo: histogram bin %llu = %u, expected %u\n",
                    (unsigned long long)i,
                    bins[i],
                    expected_bins[i]);
    }

    CHECK_HOST(rocprofiler_host_destroy_queue(queue_a));
    CHECK_HOST(rocprofiler_host_destroy_queue(queue_b));
    CHECK_HOST(rocprofiler_host_free(a));
    CHECK_HOST(rocprofiler_host_free(b));
    CHECK_HOST(rocprofiler_host_free(c));
    CHECK_HOST(rocprofiler_host_free(z));
    CHECK_HOST(rocprofiler_host_free(acc));
    CHECK_HOST(rocprofiler_host_free(inc));
    CHECK_HOST(rocprofiler_host_free(data));
    CHECK_HOST(rocprofiler_host_free(bins));
    CHECK_HOST(rocprofiler_host_free(x));
    free(host_a);
    free(host_b);
    free(host_c);
    free(host_z);

    if(mismatches != 0)
    {
        fprintf(stderr,
                "host_demo: FAILED: %lu mismatching values (iterations %lu, size %lu)\n",
                mismatches,
                iterations,
                size);
        return 1;
    }
    printf("host_demo: OK: %lu iterations, size %lu, %lu dispatches on 2 queues\n",
           iterations,
           size,
           iterations * DISPATCHES_PER_ITERATION);
    return 0;
}
