// Random inputs for a workload's buffers, reproducible from a seed: the
// original and a variant see byte-identical inputs, and each verification
// round draws a fresh set. Counter-based: element i of buffer b for seed s is
// a hash of (s, b, i), so the host (this file, the definition) and the device
// (DeviceKernels.cpp) produce the same bytes, in any order, in parallel.
#pragma once

#include "evaluator/workload/Workload.h"

#include <cstdint>
#include <vector>

namespace kopt::evaluator {

// splitmix64's finalizer: a bijection of 64-bit words with good avalanche.
constexpr uint64_t mixBits(uint64_t Z) {
  Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
  Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
  return Z ^ (Z >> 31);
}

// The key of one buffer's stream for one seed.
constexpr uint64_t inputStreamKey(uint64_t Seed, unsigned BufferIndex) {
  return mixBits(Seed * 0x9E3779B97F4A7C15ull + BufferIndex * 0xD1B54A32D192ED03ull + 1);
}

// The random word of element I: splitmix64's I-th output from state Key.
constexpr uint64_t inputElementBits(uint64_t Key, uint64_t I) {
  return mixBits(Key + (I + 1) * 0x9E3779B97F4A7C15ull);
}

// Element I's bytes (sizeOf(Type) of them) at Out. Floats uniform in [-1, 1)
// on a grid the type represents exactly (2^-23 for f32, 2^-52 for f64, 2^-10
// for f16, 2^-7 for bf16), so no rounding can differ between host and device;
// integers in [0, 16) (small enough to be safe as indices and counts), bools 0/1.
// With a Range: Lo + t * (Hi - Lo) for t in [0, 1) on a 2^-53 grid, in double
// and rounded once to the type (floats); Lo + floor(t * (Hi - Lo)) for
// integers (the bounds integral), stored two's complement in the type's width.
// With Offsets (integers only): offsetsElement's value, over Range.
// With Local (integers in a Range only): localIndexElement's, over Range.
void generateElement(ScalarType Type, uint64_t Key, uint64_t I, uint8_t *Out,
                     const std::optional<ValueRange> &Range = std::nullopt,
                     const std::optional<OffsetsLayout> &Offsets = std::nullopt,
                     const std::optional<LocalIndices> &Local = std::nullopt);

// Element I of an offsets buffer (Workload.h's OffsetsLayout): 0 for I = 0,
// else I * Mean + (H mod (Jitter + 1)) for the element's random word H.
constexpr uint64_t offsetsElement(uint64_t H, uint64_t I, const OffsetsLayout &L) {
  return I == 0 ? 0 : I * L.Mean + H % (L.Jitter + 1);
}

// The half-width of the band local indices are drawn in.
inline constexpr uint64_t LocalIndexWindow = 256;

// Element I of Count local indices over a range of Span integers, as an offset
// from the range's start: the element's own position scaled to the range by
// the ratio rounded to an integer (I * (Span / Count), or I / ceil(Count / Span)
// where the buffer is the longer: every value stays local, though a range not a
// multiple of the count is not reached to its end), plus
// H's integer in [-W, W] (W = LocalIndexWindow, at most Span / 2), wrapped
// into [0, Span). Integer arithmetic only, so host and device agree.
constexpr uint64_t localIndexElement(uint64_t H, uint64_t I, uint64_t Count, uint64_t Span) {
  const uint64_t W = LocalIndexWindow < Span / 2 ? LocalIndexWindow : Span / 2;
  const uint64_t Centre = Span >= Count ? I * (Span / Count) : I / ((Count + Span - 1) / Span);
  return (Centre % Span + Span - W + H % (2 * W + 1)) % Span;
}

// Whether the inputs of a local-indices run (GpuSession.h's LocalIndicesSeed)
// draw Buffer as local indices: an input-only integer buffer whose range spans
// at least MinLocalIndexSpan integers from a non-negative start, and not
// offsets, which is how a pragma describes an index list (a CSR's columns, a
// mesh's or particle's neighbours, a gather map, keys).
inline constexpr uint64_t MinLocalIndexSpan = 1024;
bool drawsLocalIndices(const BufferArg &Buffer);

// Bytes for Buffer's Count elements from the stream (Seed, BufferIndex).
// Local: drawn as local indices where drawsLocalIndices(Buffer).
std::vector<uint8_t> generateBufferInput(const BufferArg &Buffer, uint64_t Seed,
                                         unsigned BufferIndex, bool Local = false);

// The poison written into output-only buffers before every run: all bytes
// 0xFF, a NaN for every floating type and -1 (all ones) for integers.
inline constexpr uint8_t PoisonByte = 0xFF;
// The canary pattern of the guard zones around every buffer.
inline constexpr uint8_t GuardByte = 0xA5;

} // namespace kopt::evaluator
