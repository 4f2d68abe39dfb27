// CHECK(call): the GPU test programs' and benchmarks' check of a CUDA runtime call. A failing call
// prints where and why and exits with 2, so that a broken setup never reads as a measurement.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(CALL)                                                                                \
    do                                                                                             \
    {                                                                                              \
        cudaError_t err_ = (CALL);                                                                 \
        if(err_ != cudaSuccess)                                                                    \
        {                                                                                          \
            std::fprintf(                                                                          \
                stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #CALL, cudaGetErrorString(err_));   \
            std::exit(2);                                                                          \
        }                                                                                          \
    } while(0)
