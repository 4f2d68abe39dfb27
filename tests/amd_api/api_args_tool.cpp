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
#include <type_traits>

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
                  ROCPROFILER_SDK_USE_SYSTEM_ROCJPEG == 0 && ROCPROFILER_SDK_USE_SYSTEM_HIP == 0,
              "stand-ins in use");
// HIP's structures passed by value have HIP's sizes; dim3 and uint3 (through pointers) are
// rocprofiler_dim3_t without HIP's headers.
static_assert(sizeof(hipExtent) == 24 && sizeof(hipPitchedPtr) == 32, "HIP extent, pitched ptr");
static_assert(sizeof(hipIpcMemHandle_t) == 64 && sizeof(hipIpcEventHandle_t) == 64, "HIP IPC");
static_assert(sizeof(hipChannelFormatDesc) == 20, "HIP channel format");
static_assert(std::is_same<rocprofiler_hip_dim3_t, rocprofiler_dim3_t>::value &&
                  std::is_same<rocprofiler_hip_uint3_t, rocprofiler_dim3_t>::value,
              "HIP dim3, uint3");

extern "C" int api_args_tool_c(void);

namespace
{
// A HIP record: the arguments of the function it is for (compiler and runtime functions, of
// every kind of HIP parameter: scalars, handles, enumerations, structures by value and through
// pointers, dim3 and uint3 through pointers, callbacks, OpenGL names).
uint64_t
read_hip(rocprofiler_callback_tracing_record_t record)
{
    auto*    data = static_cast<rocprofiler_callback_tracing_hip_api_data_t*>(record.payload);
    uint64_t sum  = static_cast<uint64_t>(data->retval.hipError_t_retval);
    if(record.kind == ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API)
    {
        if(record.operation == ROCPROFILER_HIP_COMPILER_API_ID___hipPopCallConfiguration)
        {
            const auto& args = data->args.__hipPopCallConfiguration;
            sum += args.gridDim->x + args.gridDim->y + args.gridDim->z + args.blockDim->x;
            sum += *args.sharedMem;
        }
        else if(record.operation == ROCPROFILER_HIP_COMPILER_API_ID___hipRegisterFunction)
        {
            const auto& args = data->args.__hipRegisterFunction;
            sum += args.threadLimit + args.tid->x + args.bid->y + args.gridDim->z;
        }
        return sum;
    }
    switch(record.operation)
    {
    case ROCPROFILER_HIP_RUNTIME_API_ID_hipMemcpy:
        sum += data->args.hipMemcpy.sizeBytes;
        sum += static_cast<uint64_t>(data->args.hipMemcpy.kind);
        break;
    case ROCPROFILER_HIP_RUNTIME_API_ID_hipLaunchKernel:
        sum += data->args.hipLaunchKernel.numBlocks.x;
        break;
    case ROCPROFILER_HIP_RUNTIME_API_ID_hipMalloc3D:
    {
        const auto& args = data->args.hipMalloc3D;
        sum += args.extent.width + args.extent.height + args.extent.depth;
        sum += args.pitchedDevPtr->pitch;
        break;
    }
    case ROCPROFILER_HIP_RUNTIME_API_ID_hipIpcOpenMemHandle:
        sum += static_cast<uint64_t>(data->args.hipIpcOpenMemHandle.handle.reserved[63]);
        sum += data->args.hipIpcOpenMemHandle.flags;
        break;
    case ROCPROFILER_HIP_RUNTIME_API_ID_hipMallocFromPoolAsync:
        sum += data->args.hipMallocFromPoolAsync.size;
        sum += data->args.hipMallocFromPoolAsync.mem_pool == nullptr ? 0 : 1;
        break;
    case ROCPROFILER_HIP_RUNTIME_API_ID_hipTexRefSetAddressMode:
        sum += static_cast<uint64_t>(data->args.hipTexRefSetAddressMode.dim);
        sum += static_cast<uint64_t>(data->args.hipTexRefSetAddressMode.am);
        break;
    case ROCPROFILER_HIP_RUNTIME_API_ID_hipGraphAddKernelNode:
        sum += data->args.hipGraphAddKernelNode.numDependencies;
        sum += data->args.hipGraphAddKernelNode.pNodeParams == nullptr ? 0 : 1;
        break;
    case ROCPROFILER_HIP_RUNTIME_API_ID_hipGraphicsGLRegisterBuffer:
        sum += data->args.hipGraphicsGLRegisterBuffer.buffer;
        sum += data->args.hipGraphicsGLRegisterBuffer.flags;
        break;
    case ROCPROFILER_HIP_RUNTIME_API_ID_hipDeviceGetLimit:
        sum += *data->args.hipDeviceGetLimit.pValue;
        sum += static_cast<uint64_t>(data->args.hipDeviceGetLimit.limit);
        break;
    case ROCPROFILER_HIP_RUNTIME_API_ID_hipStreamAddCallback:
        sum += data->args.hipStreamAddCallback.callback == nullptr ? 0 : 1;
        sum += data->args.hipStreamAddCallback.flags;
        break;
    case ROCPROFILER_HIP_RUNTIME_API_ID_hipDrvGraphAddMemsetNode:
        sum += data->args.hipDrvGraphAddMemsetNode.numDependencies;
        sum += data->args.hipDrvGraphAddMemsetNode.memsetParams == nullptr ? 0 : 1;
        break;
    default:
        break;
    }
    return sum;
}

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
    case ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API:
    {
        sum += read_hip(record);
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
        constexpr auto runtime  = ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API;
        constexpr auto compiler = ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API;
        rocprofiler_callback_tracing_hip_api_data_t data{};
        data.args.hipMemcpy.sizeBytes = 100;
        data.args.hipMemcpy.kind      = 1;
        expect(read_record(make_record(runtime, ROCPROFILER_HIP_RUNTIME_API_ID_hipMemcpy, &data)),
               101,
               "HIP hipMemcpy");

        data                                  = {};
        data.args.hipLaunchKernel.numBlocks.x = 12;
        expect(read_record(
                   make_record(runtime, ROCPROFILER_HIP_RUNTIME_API_ID_hipLaunchKernel, &data)),
               12,
               "HIP hipLaunchKernel");

        rocprofiler_dim3_t grid                       = {2, 3, 4};
        rocprofiler_dim3_t block                      = {64, 1, 1};
        size_t             shared                     = 1000;
        data                                          = {};
        data.args.__hipPopCallConfiguration.gridDim   = &grid;
        data.args.__hipPopCallConfiguration.blockDim  = &block;
        data.args.__hipPopCallConfiguration.sharedMem = &shared;
        expect(read_record(make_record(
                   compiler, ROCPROFILER_HIP_COMPILER_API_ID___hipPopCallConfiguration, &data)),
               1073,
               "HIP __hipPopCallConfiguration");

        rocprofiler_dim3_t tid                      = {5, 0, 0};
        rocprofiler_dim3_t bid                      = {0, 6, 0};
        data                                        = {};
        data.args.__hipRegisterFunction.threadLimit = 256;
        data.args.__hipRegisterFunction.tid         = &tid;
        data.args.__hipRegisterFunction.bid         = &bid;
        data.args.__hipRegisterFunction.gridDim     = &grid;
        expect(read_record(make_record(
                   compiler, ROCPROFILER_HIP_COMPILER_API_ID___hipRegisterFunction, &data)),
               271,
               "HIP __hipRegisterFunction");

        hipPitchedPtr pitched{};
        pitched.pitch                       = 512;
        data                                = {};
        data.args.hipMalloc3D.pitchedDevPtr = &pitched;
        data.args.hipMalloc3D.extent        = hipExtent{10, 20, 30};
        expect(read_record(make_record(runtime, ROCPROFILER_HIP_RUNTIME_API_ID_hipMalloc3D, &data)),
               572,
               "HIP hipMalloc3D");

        data                                              = {};
        data.args.hipIpcOpenMemHandle.handle.reserved[63] = 7;
        data.args.hipIpcOpenMemHandle.flags               = 1;
        expect(read_record(
                   make_record(runtime, ROCPROFILER_HIP_RUNTIME_API_ID_hipIpcOpenMemHandle, &data)),
               8,
               "HIP hipIpcOpenMemHandle");

        data                                      = {};
        data.args.hipMallocFromPoolAsync.size     = 4096;
        data.args.hipMallocFromPoolAsync.mem_pool = nullptr;
        expect(read_record(make_record(
                   runtime, ROCPROFILER_HIP_RUNTIME_API_ID_hipMallocFromPoolAsync, &data)),
               4096,
               "HIP hipMallocFromPoolAsync");

        data                                  = {};
        data.args.hipTexRefSetAddressMode.dim = 2;
        data.args.hipTexRefSetAddressMode.am  = 3;
        expect(read_record(make_record(
                   runtime, ROCPROFILER_HIP_RUNTIME_API_ID_hipTexRefSetAddressMode, &data)),
               5,
               "HIP hipTexRefSetAddressMode");

        data                                            = {};
        data.args.hipGraphAddKernelNode.numDependencies = 3;
        expect(read_record(make_record(
                   runtime, ROCPROFILER_HIP_RUNTIME_API_ID_hipGraphAddKernelNode, &data)),
               3,
               "HIP hipGraphAddKernelNode");

        data                                         = {};
        data.args.hipGraphicsGLRegisterBuffer.buffer = 40;
        data.args.hipGraphicsGLRegisterBuffer.flags  = 2;
        expect(read_record(make_record(
                   runtime, ROCPROFILER_HIP_RUNTIME_API_ID_hipGraphicsGLRegisterBuffer, &data)),
               42,
               "HIP hipGraphicsGLRegisterBuffer");

        size_t limit                       = 8192;
        data                               = {};
        data.args.hipDeviceGetLimit.pValue = &limit;
        data.args.hipDeviceGetLimit.limit  = 1;
        expect(read_record(
                   make_record(runtime, ROCPROFILER_HIP_RUNTIME_API_ID_hipDeviceGetLimit, &data)),
               8193,
               "HIP hipDeviceGetLimit");

        data                                    = {};
        data.args.hipStreamAddCallback.callback = [](hipStream_t, hipError_t, void*) {};
        data.args.hipStreamAddCallback.flags    = 0;
        expect(read_record(make_record(
                   runtime, ROCPROFILER_HIP_RUNTIME_API_ID_hipStreamAddCallback, &data)),
               1,
               "HIP hipStreamAddCallback");

        data                                               = {};
        data.args.hipDrvGraphAddMemsetNode.numDependencies = 4;
        expect(read_record(make_record(
                   runtime, ROCPROFILER_HIP_RUNTIME_API_ID_hipDrvGraphAddMemsetNode, &data)),
               4,
               "HIP hipDrvGraphAddMemsetNode");
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
