#pragma kopt optimize noalias engine(llm) noalias
__global__ void a() {}
#pragma kopt optimize launch(grid: 1; block: 1; grid: 2)
__global__ void b() {}
#pragma kopt optimize args(n = 1, n = 2) skills(+tile, -tile)
__global__ void c(int n) {}
#pragma kopt optimize tol(rtol = 0) tol(atol = 0)
__global__ void d() {}
