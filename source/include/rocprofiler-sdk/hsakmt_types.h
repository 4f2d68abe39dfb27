/**
 * @file hsakmt_types.h
 * @brief The few types of ROCr's thunk (`hsakmt/hsakmttypes.h`) that the agent records of
 * rocprofiler-sdk name, declared here with their layout (one 32-bit word each) so that agent.h
 * needs no ROCm package. The declarations are skipped when the thunk's own header was included
 * first (same include guard), and the thunk's header then finds these already there: only the
 * word (`Value`, `MemoryProperty`, `LinkProperty`) and the enumerators below are declared (not
 * the thunk's `..._SIZE = 0xFFFFFFFF`, outside C99's `int`; the enums are one word either way).
 */
#pragma once

#ifndef _HSAKMTTYPES_H_
#    define _HSAKMTTYPES_H_

#    include <stdint.h>

typedef uint32_t HSAuint32;
typedef uint64_t HSAuint64;

/** @brief Firmware version of the compute engine. */
typedef union
{
    HSAuint32 Value;
    struct
    {
        unsigned int uCode : 10;   ///< Microcode version
        unsigned int Major : 6;    ///< Engine major version
        unsigned int Minor : 8;    ///< Engine minor version
        unsigned int Stepping : 8; ///< Stepping
    } ui32;
} HSA_ENGINE_ID;

/** @brief Firmware version of the copy engines. */
typedef union
{
    HSAuint32 Value;
} HSA_ENGINE_VERSION;

/** @brief Capability bits of a node. */
typedef union
{
    HSAuint32 Value;
} HSA_CAPABILITY;

/** @brief Kind of a memory heap. */
typedef enum
{
    HSA_HEAPTYPE_SYSTEM               = 0,
    HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC  = 1,
    HSA_HEAPTYPE_FRAME_BUFFER_PRIVATE = 2,
    HSA_HEAPTYPE_GPU_GDS              = 3,
    HSA_HEAPTYPE_GPU_LDS              = 4,
    HSA_HEAPTYPE_GPU_SCRATCH          = 5,
    HSA_HEAPTYPE_DEVICE_SVM           = 6,
    HSA_HEAPTYPE_MMIO_REMAP           = 7,
    HSA_HEAPTYPE_NUMHEAPTYPES,
} HSA_HEAPTYPE;

/** @brief Properties of a memory bank. */
typedef union
{
    HSAuint32 MemoryProperty;
} HSA_MEMORYPROPERTY;

/** @brief Kind of a cache. */
typedef union
{
    HSAuint32 Value;
} HsaCacheType;

/** @brief Kind of an I/O link. */
typedef enum
{
    HSA_IOLINKTYPE_UNDEFINED  = 0,
    HSA_IOLINKTYPE_PCIEXPRESS = 2,
    HSA_IOLINK_TYPE_XGMI      = 11,
    HSA_IOLINK_TYPE_OTHER     = 16,
} HSA_IOLINKTYPE;

/** @brief Properties of an I/O link. */
typedef union
{
    HSAuint32 LinkProperty;
} HSA_LINKPROPERTY;

#endif
