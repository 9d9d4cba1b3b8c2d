// Shipped by kopt. nvcc's CUDA headers declare min and max as __host__ __device__ overloads
// (crt/math_functions.hpp), so host code calls max(a, b) on ints, unsigneds, longs and
// floats without a std::. clang's CUDA wrapper gives only the __device__ ones; these are
// the host side, with the same overloads and result types (mixed signedness promotes to
// the unsigned type, mixed float and double to double).
#pragma once

#define KOPT_HOST_MIN_MAX(R, A, B)                                                                 \
  static inline __host__ R min(const A a, const B b) {                                             \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b);          \
  }                                                                                                \
  static inline __host__ R max(const A a, const B b) {                                             \
    return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b);          \
  }

KOPT_HOST_MIN_MAX(int, int, int)
KOPT_HOST_MIN_MAX(unsigned int, unsigned int, unsigned int)
KOPT_HOST_MIN_MAX(unsigned int, int, unsigned int)
KOPT_HOST_MIN_MAX(unsigned int, unsigned int, int)
KOPT_HOST_MIN_MAX(long int, long int, long int)
KOPT_HOST_MIN_MAX(unsigned long int, unsigned long int, unsigned long int)
KOPT_HOST_MIN_MAX(unsigned long int, long int, unsigned long int)
KOPT_HOST_MIN_MAX(unsigned long int, unsigned long int, long int)
KOPT_HOST_MIN_MAX(long long int, long long int, long long int)
KOPT_HOST_MIN_MAX(unsigned long long int, unsigned long long int, unsigned long long int)
KOPT_HOST_MIN_MAX(unsigned long long int, long long int, unsigned long long int)
KOPT_HOST_MIN_MAX(unsigned long long int, unsigned long long int, long long int)
KOPT_HOST_MIN_MAX(float, float, float)
KOPT_HOST_MIN_MAX(double, double, double)
KOPT_HOST_MIN_MAX(double, float, double)
KOPT_HOST_MIN_MAX(double, double, float)

#undef KOPT_HOST_MIN_MAX
