#define BAD (1 +
#define GRID n / 2.5
#pragma kopt optimize launch(grid: n/; block: 256)
__global__ void a(int n) {}
#pragma kopt optimize launch(grid: BAD; block: 256)
__global__ void b(int n) {}
#pragma kopt optimize launch(grid: GRID; block: 256)
__global__ void c(int n) {}
#pragma kopt optimize args(n = (1 + 2) buffers(x[n) in)
__global__ void d(int n, float *x) {}
#pragma kopt optimize buffers(x[n) in) args(n = (1 + 2 3))
__global__ void d2(int n, float *x) {}
#pragma kopt optimize args(n = 99999999999999999999) budget(evals = n)
__global__ void e(int n) {}
#pragma kopt optimize budget(evals = 10 / 0) tol(rtol = -1e-3) launch(grid: 1, 2, 3, 4; block: 1)
__global__ void f() {}
