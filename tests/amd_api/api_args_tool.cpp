// A tool's callback in the style of tools written for AMD's rocprofiler-sdk: it reads the argument
// unions of the HSA, HIP, RCCL, rocDecode, rocJPEG and OMPT callback records by member, as such
// tools do (`data->args.<function>.<parameter>`). It must compile unchanged against these headers;
// the program then fills one record of each kind and reads it back through the union, and
// checks the layouts that rocprofiler-sdk fixes (the HIP and RCCL records depend on those
// runtimes' headers there and are not fixed).
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/ext_version.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

static_assert(sizeof(rocprofiler_callback_tracing_hsa_api_data_t) == 208, "HSA record");
static_assert(sizeof(rocprofiler_hsa_api_args_t) == 192, "HSA arguments");
static_assert(sizeof(rocprofiler_callback_tracing_ompt_data_t) == 136, "OMPT record");
static_assert(sizeof(rocprofiler_callback_tracing_rocdecode_api_data_t) == 56, "rocDecode record");
static_assert(sizeof(rocprofiler_callback_tracing_rocjpeg_api_data_t) == 64, "rocJPEG record");
// The HIP ext record: rocprofiler-sdk's fields and offsets up to its HIP return value (whose size
// follows HIP's hipChannelFormatDesc, see known_differences.txt).
static_assert(offsetof(rocprofiler_buffer_tracing_hip_api_ext_record_t, args) == 64, "HIP ext");
static_assert(offsetof(rocprofiler_buffer_tracing_hip_api_ext_record_t, retval) == 152, "HIP ext");
static_assert(sizeof(rocprofiler_hip_api_retval_t) == 24, "HIP return value");
static_assert(ROCPROFILER_HSA_RUNTIME_VERSION == 11800, "HSA runtime 1.18");
static_assert(ROCPROFILER_DEFINED_AMD_INTERNAL_BUILD == 0, "no HSA header included");
static_assert(ROCPROFILER_SDK_USE_SYSTEM_RCCL == 0 && ROCPROFILER_SDK_USE_SYSTEM_ROCDECODE == 0 &&
                  ROCPROFILER_SDK_USE_SYSTEM_ROCJPEG == 0,
              "stand-ins in use");

extern "C" int api_args_tool_c(void);

namespace
{
// What the tool would print for one record: a checksum of the arguments it reads.
uint64_t
read_record(rocprofiler_callback_tracing_record_t record)
{
    uint64_t sum = 0;
    switch(record.kind)
    {
    case ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API:
    case ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API:
    {
        auto* data = static_cast<rocprofiler_callback_tracing_hsa_api_data_t*>(record.payload);
        sum += data->args.hsa_agent_get_info.agent.handle;
        sum += static_cast<uint64_t>(data->args.hsa_agent_get_info.attribute);
        sum += static_cast<uint64_t>(data->retval.hsa_status_t_retval);
        break;
    }
    case ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API:
    {
        auto* data = static_cast<rocprofiler_callback_tracing_hip_api_data_t*>(record.payload);
        sum += data->args.hipMemcpy.sizeBytes;
        sum += static_cast<uint64_t>(data->args.hipMemcpy.kind);
        sum += data->args.hipLaunchKernel.numBlocks.x;
        sum += static_cast<uint64_t>(data->retval.hipError_t_retval);
        break;
    }
    case ROCPROFILER_CALLBACK_TRACING_RCCL_API:
    {
        auto* data = static_cast<rocprofiler_callback_tracing_rccl_api_data_t*>(record.payload);
        sum += data->args.ncclAllReduce.count;
        sum += static_cast<uint64_t>(data->args.ncclAllReduce.datatype);
        break;
    }
    case ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API:
    {
        auto* data =
            static_cast<rocprofiler_callback_tracing_rocdecode_api_data_t*>(record.payload);
        sum += static_cast<uint64_t>(data->args.rocDecGetDecodeStatus.pic_idx);
        break;
    }
    case ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API:
    {
        auto* data = static_cast<rocprofiler_callback_tracing_rocjpeg_api_data_t*>(record.payload);
        sum += static_cast<uint64_t>(data->args.rocJpegCreate.device_id);
        break;
    }
    case ROCPROFILER_CALLBACK_TRACING_OMPT:
    {
        auto* data = static_cast<rocprofiler_callback_tracing_ompt_data_t*>(record.payload);
        if(record.operation == ROCPROFILER_OMPT_ID_target_data_op_emi)
            sum += data->args.target_data_op_emi.bytes;
        else
            sum += data->args.thread_begin.thread_data->value;
        break;
    }
    default:
        break;
    }
    return sum;
}

int failures = 0;

void
expect(uint64_t got, uint64_t want, const char* what)
{
    if(got != want)
    {
        std::fprintf(stderr,
                     "%s: read %llu, wrote %llu\n",
                     what,
                     static_cast<unsigned long long>(got),
                     static_cast<unsigned long long>(want));
        ++failures;
    }
}

template <typename Tp>
rocprofiler_callback_tracing_record_t
make_record(rocprofiler_callback_tracing_kind_t kind, rocprofiler_tracing_operation_t op, Tp* data)
{
    rocprofiler_callback_tracing_record_t record{};
    record.kind      = kind;
    record.operation = op;
    record.payload   = data;
    return record;
}
} // namespace

int
main()
{
    {
        rocprofiler_callback_tracing_hsa_api_data_t data{};
        data.size                                 = sizeof(data);
        data.args.hsa_agent_get_info.agent.handle = 40;
        data.args.hsa_agent_get_info.attribute    = 2;
        data.retval.hsa_status_t_retval           = 0;
        expect(read_record(make_record(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, 0, &data)),
               42,
               "HSA");
    }
    {
        rocprofiler_callback_tracing_hip_api_data_t data{};
        data.args.hipMemcpy.sizeBytes = 100;
        data.args.hipMemcpy.kind      = 1;
        expect(read_record(make_record(ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, 0, &data)),
               101,
               "HIP");
    }
    {
        rocprofiler_callback_tracing_rccl_api_data_t data{};
        data.args.ncclAllReduce.count    = 7;
        data.args.ncclAllReduce.datatype = 3;
        expect(
            read_record(make_record(ROCPROFILER_CALLBACK_TRACING_RCCL_API, 0, &data)), 10, "RCCL");
    }
    {
        rocprofiler_callback_tracing_rocdecode_api_data_t data{};
        data.args.rocDecGetDecodeStatus.pic_idx = 5;
        expect(read_record(make_record(ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API, 0, &data)),
               5,
               "rocDecode");
    }
    {
        rocprofiler_callback_tracing_rocjpeg_api_data_t data{};
        data.args.rocJpegCreate.device_id = 3;
        expect(read_record(make_record(ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API, 0, &data)),
               3,
               "rocJPEG");
    }
    {
        ompt_data_t                              thread{};
        rocprofiler_callback_tracing_ompt_data_t data{};
        thread.value                       = 9;
        data.args.thread_begin.thread_data = &thread;
        expect(read_record(make_record(
                   ROCPROFILER_CALLBACK_TRACING_OMPT, ROCPROFILER_OMPT_ID_thread_begin, &data)),
               9,
               "OMPT thread_begin");
        data.args.target_data_op_emi.bytes = 4096;
        expect(read_record(make_record(ROCPROFILER_CALLBACK_TRACING_OMPT,
                                       ROCPROFILER_OMPT_ID_target_data_op_emi,
                                       &data)),
               4096,
               "OMPT target_data_op_emi");
    }
    // The same unions read from C.
    expect(static_cast<uint64_t>(api_args_tool_c()), 0, "C translation unit");
    // The configured build values are strings of this build (the compiler id is never empty).
    expect(std::strlen(ROCPROFILER_SDK_COMPILER_ID) > 0 ? 1 : 0, 1, "ROCPROFILER_SDK_COMPILER_ID");
    expect(std::strlen(ROCPROFILER_SYSTEM_NAME) > 0 ? 1 : 0, 1, "ROCPROFILER_SYSTEM_NAME");
    return failures == 0 ? 0 : 1;
}
