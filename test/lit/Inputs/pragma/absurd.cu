// Pragmas kopt check once passed and the evaluator could never run (issue 32).
#pragma kopt optimize launch(grid: 1; block: 32) args(n = 4) buffers(x[1ULL << 62] in, y[n] out)
__global__ void huge(int n, const double *x, double *y) { y[threadIdx.x] = x[threadIdx.x] * n; }

#pragma kopt optimize launch(grid: 1; block: 32) args(n = 4) buffers(y[n] inout) instantiation(float, 128)
__global__ void plain(int n, float *y) { y[threadIdx.x] *= n; }
