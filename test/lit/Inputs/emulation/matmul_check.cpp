// The matmul family's check (kernel_check.cpp is the general one, with typed
// buffers and scalars from the command line): runs a kernel and its variant on
// the CPU (cuda_threads.h) on the same random buffers of one element type and compares every
// element of every buffer afterwards (outputs and inputs alike: a variant must not write where the
// original does not). Built by lit with
//   -DORIGINAL=<file> -DVARIANT=<file> -DKERNEL=<name> -DELEM=<float|double>
//   -DORIGINAL_LAUNCH=<grid, block> -DVARIANT_LAUNCH=<grid, block>
//   -D'BUFFERS(X)=X(a, NI * NK) X(b, NK * NJ) X(c, NI * NJ)'
//   -D'ARGS(P)=<the kernel's arguments; P(a) is buffer a's pointer>'
// and the size macros the kernel file reads (-DNI=37 ...); -DTOL=1e-4 where
// the variant may round differently (a reassociated sum). Prints
// "KERNEL: N of M elements differ" and exits 1 where any differ.
#include "cuda_threads.h"

#include <cmath>
#include <random>

namespace original {
#include ORIGINAL
}
namespace variant {
#include VARIANT
}

#define KOPT_STR2(X) #X
#define KOPT_STR(X) KOPT_STR2(X)

struct Buffers {
#define KOPT_DECLARE(Name, Count) std::vector<ELEM> Name = std::vector<ELEM>(size_t(Count));
  BUFFERS(KOPT_DECLARE)
#undef KOPT_DECLARE
};

int main() {
  Buffers Want, Got;
  std::mt19937 Gen(7);
  std::uniform_real_distribution<double> Uniform(-1, 1);
#define KOPT_FILL(Name, Count)                                                                     \
  for (size_t I = 0; I < Want.Name.size(); ++I)                                                    \
    Want.Name[I] = Got.Name[I] = ELEM(Uniform(Gen));
  BUFFERS(KOPT_FILL)
#undef KOPT_FILL
#define P(Name) Want.Name.data()
  emulateLaunch(ORIGINAL_LAUNCH, original::KERNEL, ARGS(P));
#undef P
#define P(Name) Got.Name.data()
  emulateLaunch(VARIANT_LAUNCH, variant::KERNEL, ARGS(P));
#undef P
#ifdef TOL // Where the variant reassociates sums.
  const double Tol = TOL;
#else
  const double Tol = sizeof(ELEM) == sizeof(float) ? 1e-5 : 1e-12;
#endif
  size_t Differ = 0, Total = 0;
#define KOPT_COMPARE(Name, Count)                                                                  \
  for (size_t I = 0; I < Want.Name.size(); ++I, ++Total)                                           \
    if (!(std::fabs(double(Want.Name[I]) - double(Got.Name[I])) <=                                 \
          Tol + Tol * std::fabs(double(Want.Name[I]))))                                            \
      ++Differ;
  BUFFERS(KOPT_COMPARE)
#undef KOPT_COMPARE
  std::printf("%s: %zu of %zu elements differ\n", KOPT_STR(KERNEL), Differ, Total);
  return Differ ? 1 : 0;
}
