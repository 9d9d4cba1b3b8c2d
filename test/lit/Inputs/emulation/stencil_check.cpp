// Runs a kernel and its variant on the CPU (cuda_threads.h) on the same random
// buffers and compares every element of every buffer exactly: the variants of
// stencil-tiling, stencil-streaming and block-shape-2d compute the same
// expressions from the same values, so nothing may differ by a single bit.
// Built by lit with
//   -DORIGINAL=<file> -DVARIANT=<file> -DKERNEL=<name> -DELEM=<float|double>
//   -DORIGINAL_LAUNCH=<grid, block> -DVARIANT_LAUNCH=<grid, block>
//   -DSIZE=<elements of each buffer> -D'ARGS(P0, P1, P2, P3)=<the kernel's arguments>'
// (expressions over the sizes a, b and c); run as `stencil_check a [b [c]]`.
// Four buffers of SIZE elements are passed as P0..P3; the kernel uses some.
#include <algorithm>
using std::max;
using std::min;

#include "cuda_threads.h"

#include <cmath>
#include <cstring>
#include <random>

namespace original {
#include ORIGINAL
}
namespace variant {
#include VARIANT
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 4)
    return std::fprintf(stderr, "usage: stencil_check a [b [c]]\n"), 2;
  int a = std::atoi(argv[1]);
  int b = argc > 2 ? std::atoi(argv[2]) : 1;
  int c = argc > 3 ? std::atoi(argv[3]) : 1;
  (void)a, (void)b, (void)c;
  size_t Size = SIZE;
  std::vector<ELEM> Want[4], Got[4];
  std::mt19937 Gen(11);
  std::uniform_real_distribution<double> Uniform(-1, 1);
  for (int I = 0; I < 4; ++I) {
    Want[I].resize(Size);
    for (ELEM &V : Want[I])
      V = ELEM(Uniform(Gen));
    Got[I] = Want[I];
  }
  std::vector<ELEM> Initial[4] = {Want[0], Want[1], Want[2], Want[3]};
  emulateLaunch(ORIGINAL_LAUNCH, original::KERNEL,
                ARGS(Want[0].data(), Want[1].data(), Want[2].data(), Want[3].data()));
  emulateLaunch(VARIANT_LAUNCH, variant::KERNEL,
                ARGS(Got[0].data(), Got[1].data(), Got[2].data(), Got[3].data()));
  // Written: what the original changed, so that a test sees it did work.
  size_t Differ = 0, Written = 0;
  for (int I = 0; I < 4; ++I)
    for (size_t E = 0; E < Size; ++E) {
      Differ += std::memcmp(&Want[I][E], &Got[I][E], sizeof(ELEM)) != 0;
      Written += std::memcmp(&Want[I][E], &Initial[I][E], sizeof(ELEM)) != 0;
    }
  std::printf("%dx%dx%d: %zu written, %zu of %zu values differ\n", a, b, c, Written, Differ,
              4 * Size);
  return Differ ? 1 : 0;
}
