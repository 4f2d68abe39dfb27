// extern "C" entry points of <rocprofiler-sdk-host/host.h>: argument checks live in `device`; this
// layer only forwards to the process device and keeps exceptions from crossing the C boundary.

#include <rocprofiler-sdk-host/host.h>

#include "rocprofiler-sdk/host/runtime/runtime.hpp"

#include <cstring>
#include <new>
#include <type_traits>

namespace
{
namespace host = ::rocprofiler::host;

template <typename Fn>
rocprofiler_host_status_t
guarded(Fn&& fn) noexcept
{
    try
    {
        return fn();
    }
    catch(const std::bad_alloc&)
    {
        return ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY;
    }
    catch(...)
    {
        return ROCPROFILER_HOST_STATUS_ERROR;
    }
}

struct status_text
{
    const char* name;
    const char* message;
};

// Indexed by status value; the static_assert keeps it in step with the enum.
constexpr status_text status_texts[] = {
    {"ROCPROFILER_HOST_STATUS_SUCCESS", "success"},
    {"ROCPROFILER_HOST_STATUS_ERROR", "unspecified internal error"},
    {"ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT", "an argument is null, zero or out of range"},
    {"ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY", "host memory could not be allocated"},
    {"ROCPROFILER_HOST_STATUS_TIMEOUT", "the wait ended before its condition was met"},
    {"ROCPROFILER_HOST_STATUS_NOT_FOUND", "the handle or pointer is not known to the device"},
    {"ROCPROFILER_HOST_STATUS_INVALID_OPERATION",
     "the operation is not allowed here (for example a blocking call on a device thread)"},
    {"ROCPROFILER_HOST_STATUS_SHUTDOWN", "the device is shutting down"},
};
static_assert(sizeof(status_texts) / sizeof(status_texts[0]) == ROCPROFILER_HOST_STATUS_LAST,
              "every rocprofiler_host_status_t needs a name and a message");

// C callers can pass any integer as an enum; reading the object representation avoids assuming
// (as a load of the enum type would) that the value is one of the enumerators.
template <typename Enum>
long long
raw_value(const Enum& value) noexcept
{
    auto raw = std::underlying_type_t<Enum>{};
    std::memcpy(&raw, &value, sizeof(raw));
    return static_cast<long long>(raw);
}

const status_text*
find_status_text(rocprofiler_host_status_t status)
{
    auto index = raw_value(status);
    if(index < 0 || index >= ROCPROFILER_HOST_STATUS_LAST) return nullptr;
    return &status_texts[index];
}
} // namespace

extern "C"
{
    const char* rocprofiler_host_status_string(rocprofiler_host_status_t status)
    {
        const auto* text = find_status_text(status);
        return text ? text->name : "ROCPROFILER_HOST_STATUS_UNKNOWN";
    }

    const char* rocprofiler_host_status_message(rocprofiler_host_status_t status)
    {
        const auto* text = find_status_text(status);
        return text ? text->message : "unknown status code";
    }

    rocprofiler_host_status_t rocprofiler_host_get_timestamp(uint64_t* timestamp_ns)
    {
        if(!timestamp_ns) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
        *timestamp_ns = host::now_ns();
        return ROCPROFILER_HOST_STATUS_SUCCESS;
    }

    rocprofiler_host_status_t rocprofiler_host_get_worker_count(uint32_t* count)
    {
        if(!count) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
        return guarded(
            [&]
            {
                *count = host::get_device().worker_count();
                return ROCPROFILER_HOST_STATUS_SUCCESS;
            });
    }

    rocprofiler_host_status_t rocprofiler_host_malloc(size_t bytes, void** ptr)
    {
        return guarded([&] { return host::get_device().allocate(bytes, ptr); });
    }

    rocprofiler_host_status_t rocprofiler_host_free(void* ptr)
    {
        return guarded([&] { return host::get_device().deallocate(ptr); });
    }

    rocprofiler_host_status_t rocprofiler_host_memcpy(void* dst, const void* src, size_t bytes)
    {
        return guarded([&] { return host::get_device().copy(dst, src, bytes); });
    }

    rocprofiler_host_status_t rocprofiler_host_memset(void* dst, int value, size_t bytes)
    {
        return guarded([&] { return host::get_device().fill(dst, value, bytes); });
    }

    rocprofiler_host_status_t rocprofiler_host_register_kernel(const char*                  name,
                                                               rocprofiler_host_kernel_fn_t fn,
                                                               uint32_t private_segment_size,
                                                               uint32_t group_segment_size,
                                                               rocprofiler_host_kernel_t* kernel)
    {
        return guarded(
            [&]
            {
                return host::get_device().register_kernel(
                    name, fn, private_segment_size, group_segment_size, kernel);
            });
    }

    rocprofiler_host_status_t rocprofiler_host_kernel_name(rocprofiler_host_kernel_t kernel,
                                                           const char**              name)
    {
        if(!name || kernel.handle == 0) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
        return guarded(
            [&]
            {
                // kernel_info objects live as long as the process device, which is never destroyed.
                auto info = host::get_device().find_kernel(kernel);
                if(!info) return ROCPROFILER_HOST_STATUS_NOT_FOUND;
                *name = info->name.c_str();
                return ROCPROFILER_HOST_STATUS_SUCCESS;
            });
    }

    rocprofiler_host_status_t rocprofiler_host_create_queue(rocprofiler_host_queue_t* queue)
    {
        return guarded([&] { return host::get_device().create_queue(queue); });
    }

    rocprofiler_host_status_t rocprofiler_host_destroy_queue(rocprofiler_host_queue_t queue)
    {
        return guarded([&] { return host::get_device().destroy_queue(queue); });
    }

    rocprofiler_host_status_t rocprofiler_host_queue_synchronize(rocprofiler_host_queue_t queue)
    {
        return guarded([&] { return host::get_device().synchronize_queue(queue); });
    }

    rocprofiler_host_status_t rocprofiler_host_device_synchronize(void)
    {
        return guarded(
            [&]
            {
                auto& dev = host::get_device();
                if(dev.is_device_thread()) return ROCPROFILER_HOST_STATUS_INVALID_OPERATION;
                return dev.drain() ? ROCPROFILER_HOST_STATUS_SUCCESS
                                   : ROCPROFILER_HOST_STATUS_ERROR;
            });
    }

    rocprofiler_host_status_t rocprofiler_host_create_signal(int64_t initial_value,
                                                             rocprofiler_host_signal_t* signal)
    {
        return guarded([&] { return host::get_device().create_signal(initial_value, signal); });
    }

    rocprofiler_host_status_t rocprofiler_host_destroy_signal(rocprofiler_host_signal_t signal)
    {
        return guarded([&] { return host::get_device().destroy_signal(signal); });
    }

    rocprofiler_host_status_t rocprofiler_host_signal_load(rocprofiler_host_signal_t signal,
                                                           int64_t*                  value)
    {
        if(!value || signal.handle == 0) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
        return guarded(
            [&]
            {
                auto sig = host::get_device().find_signal(signal);
                if(!sig) return ROCPROFILER_HOST_STATUS_NOT_FOUND;
                *value = sig->load();
                return ROCPROFILER_HOST_STATUS_SUCCESS;
            });
    }

    rocprofiler_host_status_t rocprofiler_host_signal_store(rocprofiler_host_signal_t signal,
                                                            int64_t                   value)
    {
        if(signal.handle == 0) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
        return guarded(
            [&]
            {
                auto sig = host::get_device().find_signal(signal);
                if(!sig) return ROCPROFILER_HOST_STATUS_NOT_FOUND;
                sig->store(value);
                return ROCPROFILER_HOST_STATUS_SUCCESS;
            });
    }

    rocprofiler_host_status_t
    rocprofiler_host_signal_wait(rocprofiler_host_signal_t           signal,
                                 rocprofiler_host_signal_condition_t condition,
                                 int64_t                             compare_value,
                                 uint64_t                            timeout_ns,
                                 int64_t*                            observed_value)
    {
        auto raw_condition = raw_value(condition);
        if(signal.handle == 0 || raw_condition < 0 ||
           raw_condition >= ROCPROFILER_HOST_SIGNAL_CONDITION_LAST)
            return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
        return guarded(
            [&]
            {
                auto sig = host::get_device().find_signal(signal);
                if(!sig) return ROCPROFILER_HOST_STATUS_NOT_FOUND;
                return sig->wait(condition, compare_value, timeout_ns, observed_value)
                           ? ROCPROFILER_HOST_STATUS_SUCCESS
                           : ROCPROFILER_HOST_STATUS_TIMEOUT;
            });
    }

    rocprofiler_host_status_t
    rocprofiler_host_dispatch(rocprofiler_host_queue_t                  queue,
                              const rocprofiler_host_dispatch_params_t* params)
    {
        return guarded([&] { return host::get_device().dispatch(queue, params); });
    }
}
