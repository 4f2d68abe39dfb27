// nvtx_markers.cu as plain C++: the same NVTX calls without a kernel, for the CPU suite.
#include "nvtx_markers.cu"
