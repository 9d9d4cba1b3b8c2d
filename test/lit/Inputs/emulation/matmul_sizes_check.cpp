// The matmul tests with sizes at run time (matmul_check.cpp takes typed
// buffers with sizes fixed at compile time): runs a matmul kernel and its variant on the CPU
// (cuda_threads.h) on the same random inputs and compares every output. Built by lit with
//   -DORIGINAL=<file> -DVARIANT=<file> -DKERNEL=<name>
//   -DORIGINAL_LAUNCH=<grid, block> -DVARIANT_LAUNCH=<grid, block>
//   -D'ARGS(C)=<the kernel's arguments>'
// (expressions over A, B, C, M, N, K and batch); run as
// `matmul_sizes_check M N K [batch]`: A is batch x M x K, B batch x K x N.
#include "cuda_threads.h"

#include <cmath>
#include <random>

namespace original {
#include ORIGINAL
}
namespace variant {
#include VARIANT
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5)
    return std::fprintf(stderr, "usage: matmul_sizes_check M N K [batch]\n"), 2;
  int M = std::atoi(argv[1]), N = std::atoi(argv[2]), K = std::atoi(argv[3]);
  int batch = argc == 5 ? std::atoi(argv[4]) : 1;
  std::vector<float> A(size_t(batch) * M * K), B(size_t(batch) * K * N);
  std::vector<float> Want(size_t(batch) * M * N, NAN), Got(size_t(batch) * M * N, NAN);
  std::mt19937 Gen(7);
  std::uniform_real_distribution<float> Uniform(-1, 1);
  for (float &V : A)
    V = Uniform(Gen);
  for (float &V : B)
    V = Uniform(Gen);
  emulateLaunch(ORIGINAL_LAUNCH, original::KERNEL, ARGS(Want.data()));
  emulateLaunch(VARIANT_LAUNCH, variant::KERNEL, ARGS(Got.data()));
  size_t Differ = 0;
  for (size_t I = 0; I < Want.size(); ++I)
    if (!(std::fabs(Want[I] - Got[I]) <= 1e-5f + 1e-5f * std::fabs(Want[I])))
      ++Differ;
  std::printf("%dx%dx%dx%d: %zu of %zu outputs differ\n", batch, M, N, K, Differ, Want.size());
  return Differ ? 1 : 0;
}
