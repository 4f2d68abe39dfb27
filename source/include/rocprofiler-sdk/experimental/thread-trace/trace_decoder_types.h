/**
 * @file experimental/thread-trace/trace_decoder_types.h
 * @brief The records AMD's thread-trace decoder library hands back through
 * rocprofiler_thread_trace_decoder_callback_t (trace_decoder.h), with rocprofiler-sdk 1.0's names,
 * values and layouts, so that a tool which decodes thread traces compiles unchanged.
 *
 * No decoder runs in this SDK (see trace_decoder.h), so no record of these types is ever produced
 * here. Times are in shader clock cycles.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/**
 * @defgroup THREAD_TRACE_DECODER_TYPES Thread trace decoder records (experimental)
 * @{
 */

/** @brief What an INFO record reports. */
typedef enum rocprofiler_thread_trace_decoder_info_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_THREAD_TRACE_DECODER_INFO_NONE = 0,          ///< Nothing to report
    ROCPROFILER_THREAD_TRACE_DECODER_INFO_DATA_LOST,         ///< The trace lost data
    ROCPROFILER_THREAD_TRACE_DECODER_INFO_STITCH_INCOMPLETE, ///< Some code was in no loaded
                                                             ///< code object
    ROCPROFILER_THREAD_TRACE_DECODER_INFO_LAST,              ///< Sentinel
} rocprofiler_thread_trace_decoder_info_t;

/** @brief A program counter: an address, or an offset in a loaded code object. */
typedef struct rocprofiler_thread_trace_decoder_pc_t
{
    uint64_t addr;      ///< Virtual address when marker_id is 0, else the ELF address
    uint64_t marker_id; ///< Load id of the code object holding addr; 0 when none was found
} rocprofiler_thread_trace_decoder_pc_t;

/** @brief Four 16-bit counter samples of one compute unit. */
typedef struct rocprofiler_thread_trace_decoder_perfevent_t
{
    int64_t  time;    ///< When the counters were read
    uint16_t events0; ///< Counter 0, or 4 when bank is 1
    uint16_t events1; ///< Counter 1, or 5 when bank is 1
    uint16_t events2; ///< Counter 2, or 6 when bank is 1
    uint16_t events3; ///< Counter 3, or 7 when bank is 1
    uint8_t  CU;      ///< Compute unit the counters belong to
    uint8_t  bank;    ///< 0: counters 0..3; 1: counters 4..7
} rocprofiler_thread_trace_decoder_perfevent_t;

/** @brief A wave starting or ending. */
typedef struct rocprofiler_thread_trace_decoder_occupancy_t
{
    rocprofiler_thread_trace_decoder_pc_t pc;         ///< The kernel's entry point
    uint64_t                              time;       ///< When the event happened
    uint8_t                               reserved;   ///< Unused
    uint8_t                               cu;         ///< Compute unit (gfx9) or WGP (gfx10 on)
    uint8_t                               simd;       ///< SIMD within the compute unit
    uint8_t                               slot;       ///< Wave slot within the SIMD
    uint32_t                              start : 1;  ///< 1: the wave started; 0: it ended
    uint32_t                              _rsvd : 31; ///< Unused
} rocprofiler_thread_trace_decoder_occupancy_t;

/** @brief States of a wave slot. */
typedef enum rocprofiler_thread_trace_decoder_wstate_type_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_THREAD_TRACE_DECODER_WSTATE_EMPTY = 0, ///< No wave in the slot
    ROCPROFILER_THREAD_TRACE_DECODER_WSTATE_IDLE,      ///< Wave present, not issuing
    ROCPROFILER_THREAD_TRACE_DECODER_WSTATE_EXEC,      ///< Executing
    ROCPROFILER_THREAD_TRACE_DECODER_WSTATE_WAIT,      ///< Waiting on a dependency
    ROCPROFILER_THREAD_TRACE_DECODER_WSTATE_STALL,     ///< Stalled
    ROCPROFILER_THREAD_TRACE_DECODER_WSTATE_LAST,      ///< Sentinel
} rocprofiler_thread_trace_decoder_wstate_type_t;

/** @brief One interval of a wave's timeline. */
typedef struct rocprofiler_thread_trace_decoder_wave_state_t
{
    int32_t type;     ///< A rocprofiler_thread_trace_decoder_wstate_type_t
    int32_t duration; ///< Length of the interval, cycles
} rocprofiler_thread_trace_decoder_wave_state_t;

/** @brief Kinds of instructions. */
typedef enum rocprofiler_thread_trace_decoder_inst_category_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_THREAD_TRACE_DECODER_INST_NONE = 0, ///< Unknown
    ROCPROFILER_THREAD_TRACE_DECODER_INST_SMEM,     ///< Scalar memory
    ROCPROFILER_THREAD_TRACE_DECODER_INST_SALU,     ///< Scalar arithmetic
    ROCPROFILER_THREAD_TRACE_DECODER_INST_VMEM,     ///< Vector memory
    ROCPROFILER_THREAD_TRACE_DECODER_INST_FLAT,     ///< Flat memory (global or LDS)
    ROCPROFILER_THREAD_TRACE_DECODER_INST_LDS,      ///< Local data share
    ROCPROFILER_THREAD_TRACE_DECODER_INST_VALU,     ///< Vector arithmetic
    ROCPROFILER_THREAD_TRACE_DECODER_INST_JUMP,     ///< Branch, taken
    ROCPROFILER_THREAD_TRACE_DECODER_INST_NEXT,     ///< Branch, not taken
    ROCPROFILER_THREAD_TRACE_DECODER_INST_IMMED,    ///< Internal operation
    ROCPROFILER_THREAD_TRACE_DECODER_INST_CONTEXT,  ///< Context switch of the wave
    ROCPROFILER_THREAD_TRACE_DECODER_INST_MESSAGE,  ///< Message
    ROCPROFILER_THREAD_TRACE_DECODER_INST_BVH,      ///< Ray tracing
    ROCPROFILER_THREAD_TRACE_DECODER_INST_LAST,     ///< Sentinel
} rocprofiler_thread_trace_decoder_inst_category_t;

/** @brief One executed instruction. duration - stall is the issue (gfx9) or execution time. */
typedef struct rocprofiler_thread_trace_decoder_inst_t
{
    uint32_t category : 8; ///< A rocprofiler_thread_trace_decoder_inst_category_t
    uint32_t stall : 24;   ///< Cycles before the instruction issued
    int32_t  duration;     ///< Cycles from the first attempt to completion (stall included)
    int64_t  time;         ///< When the wave first tried to execute it
    rocprofiler_thread_trace_decoder_pc_t pc; ///< Where it is
} rocprofiler_thread_trace_decoder_inst_t;

/** @brief A traced wave over its lifetime, with its timeline and instructions. */
typedef struct rocprofiler_thread_trace_decoder_wave_t
{
    uint8_t  cu;                ///< Compute unit (gfx9) or WGP (gfx10 on): the traced one
    uint8_t  simd;              ///< SIMD within the compute unit
    uint8_t  wave_id;           ///< Wave slot within the SIMD
    uint8_t  contexts;          ///< Context saves and restores during the wave's life
    uint32_t _rsvd1;            ///< Unused
    uint32_t _rsvd2;            ///< Unused
    uint32_t _rsvd3;            ///< Unused
    int64_t  begin_time;        ///< Start (the occupancy record's start)
    int64_t  end_time;          ///< End (the occupancy record's end)
    uint64_t timeline_size;     ///< Entries of timeline_array
    uint64_t instructions_size; ///< Entries of instructions_array
    rocprofiler_thread_trace_decoder_wave_state_t* timeline_array; ///< State intervals, in order
    rocprofiler_thread_trace_decoder_inst_t*       instructions_array; ///< Instructions, in order
} rocprofiler_thread_trace_decoder_wave_t;

/** @brief What the decoder callback's trace_events points to. */
typedef enum rocprofiler_thread_trace_decoder_record_type_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_THREAD_TRACE_DECODER_RECORD_GFXIP = 0, ///< The GFX IP major version (a size_t)
    ROCPROFILER_THREAD_TRACE_DECODER_RECORD_OCCUPANCY, ///< occupancy_t records
    ROCPROFILER_THREAD_TRACE_DECODER_RECORD_PERFEVENT, ///< perfevent_t records
    ROCPROFILER_THREAD_TRACE_DECODER_RECORD_WAVE,      ///< wave_t records
    ROCPROFILER_THREAD_TRACE_DECODER_RECORD_INFO,      ///< info_t values
    ROCPROFILER_THREAD_TRACE_DECODER_RECORD_DEBUG,     ///< The decoder's own diagnostics
    ROCPROFILER_THREAD_TRACE_DECODER_RECORD_LAST,      ///< Sentinel
} rocprofiler_thread_trace_decoder_record_type_t;

/** @} */
