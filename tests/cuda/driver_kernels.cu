// Kernels of driver_program, compiled to a cubin and loaded with cuModuleLoad.
extern "C" __global__ void
increment(int* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) a[i] += 1;
}
