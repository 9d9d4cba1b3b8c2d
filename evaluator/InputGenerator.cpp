#include "evaluator/InputGenerator.h"

#include <cstring>

namespace kopt::evaluator {

namespace {
// splitmix64: a fast, well-mixed stream (inputs for gigabyte buffers must not
// take minutes); one state per buffer and seed.
struct SplitMix {
  uint64_t State;
  uint64_t next() {
    uint64_t Z = (State += 0x9E3779B97F4A7C15ull);
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
    return Z ^ (Z >> 31);
  }
};
} // namespace

std::vector<uint8_t> generateBufferInput(const BufferArg &Buffer, uint64_t Seed,
                                         unsigned BufferIndex) {
  size_t Size = sizeOf(Buffer.Element);
  std::vector<uint8_t> Bytes(Buffer.Count * Size);
  SplitMix Rng{Seed * 0x9E3779B97F4A7C15ull + BufferIndex * 0xD1B54A32D192ED03ull + 1};
  uint8_t *Out = Bytes.data();
  if (Buffer.Element == ScalarType::F32) { // The common case, without the generic store.
    for (uint64_t I = 0; I < Buffer.Count; ++I) {
      float V = static_cast<float>(static_cast<double>(Rng.next() >> 11) * 0x1.0p-52 - 1.0);
      std::memcpy(Out + I * 4, &V, 4);
    }
  } else if (isFloating(Buffer.Element)) {
    for (uint64_t I = 0; I < Buffer.Count; ++I)
      storeFromDouble(Buffer.Element, static_cast<double>(Rng.next() >> 11) * 0x1.0p-52 - 1.0,
                      Out + I * Size);
  } else {
    uint64_t Range = Buffer.Element == ScalarType::Bool ? 2 : 16;
    for (uint64_t I = 0; I < Buffer.Count; ++I)
      storeFromDouble(Buffer.Element, static_cast<double>(Rng.next() % Range), Out + I * Size);
  }
  return Bytes;
}

} // namespace kopt::evaluator
