#pragma kopt optimize lanch(grid: 1; block: 1) noalais
__global__ void a() {}
#pragma kopt optimize frobnicate(3) engine(llms)
__global__ void b() {}
#pragma kopt optimize launch(grd: 1; block: 1) buffers(p[4] input)
__global__ void c(float *p) {}
#pragma kopt optimize tol(rtl = 1e-3) budget(time = 60d, evals = 0)
__global__ void d() {}
#pragma kopt optimize 42
__global__ void e() {}
