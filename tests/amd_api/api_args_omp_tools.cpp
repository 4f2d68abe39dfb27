// The OMPT argument union with OpenMP's own omp-tools.h included first (as an OpenMP tool does):
// the stand-ins step aside, OpenMP's types are used, and the layout is rocprofiler-sdk's.
// (by its full path, ROCPROFILER_OMP_TOOLS_HEADER: the folder of clang's copy holds clang's own
// stddef.h, which another compiler must not pick up)
#include ROCPROFILER_OMP_TOOLS_HEADER

#include <rocprofiler-sdk/callback_tracing.h>

#include <cstddef>
#include <type_traits>

#if defined(ROCPROFILER_OMPT_STAND_INS)
#    error "the OMPT stand-ins were declared although omp-tools.h came first"
#endif

static_assert(sizeof(rocprofiler_ompt_args_t) == 128, "OMPT arguments");
static_assert(sizeof(rocprofiler_callback_tracing_ompt_data_t) == 136, "OMPT record");
static_assert(offsetof(rocprofiler_ompt_callback_functions_t, ompt_get_unique_id) == 120,
              "entry points");
static_assert(std::is_same<decltype(rocprofiler_ompt_args_t{}.thread_begin.thread_type),
                           ompt_thread_t>::value,
              "OpenMP's thread type");

int
main()
{
    rocprofiler_callback_tracing_ompt_data_t data{};
    data.args.thread_begin.thread_type = ompt_thread_initial;
    return data.args.thread_begin.thread_type == ompt_thread_initial ? 0 : 1;
}
