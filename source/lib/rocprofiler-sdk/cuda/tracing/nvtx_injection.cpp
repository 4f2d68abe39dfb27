// NVTX v3 on CUDA as the marker domain: an application's NVTX calls (nvtxMarkA, nvtxRangePushA,
// PyTorch's torch.cuda.nvtx.range_push/pop and mark, ...) become the marker records ROCTx calls
// produce (MARKER_CORE_API, MARKER_NAME_API; marker/marker.hpp).
//
// How it is loaded: NVTX v3 is header-only; on the first NVTX call of a process, the copy of the
// NVTX implementation in the application (or in a library of it) reads the environment variable
// NVTX_INJECTION64_PATH, dlopens the shared library it names and calls that library's exported
// `int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t)`. librocprofiler-sdk.so exports that
// function itself (below), so NVTX_INJECTION64_PATH=<path of librocprofiler-sdk.so> (which
// rocprofv3 sets; the library never sets or reads it) routes NVTX into the already loaded SDK.
// The function asks NVTX for its callback export table (NVTX_ETID_CALLBACKS), takes the function
// tables of the CORE and CORE2 modules and writes its handlers into the entries it implements;
// entries left alone stay no-ops. Injection initializes the SDK (loads and configures the tools),
// since the first NVTX call may precede every CUDA call, after loading the CUDA driver (so that
// the agents of that first initialization are the devices). Each NVTX copy in a process (one per
// library built with it) initializes separately and calls this again; all share the same handlers.
//
// Mapping: nvtxMark{A,W,Ex}, nvtxDomainMarkEx -> roctxMarkA; nvtxRangePush{A,W,Ex},
// nvtxDomainRangePushEx -> roctxRangePushA (returns the depth opened); nvtxRangePop,
// nvtxDomainRangePop -> roctxRangePop (returns the depth closed, negative with none open);
// nvtxRangeStart{A,W,Ex}, nvtxDomainRangeStartEx -> roctxRangeStartA (returns a process range
// id); nvtxRangeEnd, nvtxDomainRangeEnd -> roctxRangeStop; nvtxNameOsThread{A,W} ->
// roctxNameOsThread. Wide strings are converted to UTF-8; an event's message may be ASCII,
// UNICODE or a registered string (nvtxDomainRegisterString{A,W}). The domain of a call is not
// part of the record (the marker arguments have no field for it).
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include "common/guard.hpp"
#include "common/logging.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/interpose/settings_driver.hpp"
#include "cuda/tracing/nvtx_strings.hpp"
#include "marker/marker.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/marker/api_args.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace rocprofiler::cuda::nvtx
{
namespace
{
using marker::domain;

rocprofiler_marker_api_retval_t
no_result(const rocprofiler_marker_api_args_t&, void*)
{
    return rocprofiler_marker_api_retval_t{};
}

rocprofiler_marker_api_retval_t
push_result(const rocprofiler_marker_api_args_t&, void*)
{
    auto ret           = rocprofiler_marker_api_retval_t{};
    ret.int32_t_retval = marker::push_depth();
    return ret;
}

rocprofiler_marker_api_retval_t
pop_result(const rocprofiler_marker_api_args_t&, void*)
{
    auto ret           = rocprofiler_marker_api_retval_t{};
    ret.int32_t_retval = marker::pop_depth();
    return ret;
}

rocprofiler_marker_api_retval_t
start_result(const rocprofiler_marker_api_args_t&, void*)
{
    auto ret                    = rocprofiler_marker_api_retval_t{};
    ret.roctx_range_id_t_retval = marker::next_range_id();
    return ret;
}

// The message of an event's attributes (a structure too small to hold one gives "").
void
decode_attributes(const nvtxEventAttributes_t* attr, decoded_message& out)
{
    constexpr auto needed =
        offsetof(nvtxEventAttributes_t, message) + sizeof(nvtxEventAttributes_t::message);
    if(attr == nullptr || attr->size < needed)
    {
        decode_message(message_unknown, nullptr, out);
        return;
    }
    const void* value = nullptr;
    switch(attr->messageType)
    {
    case NVTX_MESSAGE_TYPE_ASCII:
        value = attr->message.ascii;
        break;
    case NVTX_MESSAGE_TYPE_UNICODE:
        value = attr->message.unicode;
        break;
    case NVTX_MESSAGE_TYPE_REGISTERED:
        value = attr->message.registered;
        break;
    default:
        break;
    }
    decode_message(attr->messageType, value, out);
}

// --- the operations, each with its message in UTF-8

void
mark(const char* message)
{
    auto args               = rocprofiler_marker_api_args_t{};
    args.roctxMarkA.message = message;
    marker::traced(
        domain::core, ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA, args, no_result, nullptr);
}

int
push(const char* message)
{
    auto args                    = rocprofiler_marker_api_args_t{};
    args.roctxRangePushA.message = message;
    return marker::traced(domain::core,
                          ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
                          args,
                          push_result,
                          nullptr)
        .int32_t_retval;
}

int
pop()
{
    auto args                        = rocprofiler_marker_api_args_t{};
    args.roctxRangePop.no_args.empty = '\0';
    return marker::traced(domain::core,
                          ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop,
                          args,
                          pop_result,
                          nullptr)
        .int32_t_retval;
}

nvtxRangeId_t
start(const char* message)
{
    auto args                     = rocprofiler_marker_api_args_t{};
    args.roctxRangeStartA.message = message;
    return marker::traced(domain::core,
                          ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA,
                          args,
                          start_result,
                          nullptr)
        .roctx_range_id_t_retval;
}

void
stop(nvtxRangeId_t id)
{
    auto args              = rocprofiler_marker_api_args_t{};
    args.roctxRangeStop.id = id;
    marker::traced(
        domain::core, ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop, args, no_result, nullptr);
}

void
name_thread(const char* name)
{
    auto args                   = rocprofiler_marker_api_args_t{};
    args.roctxNameOsThread.name = name;
    marker::traced(
        domain::name, ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread, args, no_result, nullptr);
}

// --- the NVTX entry points. Each runs guarded: on an exception, the call does nothing and
// returns the value of "no tool" (0 for push/pop/start, a null handle).

// A message in each form NVTX passes one, as the UTF-8 text of the record; the decoded_message
// lives until the operation returned.
const char*
utf8_of(const char* message, decoded_message&)
{
    return message != nullptr ? message : "";
}

const char*
utf8_of(const wchar_t* message, decoded_message& out)
{
    out.storage = utf8_from_wide(message);
    return out.storage.c_str();
}

const char*
utf8_of(const nvtxEventAttributes_t* attr, decoded_message& out)
{
    decode_attributes(attr, out);
    return out.text;
}

// Runs `op(text)` guarded as NVTX entry point `where`, with `text` the UTF-8 form of `message`;
// returns op's result, or a value-initialized one when something threw.
template <typename Op, typename Message>
auto
with_message(const char* where, Op op, Message message) noexcept
{
    using result_t = decltype(op(""));
    return common::guarded(
        where,
        [&]
        {
            auto storage = decoded_message{};
            return op(utf8_of(message, storage));
        },
        [](common::caught) { return result_t(); });
}

void NVTX_API
mark_ex(const nvtxEventAttributes_t* attr)
{
    with_message("nvtxMarkEx", mark, attr);
}

void NVTX_API
mark_a(const char* message)
{
    with_message("nvtxMarkA", mark, message);
}

void NVTX_API
mark_w(const wchar_t* message)
{
    with_message("nvtxMarkW", mark, message);
}

nvtxRangeId_t NVTX_API
start_ex(const nvtxEventAttributes_t* attr)
{
    return with_message("nvtxRangeStartEx", start, attr);
}

nvtxRangeId_t NVTX_API
start_a(const char* message)
{
    return with_message("nvtxRangeStartA", start, message);
}

nvtxRangeId_t NVTX_API
start_w(const wchar_t* message)
{
    return with_message("nvtxRangeStartW", start, message);
}

void NVTX_API
range_end(nvtxRangeId_t id)
{
    common::guarded("nvtxRangeEnd", [&] { stop(id); });
}

int NVTX_API
push_ex(const nvtxEventAttributes_t* attr)
{
    return with_message("nvtxRangePushEx", push, attr);
}

int NVTX_API
push_a(const char* message)
{
    return with_message("nvtxRangePushA", push, message);
}

int NVTX_API
push_w(const wchar_t* message)
{
    return with_message("nvtxRangePushW", push, message);
}

int NVTX_API
range_pop()
{
    return common::guarded(
        "nvtxRangePop", [] { return pop(); }, [](common::caught) { return 0; });
}

void NVTX_API
name_os_thread_a(uint32_t /*thread_id*/, const char* name)
{
    with_message("nvtxNameOsThreadA", name_thread, name);
}

void NVTX_API
name_os_thread_w(uint32_t /*thread_id*/, const wchar_t* name)
{
    with_message("nvtxNameOsThreadW", name_thread, name);
}

// CORE2: the domain calls. The domain handle is one of ours (or null, the default domain).

void NVTX_API
domain_mark_ex(nvtxDomainHandle_t, const nvtxEventAttributes_t* attr)
{
    mark_ex(attr);
}

nvtxRangeId_t NVTX_API
domain_start_ex(nvtxDomainHandle_t, const nvtxEventAttributes_t* attr)
{
    return start_ex(attr);
}

void NVTX_API
domain_range_end(nvtxDomainHandle_t, nvtxRangeId_t id)
{
    range_end(id);
}

int NVTX_API
domain_push_ex(nvtxDomainHandle_t, const nvtxEventAttributes_t* attr)
{
    return push_ex(attr);
}

int NVTX_API
domain_pop(nvtxDomainHandle_t)
{
    return range_pop();
}

// Handles are registered_string pointers, kept for the process.
template <typename Handle>
Handle
handle_of(const registered_string* s)
{
    // NVTX's handle types are pointers to opaque structures that a tool defines as it likes.
    return reinterpret_cast<Handle>(const_cast<registered_string*>(s));
}

// A handle of the registered text.
template <typename Handle>
Handle
registered(const char* text)
{
    return handle_of<Handle>(register_string(std::string{text}));
}

nvtxStringHandle_t NVTX_API
register_string_a(nvtxDomainHandle_t, const char* text)
{
    return with_message("nvtxDomainRegisterStringA", registered<nvtxStringHandle_t>, text);
}

nvtxStringHandle_t NVTX_API
register_string_w(nvtxDomainHandle_t, const wchar_t* text)
{
    return with_message("nvtxDomainRegisterStringW", registered<nvtxStringHandle_t>, text);
}

nvtxDomainHandle_t NVTX_API
domain_create_a(const char* name)
{
    return with_message("nvtxDomainCreateA", registered<nvtxDomainHandle_t>, name);
}

nvtxDomainHandle_t NVTX_API
domain_create_w(const wchar_t* name)
{
    return with_message("nvtxDomainCreateW", registered<nvtxDomainHandle_t>, name);
}

// nvtxDomainDestroy: the domain's entry is kept (a racing thread may still use the handle).
void NVTX_API
domain_destroy(nvtxDomainHandle_t)
{
}

template <typename Fn>
NvtxFunctionPointer
entry(Fn fn)
{
    return reinterpret_cast<NvtxFunctionPointer>(fn);
}

struct slot
{
    unsigned int        id;
    NvtxFunctionPointer fn;
};

// Writes `slots` into a module's table; false when NVTX has no table for the module.
template <size_t N>
bool
install(const NvtxExportTableCallbacks& callbacks,
        NvtxCallbackModule              module,
        const slot (&slots)[N])
{
    auto table = NvtxFunctionTable{nullptr};
    auto size  = 0u; // the highest callback id of the module (entry 0 is unused)
    if(callbacks.GetModuleFunctionTable(module, &table, &size) == 0 || table == nullptr)
        return false;
    for(const auto& s : slots)
        if(s.id <= size && table[s.id] != nullptr) *table[s.id] = s.fn;
    return true;
}

int
initialize(NvtxGetExportTableFunc_t get_export_table)
{
    if(get_export_table == nullptr) return 0;
    const auto* callbacks =
        static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
    if(callbacks == nullptr ||
       callbacks->struct_size < offsetof(NvtxExportTableCallbacks, GetModuleFunctionTable) +
                                    sizeof(callbacks->GetModuleFunctionTable) ||
       callbacks->GetModuleFunctionTable == nullptr)
    {
        common::log::warn_once("nvtx-export-table",
                               "NVTX injection: NVTX has no callback export table; NVTX calls "
                               "are not traced");
        return 0;
    }

    const slot core[] = {
        {NVTX_CBID_CORE_MarkEx, entry(&mark_ex)},
        {NVTX_CBID_CORE_MarkA, entry(&mark_a)},
        {NVTX_CBID_CORE_MarkW, entry(&mark_w)},
        {NVTX_CBID_CORE_RangeStartEx, entry(&start_ex)},
        {NVTX_CBID_CORE_RangeStartA, entry(&start_a)},
        {NVTX_CBID_CORE_RangeStartW, entry(&start_w)},
        {NVTX_CBID_CORE_RangeEnd, entry(&range_end)},
        {NVTX_CBID_CORE_RangePushEx, entry(&push_ex)},
        {NVTX_CBID_CORE_RangePushA, entry(&push_a)},
        {NVTX_CBID_CORE_RangePushW, entry(&push_w)},
        {NVTX_CBID_CORE_RangePop, entry(&range_pop)},
        {NVTX_CBID_CORE_NameOsThreadA, entry(&name_os_thread_a)},
        {NVTX_CBID_CORE_NameOsThreadW, entry(&name_os_thread_w)},
    };
    const slot core2[] = {
        {NVTX_CBID_CORE2_DomainMarkEx, entry(&domain_mark_ex)},
        {NVTX_CBID_CORE2_DomainRangeStartEx, entry(&domain_start_ex)},
        {NVTX_CBID_CORE2_DomainRangeEnd, entry(&domain_range_end)},
        {NVTX_CBID_CORE2_DomainRangePushEx, entry(&domain_push_ex)},
        {NVTX_CBID_CORE2_DomainRangePop, entry(&domain_pop)},
        {NVTX_CBID_CORE2_DomainRegisterStringA, entry(&register_string_a)},
        {NVTX_CBID_CORE2_DomainRegisterStringW, entry(&register_string_w)},
        {NVTX_CBID_CORE2_DomainCreateA, entry(&domain_create_a)},
        {NVTX_CBID_CORE2_DomainCreateW, entry(&domain_create_w)},
        {NVTX_CBID_CORE2_DomainDestroy, entry(&domain_destroy)},
    };
    // The first NVTX call of the process may come before any CUDA call: the tools are loaded and
    // configured now, as the ROCTx library's registration does, so that it is traced. A process
    // that injects NVTX into the SDK is a CUDA program: the driver is loaded first, so that the
    // agent list built now has its devices and its launches are traced (ROCPROFILER_CUDA_AGENTS=0
    // still hides them).
    if(settings::cuda_agents() != settings::agents_mode::never) driver(true);
    registration::initialize();
    if(!install(*callbacks, NVTX_CB_MODULE_CORE, core)) return 0;
    // An NVTX older than version 2 has no CORE2 module; its core calls are still traced.
    install(*callbacks, NVTX_CB_MODULE_CORE2, core2);

    const auto* version =
        static_cast<const NvtxExportTableVersionInfo*>(get_export_table(NVTX_ETID_VERSIONINFO));
    if(version != nullptr &&
       version->struct_size >= offsetof(NvtxExportTableVersionInfo, SetInjectionNvtxVersion) +
                                   sizeof(version->SetInjectionNvtxVersion) &&
       version->SetInjectionNvtxVersion != nullptr)
        version->SetInjectionNvtxVersion(NVTX_VERSION);
    return 1;
}
} // namespace
} // namespace rocprofiler::cuda::nvtx

// NVTX's entry into the injection (see the top of the file). 1: injected; 0: NVTX falls back to
// no-ops.
extern "C" __attribute__((visibility("default"))) int NVTX_API
InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
    return rocprofiler::common::guarded(
        "InitializeInjectionNvtx2",
        [&] { return rocprofiler::cuda::nvtx::initialize(get_export_table); },
        [](rocprofiler::common::caught) { return 0; });
}
