/* Arguments and return values of HIP's functions (HIP_RUNTIME_API, HIP_COMPILER_API), as
 * rocprofiler-sdk's callback record declares them. No HIP runtime runs here: no record of these
 * kinds is delivered; the declarations let tools written for rocprofiler-sdk compile.
 *
 * A documented subset (docs/api.md): of HIP's 486 functions in rocprofiler-sdk's union, the 179
 * whose parameters are scalars, pointers and HIP's basic types (devices, contexts, streams, events,
 * modules, functions, device pointers, hipMemcpyKind, hipError_t) have their member, with HIP's
 * parameter names and types: device and context management, streams, events, allocation, copies
 * and fills, symbols, modules, occupancy and kernel launches. Members of functions that take
 * HIP's graph, array, texture, memory-pool or external-resource types are absent (declaring them
 * would mean declaring most of HIP's API here), as is __hipPopCallConfiguration, the one that
 * names HIP's dim3: a stand-in dim3 would clash with CUDA's in a tool built with both. The
 * union's size follows HIP's headers in rocprofiler-sdk (it is not fixed there either).
 *
 * Types: HIP's own when a tool included hip/hip_runtime_api.h first; otherwise the stand-ins
 * below (handles as pointers to HIP's incomplete structures, enumerations as int,
 * hipChannelFormatDesc with HIP's fields). */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

#include <stddef.h>
#include <stdint.h>

#if !defined(HIP_INCLUDE_HIP_HIP_RUNTIME_API_H) && !defined(ROCPROFILER_HIP_STAND_INS)
#    define ROCPROFILER_HIP_STAND_INS 1
typedef int                        hipError_t;    /* enumeration */
typedef int                        hipMemcpyKind; /* enumeration */
typedef int                        hipDevice_t;
typedef void*                      hipDeviceptr_t;
typedef struct ihipStream_t*       hipStream_t;
typedef struct ihipEvent_t*        hipEvent_t;
typedef struct ihipCtx_t*          hipCtx_t;
typedef struct ihipModule_t*       hipModule_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;
typedef struct hipChannelFormatDesc
{
    int x;
    int y;
    int z;
    int w;
    int f; /* enum hipChannelFormatKind */
} hipChannelFormatDesc;
#endif

ROCPROFILER_EXTERN_C_INIT

/** @brief Member for a function without arguments (1 byte in C and C++ alike). */
typedef struct rocprofiler_hip_api_no_args
{
    char empty;
} rocprofiler_hip_api_no_args;

/** @brief Return value of a HIP function (the member named after its type). */
typedef union rocprofiler_hip_api_retval_t
{
#ifdef __cplusplus
    rocprofiler_hip_api_retval_t()  = default;
    ~rocprofiler_hip_api_retval_t() = default;
#endif
    uint64_t             uint64_t_retval;
    int                  int_retval;
    const char*          const_charp_retval;
    hipError_t           hipError_t_retval;
    hipChannelFormatDesc hipChannelFormatDesc_retval;
    void**               voidpp_retval;
} rocprofiler_hip_api_retval_t;

/** @brief Arguments of a HIP function, one member per function (named after it) of the subset
 *  above, each with the function's parameters in order. */
typedef union rocprofiler_hip_api_args_t
{
#ifdef __cplusplus
    rocprofiler_hip_api_args_t()  = default;
    ~rocprofiler_hip_api_args_t() = default;
#endif
    struct
    {
        rocprofiler_dim3_t gridDim;
        rocprofiler_dim3_t blockDim;
        size_t             sharedMem;
        hipStream_t        stream;
    } __hipPushCallConfiguration;
    struct
    {
        const void* data;
    } __hipRegisterFatBinary;
    struct
    {
        void** modules;
        void*  var;
        char*  hostVar;
        char*  deviceVar;
        int    type;
        int    ext;
    } __hipRegisterSurface;
    struct
    {
        void** modules;
        void*  var;
        char*  hostVar;
        char*  deviceVar;
        int    type;
        int    norm;
        int    ext;
    } __hipRegisterTexture;
    struct
    {
        void** modules;
        void*  var;
        char*  hostVar;
        char*  deviceVar;
        int    ext;
        size_t size;
        int    constant;
        int    global;
    } __hipRegisterVar;
    struct
    {
        void** modules;
    } __hipUnregisterFatBinary;
    struct
    {
        uint32_t id;
    } hipApiName;
    struct
    {
        rocprofiler_dim3_t gridDim;
        rocprofiler_dim3_t blockDim;
        size_t             sharedMem;
        hipStream_t        stream;
    } hipConfigureCall;
    struct
    {
        hipCtx_t*    ctx;
        unsigned int flags;
        hipDevice_t  device;
    } hipCtxCreate;
    struct
    {
        hipCtx_t ctx;
    } hipCtxDestroy;
    struct
    {
        hipCtx_t peerCtx;
    } hipCtxDisablePeerAccess;
    struct
    {
        hipCtx_t     peerCtx;
        unsigned int flags;
    } hipCtxEnablePeerAccess;
    struct
    {
        hipCtx_t      ctx;
        unsigned int* apiVersion; /* int* before HIP 7.0 */
    } hipCtxGetApiVersion;
    struct
    {
        hipCtx_t* ctx;
    } hipCtxGetCurrent;
    struct
    {
        hipDevice_t* device;
    } hipCtxGetDevice;
    struct
    {
        unsigned int* flags;
    } hipCtxGetFlags;
    struct
    {
        hipCtx_t* ctx;
    } hipCtxPopCurrent;
    struct
    {
        hipCtx_t ctx;
    } hipCtxPushCurrent;
    struct
    {
        hipCtx_t ctx;
    } hipCtxSetCurrent;
    struct
    {
        rocprofiler_hip_api_no_args no_args;
    } hipCtxSynchronize;
    struct
    {
        int* canAccessPeer;
        int  deviceId;
        int  peerDeviceId;
    } hipDeviceCanAccessPeer;
    struct
    {
        int*        major;
        int*        minor;
        hipDevice_t device;
    } hipDeviceComputeCapability;
    struct
    {
        int peerDeviceId;
    } hipDeviceDisablePeerAccess;
    struct
    {
        int          peerDeviceId;
        unsigned int flags;
    } hipDeviceEnablePeerAccess;
    struct
    {
        hipDevice_t* device;
        int          ordinal;
    } hipDeviceGet;
    struct
    {
        int*        device;
        const char* pciBusId;
    } hipDeviceGetByPCIBusId;
    struct
    {
        void*       name;
        int         len;
        hipDevice_t device;
    } hipDeviceGetName;
    struct
    {
        void* pciBusId;
        int   len;
        int   device;
    } hipDeviceGetPCIBusId;
    struct
    {
        int* leastPriority;
        int* greatestPriority;
    } hipDeviceGetStreamPriorityRange;
    struct
    {
        int device;
    } hipDeviceGraphMemTrim;
    struct
    {
        hipDevice_t   dev;
        unsigned int* flags;
        int*          active;
    } hipDevicePrimaryCtxGetState;
    struct
    {
        hipDevice_t dev;
    } hipDevicePrimaryCtxRelease;
    struct
    {
        hipDevice_t dev;
    } hipDevicePrimaryCtxReset;
    struct
    {
        hipCtx_t*   pctx;
        hipDevice_t dev;
    } hipDevicePrimaryCtxRetain;
    struct
    {
        hipDevice_t  dev;
        unsigned int flags;
    } hipDevicePrimaryCtxSetFlags;
    struct
    {
        rocprofiler_hip_api_no_args no_args;
    } hipDeviceReset;
    struct
    {
        rocprofiler_hip_api_no_args no_args;
    } hipDeviceSynchronize;
    struct
    {
        size_t*     bytes;
        hipDevice_t device;
    } hipDeviceTotalMem;
    struct
    {
        int* driverVersion;
    } hipDriverGetVersion;
    struct
    {
        hipEvent_t* event;
    } hipEventCreate;
    struct
    {
        hipEvent_t* event;
        unsigned    flags;
    } hipEventCreateWithFlags;
    struct
    {
        hipEvent_t event;
    } hipEventDestroy;
    struct
    {
        float*     ms;
        hipEvent_t start;
        hipEvent_t stop;
    } hipEventElapsedTime;
    struct
    {
        hipEvent_t event;
    } hipEventQuery;
    struct
    {
        hipEvent_t  event;
        hipStream_t stream;
    } hipEventRecord;
    struct
    {
        hipEvent_t event;
    } hipEventSynchronize;
    struct
    {
        int       device1;
        int       device2;
        uint32_t* linktype;
        uint32_t* hopcount;
    } hipExtGetLinkTypeAndHopCount;
    struct
    {
        const void*        function_address;
        rocprofiler_dim3_t numBlocks;
        rocprofiler_dim3_t dimBlocks;
        void**             args;
        size_t             sharedMemBytes;
        hipStream_t        stream;
        hipEvent_t         startEvent;
        hipEvent_t         stopEvent;
        int                flags;
    } hipExtLaunchKernel;
    struct
    {
        void**       ptr;
        size_t       sizeBytes;
        unsigned int flags;
    } hipExtMallocWithFlags;
    struct
    {
        hipStream_t*    stream;
        uint32_t        cuMaskSize;
        const uint32_t* cuMask;
    } hipExtStreamCreateWithCUMask;
    struct
    {
        hipStream_t stream;
        uint32_t    cuMaskSize;
        uint32_t*   cuMask;
    } hipExtStreamGetCUMask;
    struct
    {
        void* ptr;
    } hipFree;
    struct
    {
        void*       dev_ptr;
        hipStream_t stream;
    } hipFreeAsync;
    struct
    {
        void* ptr;
    } hipFreeHost;
    struct
    {
        int* deviceId;
    } hipGetDevice;
    struct
    {
        int* count;
    } hipGetDeviceCount;
    struct
    {
        unsigned int* flags;
    } hipGetDeviceFlags;
    struct
    {
        rocprofiler_hip_api_no_args no_args;
    } hipGetLastError;
    struct
    {
        void**      devPtr;
        const void* symbol;
    } hipGetSymbolAddress;
    struct
    {
        size_t*     size;
        const void* symbol;
    } hipGetSymbolSize;
    struct
    {
        void**       ptr;
        size_t       size;
        unsigned int flags;
    } hipHostAlloc;
    struct
    {
        void* ptr;
    } hipHostFree;
    struct
    {
        void**       devPtr;
        void*        hstPtr;
        unsigned int flags;
    } hipHostGetDevicePointer;
    struct
    {
        unsigned int* flagsPtr;
        void*         hostPtr;
    } hipHostGetFlags;
    struct
    {
        void**       ptr;
        size_t       size;
        unsigned int flags;
    } hipHostMalloc;
    struct
    {
        void*        hostPtr;
        size_t       sizeBytes;
        unsigned int flags;
    } hipHostRegister;
    struct
    {
        void* hostPtr;
    } hipHostUnregister;
    struct
    {
        unsigned int flags;
    } hipInit;
    struct
    {
        void* devPtr;
    } hipIpcCloseMemHandle;
    struct
    {
        hipFunction_t func;
    } hipKernelNameRef;
    struct
    {
        const void* hostFunction;
        hipStream_t stream;
    } hipKernelNameRefByPtr;
    struct
    {
        const void* func;
    } hipLaunchByPtr;
    struct
    {
        const void*        func;
        rocprofiler_dim3_t gridDim;
        rocprofiler_dim3_t blockDimX;
        void**             kernelParams;
        unsigned int       sharedMemBytes;
        hipStream_t        stream;
    } hipLaunchCooperativeKernel;
    struct
    {
        const void*        function_address;
        rocprofiler_dim3_t numBlocks;
        rocprofiler_dim3_t dimBlocks;
        void**             args;
        size_t             sharedMemBytes;
        hipStream_t        stream;
    } hipLaunchKernel;
    struct
    {
        void** ptr;
        size_t size;
    } hipMalloc;
    struct
    {
        void**      dev_ptr;
        size_t      size;
        hipStream_t stream;
    } hipMallocAsync;
    struct
    {
        void** ptr;
        size_t size;
    } hipMallocHost;
    struct
    {
        void**       dev_ptr;
        size_t       size;
        unsigned int flags;
    } hipMallocManaged;
    struct
    {
        void**  ptr;
        size_t* pitch;
        size_t  width;
        size_t  height;
    } hipMallocPitch;
    struct
    {
        void*  devPtr;
        size_t size;
    } hipMemAddressFree;
    struct
    {
        void**             ptr;
        size_t             size;
        size_t             alignment;
        void*              addr;
        unsigned long long flags;
    } hipMemAddressReserve;
    struct
    {
        void** ptr;
        size_t size;
    } hipMemAllocHost;
    struct
    {
        hipDeviceptr_t* dptr;
        size_t*         pitch;
        size_t          widthInBytes;
        size_t          height;
        unsigned int    elementSizeBytes;
    } hipMemAllocPitch;
    struct
    {
        hipDeviceptr_t* pbase;
        size_t*         psize;
        hipDeviceptr_t  dptr;
    } hipMemGetAddressRange;
    struct
    {
        size_t* free;
        size_t* total;
    } hipMemGetInfo;
    struct
    {
        const void* dev_ptr;
        size_t      count;
        int         device;
        hipStream_t stream;
    } hipMemPrefetchAsync;
    struct
    {
        void*   ptr;
        size_t* size;
    } hipMemPtrGetInfo;
    struct
    {
        void*  ptr;
        size_t size;
    } hipMemUnmap;
    struct
    {
        void*         dst;
        const void*   src;
        size_t        sizeBytes;
        hipMemcpyKind kind;
    } hipMemcpy;
    struct
    {
        void*         dst;
        size_t        dpitch;
        const void*   src;
        size_t        spitch;
        size_t        width;
        size_t        height;
        hipMemcpyKind kind;
    } hipMemcpy2D;
    struct
    {
        void*         dst;
        size_t        dpitch;
        const void*   src;
        size_t        spitch;
        size_t        width;
        size_t        height;
        hipMemcpyKind kind;
        hipStream_t   stream;
    } hipMemcpy2DAsync;
    struct
    {
        void*         dst;
        const void*   src;
        size_t        sizeBytes;
        hipMemcpyKind kind;
        hipStream_t   stream;
    } hipMemcpyAsync;
    struct
    {
        hipDeviceptr_t dst;
        hipDeviceptr_t src;
        size_t         sizeBytes;
    } hipMemcpyDtoD;
    struct
    {
        hipDeviceptr_t dst;
        hipDeviceptr_t src;
        size_t         sizeBytes;
        hipStream_t    stream;
    } hipMemcpyDtoDAsync;
    struct
    {
        void*          dst;
        hipDeviceptr_t src;
        size_t         sizeBytes;
    } hipMemcpyDtoH;
    struct
    {
        void*          dst;
        hipDeviceptr_t src;
        size_t         sizeBytes;
        hipStream_t    stream;
    } hipMemcpyDtoHAsync;
    struct
    {
        void*         dst;
        const void*   symbol;
        size_t        sizeBytes;
        size_t        offset;
        hipMemcpyKind kind;
    } hipMemcpyFromSymbol;
    struct
    {
        void*         dst;
        const void*   symbol;
        size_t        sizeBytes;
        size_t        offset;
        hipMemcpyKind kind;
        hipStream_t   stream;
    } hipMemcpyFromSymbolAsync;
    struct
    {
        hipDeviceptr_t dst;
        const void*    src;
        size_t         sizeBytes;
    } hipMemcpyHtoD;
    struct
    {
        hipDeviceptr_t dst;
        const void*    src;
        size_t         sizeBytes;
        hipStream_t    stream;
    } hipMemcpyHtoDAsync;
    struct
    {
        void*       dst;
        int         dstDeviceId;
        const void* src;
        int         srcDeviceId;
        size_t      sizeBytes;
    } hipMemcpyPeer;
    struct
    {
        void*       dst;
        int         dstDeviceId;
        const void* src;
        int         srcDevice;
        size_t      sizeBytes;
        hipStream_t stream;
    } hipMemcpyPeerAsync;
    struct
    {
        const void*   symbol;
        const void*   src;
        size_t        sizeBytes;
        size_t        offset;
        hipMemcpyKind kind;
    } hipMemcpyToSymbol;
    struct
    {
        const void*   symbol;
        const void*   src;
        size_t        sizeBytes;
        size_t        offset;
        hipMemcpyKind kind;
        hipStream_t   stream;
    } hipMemcpyToSymbolAsync;
    struct
    {
        void*         dst;
        const void*   src;
        size_t        sizeBytes;
        hipMemcpyKind kind;
        hipStream_t   stream;
    } hipMemcpyWithStream;
    struct
    {
        void*  dst;
        int    value;
        size_t sizeBytes;
    } hipMemset;
    struct
    {
        void*  dst;
        size_t pitch;
        int    value;
        size_t width;
        size_t height;
    } hipMemset2D;
    struct
    {
        void*       dst;
        size_t      pitch;
        int         value;
        size_t      width;
        size_t      height;
        hipStream_t stream;
    } hipMemset2DAsync;
    struct
    {
        void*       dst;
        int         value;
        size_t      sizeBytes;
        hipStream_t stream;
    } hipMemsetAsync;
    struct
    {
        hipDeviceptr_t dest;
        unsigned short value;
        size_t         count;
    } hipMemsetD16;
    struct
    {
        hipDeviceptr_t dest;
        unsigned short value;
        size_t         count;
        hipStream_t    stream;
    } hipMemsetD16Async;
    struct
    {
        hipDeviceptr_t dest;
        int            value;
        size_t         count;
    } hipMemsetD32;
    struct
    {
        hipDeviceptr_t dst;
        int            value;
        size_t         count;
        hipStream_t    stream;
    } hipMemsetD32Async;
    struct
    {
        hipDeviceptr_t dest;
        unsigned char  value;
        size_t         count;
    } hipMemsetD8;
    struct
    {
        hipDeviceptr_t dest;
        unsigned char  value;
        size_t         count;
        hipStream_t    stream;
    } hipMemsetD8Async;
    struct
    {
        hipFunction_t* function;
        hipModule_t    module;
        const char*    kname;
    } hipModuleGetFunction;
    struct
    {
        hipDeviceptr_t* dptr;
        size_t*         bytes;
        hipModule_t     hmod;
        const char*     name;
    } hipModuleGetGlobal;
    struct
    {
        hipFunction_t func;
        unsigned int  gridDimX;
        unsigned int  gridDimY;
        unsigned int  gridDimZ;
        unsigned int  blockDimX;
        unsigned int  blockDimY;
        unsigned int  blockDimZ;
        unsigned int  sharedMemBytes;
        hipStream_t   stream;
        void**        kernelParams;
    } hipModuleLaunchCooperativeKernel;
    struct
    {
        hipFunction_t func;
        unsigned int  gridDimX;
        unsigned int  gridDimY;
        unsigned int  gridDimZ;
        unsigned int  blockDimX;
        unsigned int  blockDimY;
        unsigned int  blockDimZ;
        unsigned int  sharedMemBytes;
        hipStream_t   stream;
        void**        kernelParams;
        void**        extra;
    } hipModuleLaunchKernel;
    struct
    {
        hipModule_t* module;
        const char*  fname;
    } hipModuleLoad;
    struct
    {
        hipModule_t* module;
        const void*  image;
    } hipModuleLoadData;
    struct
    {
        int*          numBlocks;
        hipFunction_t func;
        int           blockSize;
        size_t        dynSharedMemPerBlk;
    } hipModuleOccupancyMaxActiveBlocksPerMultiprocessor;
    struct
    {
        int*          numBlocks;
        hipFunction_t func;
        int           blockSize;
        size_t        dynSharedMemPerBlk;
        unsigned int  flags;
    } hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags;
    struct
    {
        int*          gridSize;
        int*          blockSize;
        hipFunction_t func;
        size_t        dynSharedMemPerBlk;
        int           blockSizeLimit;
    } hipModuleOccupancyMaxPotentialBlockSize;
    struct
    {
        int*          gridSize;
        int*          blockSize;
        hipFunction_t func;
        size_t        dynSharedMemPerBlk;
        int           blockSizeLimit;
        unsigned int  flags;
    } hipModuleOccupancyMaxPotentialBlockSizeWithFlags;
    struct
    {
        hipModule_t module;
    } hipModuleUnload;
    struct
    {
        int*        numBlocks;
        const void* func;
        int         blockSize;
        size_t      dynSharedMemPerBlk;
    } hipOccupancyMaxActiveBlocksPerMultiprocessor;
    struct
    {
        int*         numBlocks;
        const void*  func;
        int          blockSize;
        size_t       dynSharedMemPerBlk;
        unsigned int flags;
    } hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags;
    struct
    {
        int*        gridSize;
        int*        blockSize;
        const void* func;
        size_t      dynSharedMemPerBlk;
        int         blockSizeLimit;
    } hipOccupancyMaxPotentialBlockSize;
    struct
    {
        rocprofiler_hip_api_no_args no_args;
    } hipPeekAtLastError;
    struct
    {
        rocprofiler_hip_api_no_args no_args;
    } hipProfilerStart;
    struct
    {
        rocprofiler_hip_api_no_args no_args;
    } hipProfilerStop;
    struct
    {
        int* runtimeVersion;
    } hipRuntimeGetVersion;
    struct
    {
        int deviceId;
    } hipSetDevice;
    struct
    {
        unsigned flags;
    } hipSetDeviceFlags;
    struct
    {
        const void* arg;
        size_t      size;
        size_t      offset;
    } hipSetupArgument;
    struct
    {
        hipStream_t  stream;
        void*        dev_ptr;
        size_t       length;
        unsigned int flags;
    } hipStreamAttachMemAsync;
    struct
    {
        hipStream_t* stream;
    } hipStreamCreate;
    struct
    {
        hipStream_t* stream;
        unsigned int flags;
    } hipStreamCreateWithFlags;
    struct
    {
        hipStream_t* stream;
        unsigned int flags;
        int          priority;
    } hipStreamCreateWithPriority;
    struct
    {
        hipStream_t stream;
    } hipStreamDestroy;
    struct
    {
        hipStream_t  stream;
        hipDevice_t* device;
    } hipStreamGetDevice;
    struct
    {
        hipStream_t   stream;
        unsigned int* flags;
    } hipStreamGetFlags;
    struct
    {
        hipStream_t stream;
        int*        priority;
    } hipStreamGetPriority;
    struct
    {
        hipStream_t stream;
    } hipStreamQuery;
    struct
    {
        hipStream_t stream;
    } hipStreamSynchronize;
    struct
    {
        hipStream_t  stream;
        hipEvent_t   event;
        unsigned int flags;
    } hipStreamWaitEvent;
    struct
    {
        hipStream_t  stream;
        void*        ptr;
        uint32_t     value;
        unsigned int flags;
        uint32_t     mask;
    } hipStreamWaitValue32;
    struct
    {
        hipStream_t  stream;
        void*        ptr;
        uint64_t     value;
        unsigned int flags;
        uint64_t     mask;
    } hipStreamWaitValue64;
    struct
    {
        hipStream_t  stream;
        void*        ptr;
        uint32_t     value;
        unsigned int flags;
    } hipStreamWriteValue32;
    struct
    {
        hipStream_t  stream;
        void*        ptr;
        uint64_t     value;
        unsigned int flags;
    } hipStreamWriteValue64;
    struct
    {
        hipFunction_t func;
        uint32_t      globalWorkSizeX;
        uint32_t      globalWorkSizeY;
        uint32_t      globalWorkSizeZ;
        uint32_t      localWorkSizeX;
        uint32_t      localWorkSizeY;
        uint32_t      localWorkSizeZ;
        size_t        sharedMemBytes;
        hipStream_t   stream;
        void**        kernelParams;
        void**        extra;
        hipEvent_t    startEvent;
        hipEvent_t    stopEvent;
        uint32_t      flags;
    } hipExtModuleLaunchKernel;
    struct
    {
        hipFunction_t func;
        uint32_t      globalWorkSizeX;
        uint32_t      globalWorkSizeY;
        uint32_t      globalWorkSizeZ;
        uint32_t      localWorkSizeX;
        uint32_t      localWorkSizeY;
        uint32_t      localWorkSizeZ;
        size_t        sharedMemBytes;
        hipStream_t   stream;
        void**        kernelParams;
        void**        extra;
        hipEvent_t    startEvent;
        hipEvent_t    stopEvent;
    } hipHccModuleLaunchKernel;
    struct
    {
        void*         dst;
        const void*   src;
        size_t        sizeBytes;
        hipMemcpyKind kind;
    } hipMemcpy_spt;
    struct
    {
        const void*   symbol;
        const void*   src;
        size_t        sizeBytes;
        size_t        offset;
        hipMemcpyKind kind;
    } hipMemcpyToSymbol_spt;
    struct
    {
        void*         dst;
        const void*   symbol;
        size_t        sizeBytes;
        size_t        offset;
        hipMemcpyKind kind;
    } hipMemcpyFromSymbol_spt;
    struct
    {
        void*         dst;
        size_t        dpitch;
        const void*   src;
        size_t        spitch;
        size_t        width;
        size_t        height;
        hipMemcpyKind kind;
    } hipMemcpy2D_spt;
    struct
    {
        void*  dst;
        int    value;
        size_t sizeBytes;
    } hipMemset_spt;
    struct
    {
        void*       dst;
        int         value;
        size_t      sizeBytes;
        hipStream_t stream;
    } hipMemsetAsync_spt;
    struct
    {
        void*  dst;
        size_t pitch;
        int    value;
        size_t width;
        size_t height;
    } hipMemset2D_spt;
    struct
    {
        void*       dst;
        size_t      pitch;
        int         value;
        size_t      width;
        size_t      height;
        hipStream_t stream;
    } hipMemset2DAsync_spt;
    struct
    {
        void*         dst;
        const void*   src;
        size_t        sizeBytes;
        hipMemcpyKind kind;
        hipStream_t   stream;
    } hipMemcpyAsync_spt;
    struct
    {
        void*         dst;
        size_t        dpitch;
        const void*   src;
        size_t        spitch;
        size_t        width;
        size_t        height;
        hipMemcpyKind kind;
        hipStream_t   stream;
    } hipMemcpy2DAsync_spt;
    struct
    {
        void*         dst;
        const void*   symbol;
        size_t        sizeBytes;
        size_t        offset;
        hipMemcpyKind kind;
        hipStream_t   stream;
    } hipMemcpyFromSymbolAsync_spt;
    struct
    {
        const void*   symbol;
        const void*   src;
        size_t        sizeBytes;
        size_t        offset;
        hipMemcpyKind kind;
        hipStream_t   stream;
    } hipMemcpyToSymbolAsync_spt;
    struct
    {
        hipStream_t stream;
    } hipStreamQuery_spt;
    struct
    {
        hipStream_t stream;
    } hipStreamSynchronize_spt;
    struct
    {
        hipStream_t stream;
        int*        priority;
    } hipStreamGetPriority_spt;
    struct
    {
        hipStream_t  stream;
        hipEvent_t   event;
        unsigned int flags;
    } hipStreamWaitEvent_spt;
    struct
    {
        hipStream_t   stream;
        unsigned int* flags;
    } hipStreamGetFlags_spt;
    struct
    {
        hipEvent_t  event;
        hipStream_t stream;
    } hipEventRecord_spt;
    struct
    {
        const void*        func;
        rocprofiler_dim3_t gridDim;
        rocprofiler_dim3_t blockDim;
        void**             kernelParams;
        uint32_t           sharedMemBytes;
        hipStream_t        stream;
    } hipLaunchCooperativeKernel_spt;
    struct
    {
        const void*        function_address;
        rocprofiler_dim3_t numBlocks;
        rocprofiler_dim3_t dimBlocks;
        void**             args;
        size_t             sharedMemBytes;
        hipStream_t        stream;
    } hipLaunchKernel_spt;
    struct
    {
        hipStream_t stream;
    } hipGetStreamDeviceId;
    struct
    {
        rocprofiler_hip_api_no_args no_args;
    } hipExtGetLastError;
    struct
    {
        hipFunction_t* functionPtr;
        const void*    symbolPtr;
    } hipGetFuncBySymbol;
    struct
    {
        int* device_arr;
        int  len;
    } hipSetValidDevices;
    struct
    {
        void**       ptr;
        size_t       size;
        unsigned int flags;
    } hipExtHostAlloc;
    struct
    {
        hipEvent_t   event;
        hipStream_t  stream;
        unsigned int flags;
    } hipEventRecordWithFlags;
} rocprofiler_hip_api_args_t;

ROCPROFILER_EXTERN_C_FINI
