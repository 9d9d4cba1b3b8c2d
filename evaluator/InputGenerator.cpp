#include "evaluator/InputGenerator.h"

#include <random>

namespace kopt::evaluator {

std::vector<uint8_t> generateBufferInput(const BufferArg &Buffer, uint64_t Seed,
                                         unsigned BufferIndex) {
  size_t Size = sizeOf(Buffer.Element);
  std::vector<uint8_t> Bytes(Buffer.Count * Size);
  std::mt19937_64 Rng(Seed * 0x9E3779B97F4A7C15ull + BufferIndex * 0xBF58476D1CE4E5B9ull + 1);
  if (isFloating(Buffer.Element)) {
    std::uniform_real_distribution<double> Dist(-1.0, 1.0);
    for (uint64_t I = 0; I < Buffer.Count; ++I)
      storeFromDouble(Buffer.Element, Dist(Rng), &Bytes[I * Size]);
  } else {
    std::uniform_int_distribution<int> Dist(0, Buffer.Element == ScalarType::Bool ? 1 : 15);
    for (uint64_t I = 0; I < Buffer.Count; ++I)
      storeFromDouble(Buffer.Element, Dist(Rng), &Bytes[I * Size]);
  }
  return Bytes;
}

} // namespace kopt::evaluator
