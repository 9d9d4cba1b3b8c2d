// For gpu.kernel-times: two kernels that each spin for a set time on the GPU's global
// timer: `busy` three times between cudaProfilerStart and cudaProfilerStop (2 ms each),
// `outside` twice before the bracket. The kernel-times library must count the three
// `busy` launches (about 6 ms) and nothing of `outside` inside the bracket.
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <cstdio>

__device__ unsigned long long now() {
  unsigned long long T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  return T;
}

template <int Id> __global__ void spin(unsigned long long Ns, int *Out) {
  unsigned long long Start = now();
  while (now() - Start < Ns) {
  }
  Out[Id] = 1;
}

int main() {
  int *Out = nullptr;
  if (cudaMalloc(&Out, 2 * sizeof(int)) != cudaSuccess)
    return 2;
  for (int I = 0; I < 2; ++I)
    spin<1><<<1, 1>>>(1000000ull, Out);
  cudaDeviceSynchronize();
  cudaProfilerStart();
  for (int I = 0; I < 3; ++I)
    spin<0><<<1, 1>>>(2000000ull, Out);
  cudaDeviceSynchronize();
  cudaProfilerStop();
  std::printf("kernel_times: done\n");
  return cudaGetLastError() == cudaSuccess ? 0 : 2;
}
