#include "evaluator/workload/InputGenerator.h"

#include <cmath>
#include <cstring>

namespace kopt::evaluator {

namespace {
// N in an integer type's width: its low bytes (little-endian, as the device
// stores them), a bool as 0 or 1.
void storeInteger(ScalarType Type, int64_t N, uint8_t *Out) {
  if (Type == ScalarType::Bool)
    N = N != 0;
  std::memcpy(Out, &N, sizeOf(Type));
}

void generateInRange(ScalarType Type, uint64_t H, const ValueRange &R, uint8_t *Out) {
  double T = static_cast<double>(H >> 11) * 0x1.0p-53;
  double Span = R.Hi - R.Lo;
  if (Type == ScalarType::F32) {
    float V = static_cast<float>(R.Lo + T * Span);
    std::memcpy(Out, &V, 4);
    return;
  }
  if (Type == ScalarType::F64) {
    double V = R.Lo + T * Span;
    std::memcpy(Out, &V, 8);
    return;
  }
  storeInteger(Type, static_cast<int64_t>(R.Lo) + static_cast<int64_t>(std::floor(T * Span)), Out);
}
} // namespace

void generateElement(ScalarType Type, uint64_t Key, uint64_t I, uint8_t *Out,
                     const std::optional<ValueRange> &Range,
                     const std::optional<OffsetsLayout> &Offsets,
                     const std::optional<LocalIndices> &Local) {
  uint64_t H = inputElementBits(Key, I);
  if (Offsets && !isFloating(Type))
    return storeInteger(Type, static_cast<int64_t>(offsetsElement(H, I, *Offsets)), Out);
  if (Local && Range && !isFloating(Type) && Local->Count > 0) {
    const auto Span = static_cast<uint64_t>(Range->Hi - Range->Lo);
    return storeInteger(Type,
                        static_cast<int64_t>(Range->Lo) +
                            static_cast<int64_t>(localIndexElement(H, I, Local->Count, Span)),
                        Out);
  }
  if (Range)
    return generateInRange(Type, H, *Range, Out);
  switch (Type) {
  case ScalarType::F32: { // The common case, without the generic store.
    float V = static_cast<float>(static_cast<double>(H >> 40) * 0x1.0p-23 - 1.0);
    std::memcpy(Out, &V, 4);
    return;
  }
  case ScalarType::F64:
    return storeFromDouble(Type, static_cast<double>(H >> 11) * 0x1.0p-52 - 1.0, Out);
  case ScalarType::F16:
    return storeFromDouble(Type, static_cast<double>(H >> 53) * 0x1.0p-10 - 1.0, Out);
  case ScalarType::BF16:
    return storeFromDouble(Type, static_cast<double>(H >> 56) * 0x1.0p-7 - 1.0, Out);
  case ScalarType::Bool:
    return storeFromDouble(Type, static_cast<double>(H >> 63), Out);
  default: // Integers: the top four bits.
    return storeFromDouble(Type, static_cast<double>(H >> 60), Out);
  }
}

bool drawsLocalIndices(const BufferArg &Buffer) {
  return Buffer.Dir == Direction::In && !isFloating(Buffer.Element) &&
         Buffer.Element != ScalarType::Bool && Buffer.Range && !Buffer.Offsets &&
         Buffer.Range->Lo >= 0 && Buffer.Range->Hi - Buffer.Range->Lo >= MinLocalIndexSpan;
}

std::vector<uint8_t> generateBufferInput(const BufferArg &Buffer, uint64_t Seed,
                                         unsigned BufferIndex, bool Local) {
  size_t Size = sizeOf(Buffer.Element);
  std::vector<uint8_t> Bytes(Buffer.Count * Size);
  uint64_t Key = inputStreamKey(Seed, BufferIndex);
  std::optional<LocalIndices> Layout;
  if (Local && drawsLocalIndices(Buffer))
    Layout = LocalIndices{Buffer.Count};
  for (uint64_t I = 0; I < Buffer.Count; ++I)
    generateElement(Buffer.Element, Key, I, Bytes.data() + I * Size, Buffer.Range, Buffer.Offsets,
                    Layout);
  return Bytes;
}

} // namespace kopt::evaluator
