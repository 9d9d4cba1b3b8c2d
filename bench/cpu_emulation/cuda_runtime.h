// A stand-in for cuda_runtime.h that runs the suite's kernels on the CPU, one thread
// after another, for bench/emulate_cpu.py. Exact for kernels without barriers, shared
// memory or warp intrinsics, which is all of bench/kernels; it checks index arithmetic
// and host references where no GPU is available, not timing or device precision.
#pragma once

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <math.h>

#define __global__
#define __host__
#define __device__

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};
inline thread_local dim3 blockIdx, threadIdx, blockDim, gridDim;

typedef int cudaError_t;
enum { cudaSuccess = 0 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
typedef int *cudaEvent_t;

inline const char *cudaGetErrorString(cudaError_t) { return "cpu emulation"; }
// New memory reads as NaN (all bits set), so an output a kernel never writes fails.
template <class T> cudaError_t cudaMalloc(T **P, size_t N) {
  *P = static_cast<T *>(std::malloc(N));
  std::memset(*P, 0xFF, N);
  return 0;
}
inline cudaError_t cudaFree(void *P) { return std::free(P), 0; }
inline cudaError_t cudaMemcpy(void *D, const void *S, size_t N, cudaMemcpyKind) {
  return std::memcpy(D, S, N), 0;
}
inline cudaError_t cudaMemset(void *D, int V, size_t N) { return std::memset(D, V, N), 0; }
inline cudaError_t cudaMemsetAsync(void *D, int V, size_t N) { return cudaMemset(D, V, N); }
inline cudaError_t cudaGetLastError() { return 0; }
inline cudaError_t cudaDeviceSynchronize() { return 0; }
inline cudaError_t cudaEventCreate(cudaEvent_t *) { return 0; }
inline cudaError_t cudaEventRecord(cudaEvent_t) { return 0; }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return 0; }
inline cudaError_t cudaEventDestroy(cudaEvent_t) { return 0; }
inline cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t, cudaEvent_t) { return *Ms = 0, 0; }

inline float atomicAdd(float *P, float V) {
  float Old = *P;
  *P += V;
  return Old;
}
inline float __fadd_rn(float A, float B) { return A + B; }
inline float __fmul_rn(float A, float B) { return A * B; }
inline float rsqrtf(float X) { return 1.0f / std::sqrt(X); }
inline int min(int A, int B) { return A < B ? A : B; }
inline int max(int A, int B) { return A > B ? A : B; }

// kernel<<<G, B>>>(args) is rewritten to emulateLaunch(G, B, kernel, args).
template <class Kernel, class... Args>
void emulateLaunch(dim3 Grid, dim3 Block, Kernel K, Args... A) {
  gridDim = Grid;
  blockDim = Block;
  for (unsigned BZ = 0; BZ < Grid.z; ++BZ)
    for (unsigned BY = 0; BY < Grid.y; ++BY)
      for (unsigned BX = 0; BX < Grid.x; ++BX)
        for (unsigned TZ = 0; TZ < Block.z; ++TZ)
          for (unsigned TY = 0; TY < Block.y; ++TY)
            for (unsigned TX = 0; TX < Block.x; ++TX) {
              blockIdx = dim3(BX, BY, BZ);
              threadIdx = dim3(TX, TY, TZ);
              K(A...);
            }
}
