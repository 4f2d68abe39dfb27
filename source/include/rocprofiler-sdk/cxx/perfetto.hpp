/**
 * @file cxx/perfetto.hpp
 * @brief Perfetto track-event categories for the SDK's tracing kinds, with rocprofiler-sdk's
 * names: a category type per kind of activity (`rocprofiler::sdk::category::kernel_dispatch`, ...)
 * with its name and description (`perfetto_category<T>`), the list a tool passes to Perfetto
 * (`ROCPROFILER_PERFETTO_CATEGORIES`), and the category of each callback or buffer tracing kind
 * (`get_perfetto_category(kind)`).
 *
 * The categories and the kind mapping need no Perfetto. When Perfetto's SDK header `<perfetto.h>`
 * is on the include path (a tool that writes Perfetto traces has it), this header also registers
 * the categories with `PERFETTO_DEFINE_CATEGORIES` in the including translation unit, as
 * rocprofiler-sdk's does; ROCPROFILER_SDK_PERFETTO_SDK says which. Not provided:
 * rocprofiler-sdk's `add_perfetto_annotation`. This SDK's own kinds map to categories too: the
 * CUDA API kinds to `cuda_api`, kernel replay to `kernel_dispatch`. C++17.
 */
#pragma once

#include <rocprofiler-sdk/cxx/details/mpl.hpp>
#include <rocprofiler-sdk/fwd.h>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace rocprofiler
{
namespace sdk
{
/** @brief Name and description of a category type; specialized for each category. */
template <typename Tp> struct perfetto_category;
} // namespace sdk
} // namespace rocprofiler

/** @brief Gives the category type(s) `__VA_ARGS__` (within rocprofiler::sdk) NAME and DESC. */
#define ROCPROFILER_DEFINE_PERFETTO_CATEGORY(NAME, DESC, ...)                                      \
    namespace rocprofiler                                                                          \
    {                                                                                              \
    namespace sdk                                                                                  \
    {                                                                                              \
    template <> struct perfetto_category<__VA_ARGS__>                                              \
    {                                                                                              \
        static constexpr auto name        = NAME;                                                  \
        static constexpr auto description = DESC;                                                  \
    };                                                                                             \
    }                                                                                              \
    }

/** @brief Declares the category type rocprofiler::sdk::NS::VALUE, named "VALUE". */
#define ROCPROFILER_DEFINE_CATEGORY(NS, VALUE, DESC)                                               \
    namespace rocprofiler                                                                          \
    {                                                                                              \
    namespace sdk                                                                                  \
    {                                                                                              \
    namespace NS                                                                                   \
    {                                                                                              \
    struct VALUE                                                                                   \
    {                                                                                              \
    };                                                                                             \
    }                                                                                              \
    }                                                                                              \
    }                                                                                              \
    ROCPROFILER_DEFINE_PERFETTO_CATEGORY(#VALUE, DESC, NS::VALUE)

ROCPROFILER_DEFINE_CATEGORY(category, hsa_api, "HSA API function")
ROCPROFILER_DEFINE_CATEGORY(category, hip_api, "HIP API function")
ROCPROFILER_DEFINE_CATEGORY(category, marker_api, "Marker API region")
ROCPROFILER_DEFINE_CATEGORY(category, rccl_api, "RCCL API function")
ROCPROFILER_DEFINE_CATEGORY(category, openmp, "OpenMP")
ROCPROFILER_DEFINE_CATEGORY(category, kernel_dispatch, "GPU kernel dispatch")
ROCPROFILER_DEFINE_CATEGORY(category, memory_copy, "Async memory copy")
ROCPROFILER_DEFINE_CATEGORY(category, memory_allocation, "Memory Allocation")
ROCPROFILER_DEFINE_CATEGORY(category, rocdecode_api, "rocDecode API function")
ROCPROFILER_DEFINE_CATEGORY(category, rocjpeg_api, "rocJPEG API function")
ROCPROFILER_DEFINE_CATEGORY(category, counter_collection, "Counter Collection")
ROCPROFILER_DEFINE_CATEGORY(category, kfd_events, "KFD events collection")
ROCPROFILER_DEFINE_CATEGORY(category, scratch_memory, "Scratch Memory Allocation")
ROCPROFILER_DEFINE_CATEGORY(category, cuda_api, "CUDA runtime or driver API function")
ROCPROFILER_DEFINE_CATEGORY(category, none, "Unknown category")

/** @brief A `perfetto::Category` of category type TYPE (relative to rocprofiler::sdk). */
#define ROCPROFILER_PERFETTO_CATEGORY(TYPE)                                                        \
    ::perfetto::Category(::rocprofiler::sdk::perfetto_category<::rocprofiler::sdk::TYPE>::name)    \
        .SetDescription(                                                                           \
            ::rocprofiler::sdk::perfetto_category<::rocprofiler::sdk::TYPE>::description)

/** @brief Every category, as PERFETTO_DEFINE_CATEGORIES takes them. */
#define ROCPROFILER_PERFETTO_CATEGORIES                                                            \
    ROCPROFILER_PERFETTO_CATEGORY(category::hsa_api),                                              \
        ROCPROFILER_PERFETTO_CATEGORY(category::hip_api),                                          \
        ROCPROFILER_PERFETTO_CATEGORY(category::marker_api),                                       \
        ROCPROFILER_PERFETTO_CATEGORY(category::rccl_api),                                         \
        ROCPROFILER_PERFETTO_CATEGORY(category::openmp),                                           \
        ROCPROFILER_PERFETTO_CATEGORY(category::kernel_dispatch),                                  \
        ROCPROFILER_PERFETTO_CATEGORY(category::memory_copy),                                      \
        ROCPROFILER_PERFETTO_CATEGORY(category::counter_collection),                               \
        ROCPROFILER_PERFETTO_CATEGORY(category::memory_allocation),                                \
        ROCPROFILER_PERFETTO_CATEGORY(category::rocdecode_api),                                    \
        ROCPROFILER_PERFETTO_CATEGORY(category::rocjpeg_api),                                      \
        ROCPROFILER_PERFETTO_CATEGORY(category::scratch_memory),                                   \
        ROCPROFILER_PERFETTO_CATEGORY(category::cuda_api),                                         \
        ROCPROFILER_PERFETTO_CATEGORY(category::none)

#if defined(__has_include)
#    if __has_include(<perfetto.h>)
#        include <perfetto.h>
#        define ROCPROFILER_SDK_PERFETTO_SDK 1
PERFETTO_DEFINE_CATEGORIES(ROCPROFILER_PERFETTO_CATEGORIES);
#    endif
#endif
#if !defined(ROCPROFILER_SDK_PERFETTO_SDK)
#    define ROCPROFILER_SDK_PERFETTO_SDK 0
#endif

namespace rocprofiler
{
namespace sdk
{
namespace detail
{
template <typename Tp>
constexpr const char*
category_name()
{
    return perfetto_category<Tp>::name;
}

// The category of each kind; NULL for a value that is no kind.
constexpr const char*
perfetto_category_of(rocprofiler_buffer_tracing_kind_t kind)
{
    switch(kind)
    {
    case ROCPROFILER_BUFFER_TRACING_HSA_CORE_API:
    case ROCPROFILER_BUFFER_TRACING_HSA_AMD_EXT_API:
    case ROCPROFILER_BUFFER_TRACING_HSA_IMAGE_EXT_API:
    case ROCPROFILER_BUFFER_TRACING_HSA_FINALIZE_EXT_API:
        return category_name<category::hsa_api>();
    case ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API:
    case ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API:
    case ROCPROFILER_BUFFER_TRACING_HIP_STREAM:
    case ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT:
    case ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT:
        return category_name<category::hip_api>();
    case ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API:
    case ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API:
    case ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API:
    case ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API:
        return category_name<category::marker_api>();
    case ROCPROFILER_BUFFER_TRACING_MEMORY_COPY:
        return category_name<category::memory_copy>();
    case ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION:
        return category_name<category::memory_allocation>();
    case ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH:
        return category_name<category::kernel_dispatch>();
    case ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY:
        return category_name<category::scratch_memory>();
    case ROCPROFILER_BUFFER_TRACING_RCCL_API:
        return category_name<category::rccl_api>();
    case ROCPROFILER_BUFFER_TRACING_OMPT:
        return category_name<category::openmp>();
    case ROCPROFILER_BUFFER_TRACING_ROCDECODE_API:
    case ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT:
        return category_name<category::rocdecode_api>();
    case ROCPROFILER_BUFFER_TRACING_ROCJPEG_API:
        return category_name<category::rocjpeg_api>();
    case ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_MIGRATE:
    case ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_FAULT:
    case ROCPROFILER_BUFFER_TRACING_KFD_EVENT_QUEUE:
    case ROCPROFILER_BUFFER_TRACING_KFD_EVENT_UNMAP_FROM_GPU:
    case ROCPROFILER_BUFFER_TRACING_KFD_EVENT_DROPPED_EVENTS:
    case ROCPROFILER_BUFFER_TRACING_KFD_PAGE_MIGRATE:
    case ROCPROFILER_BUFFER_TRACING_KFD_PAGE_FAULT:
    case ROCPROFILER_BUFFER_TRACING_KFD_QUEUE:
        return category_name<category::kfd_events>();
    case ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API:
    case ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API:
        return category_name<category::cuda_api>();
    case ROCPROFILER_BUFFER_TRACING_NONE:
    case ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT:
    case ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION:
        return category_name<category::none>();
    case ROCPROFILER_BUFFER_TRACING_LAST:
        break;
    }
    return nullptr;
}

constexpr const char*
perfetto_category_of(rocprofiler_callback_tracing_kind_t kind)
{
    switch(kind)
    {
    case ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API:
    case ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API:
    case ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API:
    case ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API:
        return category_name<category::hsa_api>();
    case ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API:
    case ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API:
    case ROCPROFILER_CALLBACK_TRACING_HIP_STREAM:
        return category_name<category::hip_api>();
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API:
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API:
    case ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API:
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API:
        return category_name<category::marker_api>();
    case ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY:
        return category_name<category::scratch_memory>();
    case ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH:
    case ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY:
        return category_name<category::kernel_dispatch>();
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY:
        return category_name<category::memory_copy>();
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION:
        return category_name<category::memory_allocation>();
    case ROCPROFILER_CALLBACK_TRACING_RCCL_API:
        return category_name<category::rccl_api>();
    case ROCPROFILER_CALLBACK_TRACING_OMPT:
        return category_name<category::openmp>();
    case ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API:
        return category_name<category::rocdecode_api>();
    case ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API:
        return category_name<category::rocjpeg_api>();
    case ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API:
    case ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API:
        return category_name<category::cuda_api>();
    case ROCPROFILER_CALLBACK_TRACING_NONE:
    case ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT:
    case ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION:
        return category_name<category::none>();
    case ROCPROFILER_CALLBACK_TRACING_LAST:
        break;
    }
    return nullptr;
}
} // namespace detail

/** @brief The category name of tracing kind Idx of KindT (a callback or buffer tracing kind). */
template <typename KindT, size_t Idx> struct rocprofiler_tracing_perfetto_category
{
    static constexpr const char* name = detail::perfetto_category_of(static_cast<KindT>(Idx));
};

/**
 * @brief The category name of a callback or buffer tracing kind: "none" for kinds of no activity
 * (NONE, code objects, ...), NULL for a value that is no kind.
 */
template <typename KindT>
const char*
get_perfetto_category(KindT kind)
{
    static_assert(std::is_same<KindT, rocprofiler_buffer_tracing_kind_t>::value ||
                      std::is_same<KindT, rocprofiler_callback_tracing_kind_t>::value,
                  "get_perfetto_category takes a callback or buffer tracing kind");
    return detail::perfetto_category_of(kind);
}
} // namespace sdk
} // namespace rocprofiler
