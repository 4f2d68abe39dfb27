/* What the C99 translation unit of the sampling headers reports to the C++ test. */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C"
{
#endif

    typedef struct sampling_headers_c_summary_t
    {
        size_t functions;              /* functions whose address the C file takes */
        size_t functions_resolved;     /* of those, non-NULL after linking */
        size_t enumerators;            /* enumerators listed */
        long   enumerator_sum;         /* sum of their values, as C sees them */
        size_t struct_bytes;           /* sum of the sizes of every struct, as C sees them */
        size_t stochastic_record_size; /* one size spelled out, for a direct comparison */
    } sampling_headers_c_summary_t;

    sampling_headers_c_summary_t sampling_headers_c_summary(void);

#ifdef __cplusplus
}
#endif
