// A stand-in for cuda_runtime.h that runs the suites' kernels on the CPU, for
// bench/emulate_cpu.py: the blocks one after another, each block's threads as fibers that
// meet at __syncthreads() and warp shuffles (emulated_block.h), so kernels with shared
// memory, barriers, warp shuffles and atomics run as written. It checks index arithmetic,
// barriers and host references where no GPU is available, not timing, data races or device
// precision.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <math.h>

#include "emulated_block.h"

#define KOPT_CPU_EMULATION 1

#define __global__
#define __host__
#define __device__
#define __forceinline__ inline
#define __noinline__
#define __constant__
#define __shared__ static // One block runs at a time: its threads share the object.
#define __align__(N) alignas(N)
#define __launch_bounds__(...)

typedef int cudaError_t;
enum { cudaSuccess = 0 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
typedef int *cudaEvent_t;
typedef int *cudaStream_t;

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

inline cudaError_t cudaMemcpyAsync(void *D, const void *S, size_t N, cudaMemcpyKind,
                                   cudaStream_t = nullptr) {
  return cudaMemcpy(D, S, N, cudaMemcpyDeviceToDevice);
}
inline cudaError_t cudaProfilerStart() { return 0; }
inline cudaError_t cudaProfilerStop() { return 0; }

// Fibers switch only at barriers: an atomic is a plain read-modify-write.
namespace emulation {
template <class T, class Op> T readModifyWrite(T *P, Op New) {
  T Old = *P;
  *P = New(Old);
  return Old;
}
} // namespace emulation
template <class T> T atomicAdd(T *P, T V) {
  return emulation::readModifyWrite(P, [V](T Old) { return T(Old + V); });
}
template <class T> T atomicSub(T *P, T V) {
  return emulation::readModifyWrite(P, [V](T Old) { return T(Old - V); });
}
template <class T> T atomicMax(T *P, T V) {
  return emulation::readModifyWrite(P, [V](T Old) { return Old < V ? V : Old; });
}
template <class T> T atomicMin(T *P, T V) {
  return emulation::readModifyWrite(P, [V](T Old) { return V < Old ? V : Old; });
}
template <class T> T atomicExch(T *P, T V) {
  return emulation::readModifyWrite(P, [V](T) { return V; });
}
template <class T> T atomicCAS(T *P, T Compare, T V) {
  return emulation::readModifyWrite(P, [Compare, V](T Old) { return Old == Compare ? V : Old; });
}
inline void __threadfence() {}
inline void __threadfence_block() {}

struct float2 {
  float x, y;
};
struct float3 {
  float x, y, z;
};
struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(16) double2 {
  double x, y;
};
struct int2 {
  int x, y;
};
struct uchar4 {
  unsigned char x, y, z, w;
};
inline float2 make_float2(float X, float Y) { return {X, Y}; }
inline float3 make_float3(float X, float Y, float Z) { return {X, Y, Z}; }
inline float4 make_float4(float X, float Y, float Z, float W) { return {X, Y, Z, W}; }
inline double2 make_double2(double X, double Y) { return {X, Y}; }
inline int2 make_int2(int X, int Y) { return {X, Y}; }
inline uchar4 make_uchar4(unsigned char X, unsigned char Y, unsigned char Z, unsigned char W) {
  return {X, Y, Z, W};
}

// CUDA's device math that the host's <cmath> lacks; the intrinsics as their exact forms.
inline float __expf(float X) { return std::exp(X); }
inline float __logf(float X) { return std::log(X); }
inline float __powf(float X, float Y) { return std::pow(X, Y); }
inline float __fdividef(float X, float Y) { return X / Y; }
inline float __saturatef(float X) { return X < 0 ? 0.0f : X > 1 ? 1.0f : X; }
inline double rsqrt(double X) { return 1.0 / std::sqrt(X); }
inline float normcdff(float X) { return 0.5f * std::erfc(-X * float(M_SQRT1_2)); }
inline double normcdf(double X) { return 0.5 * std::erfc(-X * M_SQRT1_2); }
inline float exp10f(float X) { return std::pow(10.0f, X); }
inline float __fadd_rn(float A, float B) { return A + B; }
inline float __fmul_rn(float A, float B) { return A * B; }
inline float rsqrtf(float X) { return 1.0f / std::sqrt(X); }
inline int min(int A, int B) { return A < B ? A : B; }
inline int max(int A, int B) { return A > B ? A : B; }
inline unsigned min(unsigned A, unsigned B) { return A < B ? A : B; }
inline unsigned max(unsigned A, unsigned B) { return A > B ? A : B; }
inline float min(float A, float B) { return std::fmin(A, B); }
inline float max(float A, float B) { return std::fmax(A, B); }
inline double min(double A, double B) { return std::fmin(A, B); }
inline double max(double A, double B) { return std::fmax(A, B); }
