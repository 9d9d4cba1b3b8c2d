#pragma kopt optimise
__global__ void a() {}
#pragma kopt optimize_all
__global__ void b() {}
#pragma kopt
__global__ void c() {}
