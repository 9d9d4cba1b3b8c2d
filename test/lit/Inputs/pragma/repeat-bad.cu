#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024) buffers(x[n] inout) repeat(0)
__global__ void zero(int n, float *x) {}
#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024) buffers(x[n] inout) repeat(-1)
__global__ void negative(int n, float *x) {}
#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024) buffers(x[n] inout) repeat(n)
__global__ void named(int n, float *x) {}
#pragma kopt optimize launch(grid: 4; block: 256) args(n = 1024) buffers(x[n] inout) repeat(2.5)
__global__ void fractional(int n, float *x) {}
