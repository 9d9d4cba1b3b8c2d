struct Pair {
  float a, b;
};
#pragma kopt optimize args(m = 4, counts = 2) buffers(q[4] in)
__global__ void a(int n, int count, float *p) {}
#pragma kopt optimize buffers(n[16] in) args(p = 0)
__global__ void b(int n, float *p) {}
#pragma kopt optimize args(pair = 1, n = 1.5) launch(grid: p; block: 1)
__global__ void c(Pair pair, int n, float *p) {}
#pragma kopt optimize args(n = n + 1)
__global__ void d(int n) {}
#pragma kopt optimize buffers(x[4] out) launch(grid: 1; block: 1)
__global__ void e(const float *x) {}
