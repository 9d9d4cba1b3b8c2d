// Runs a kernel and its variant on the CPU (cuda_threads.h) on the same random
// inputs and compares every element of every buffer: outputs within the
// tolerance, inputs unchanged. Built by lit with
//   -DORIGINAL=<file> -DVARIANT=<file> -DKERNEL=<name>
//   -D'SCALARS=S(int, M) S(float, alpha) ...'  values from the command line, in order
//   -D'BUFFERS=B(double, data, (N + 1) * (M + 1)) ...'  element type, name, count
//   -D'ARGS=data, M, ...'                     the kernel's arguments (buffers by name)
//   -D'ORIGINAL_LAUNCH=grid, block' -D'VARIANT_LAUNCH=grid, block'
//   optionally -D'VARIANT_CLUSTER=dim3(...)' (a cluster launch), -DRTOL=, -DATOL=
// and run as `kernel_check V1 V2 ...` with one value a scalar. Every buffer
// starts with the same random values in both runs (an output the kernel writes
// only in part keeps them elsewhere). Prints one line a buffer that differs
// and a summary; exits 1 where anything differs.
#include "cuda_threads.h"

#include <cmath>
#include <random>
#include <string>
#include <type_traits>

namespace original {
#include ORIGINAL
}
namespace variant {
#include VARIANT
}

#ifndef RTOL
#define RTOL 1e-4
#endif
#ifndef ATOL
#define ATOL 1e-5
#endif

template <class T> void fillRandom(std::vector<T> &V, std::mt19937 &Gen) {
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<double> U(-1, 1);
    for (T &X : V)
      X = T(U(Gen));
  } else {
    std::uniform_int_distribution<int> U(-50, 50);
    for (T &X : V)
      X = T(U(Gen));
  }
}

template <class T> bool same(T Want, T Got) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(Want) || std::isnan(Got))
      return std::isnan(Want) && std::isnan(Got);
    return std::fabs(double(Want) - double(Got)) <= ATOL + RTOL * std::fabs(double(Want));
  } else {
    return Want == Got;
  }
}

template <class T>
size_t compare(const char *Name, const std::vector<T> &Want, const std::vector<T> &Got) {
  size_t Differ = 0, First = 0;
  for (size_t I = 0; I < Want.size(); ++I)
    if (!same(Want[I], Got[I]) && Differ++ == 0)
      First = I;
  if (Differ)
    std::printf("%s: %zu of %zu elements differ, first at %zu: %g vs %g\n", Name, Differ,
                Want.size(), First, double(Want[First]), double(Got[First]));
  return Differ;
}

int main(int argc, char **argv) {
  int Arg = 1;
  auto next = [&](const char *Name) -> double {
    if (Arg >= argc) {
      std::fprintf(stderr, "kernel_check: missing a value for '%s'\n", Name);
      std::exit(2);
    }
    return std::stod(argv[Arg++]);
  };
#define S(Type, Name) Type Name = Type(next(#Name));
  SCALARS
#undef S
  std::mt19937 Gen(7);
#define B(Type, Name, Count)                                                                       \
  std::vector<Type> Name##_want(static_cast<size_t>(Count));                                       \
  fillRandom(Name##_want, Gen);                                                                    \
  std::vector<Type> Name##_got = Name##_want;
  BUFFERS
#undef B
  {
#define B(Type, Name, Count) Type *Name = Name##_want.data();
    BUFFERS
#undef B
    emulateLaunch(ORIGINAL_LAUNCH, original::KERNEL, ARGS);
  }
  {
#define B(Type, Name, Count) Type *Name = Name##_got.data();
    BUFFERS
#undef B
#ifdef VARIANT_CLUSTER
    emulateClusterLaunch(VARIANT_LAUNCH, VARIANT_CLUSTER, variant::KERNEL, ARGS);
#else
    emulateLaunch(VARIANT_LAUNCH, variant::KERNEL, ARGS);
#endif
  }
  size_t Differ = 0, Total = 0;
#define B(Type, Name, Count)                                                                       \
  Differ += compare(#Name, Name##_want, Name##_got);                                               \
  Total += Name##_want.size();
  BUFFERS
#undef B
  std::printf("%zu of %zu elements differ\n", Differ, Total);
  return Differ ? 1 : 0;
}
