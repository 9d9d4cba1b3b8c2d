// Random inputs for a workload's buffers, reproducible from a seed: the
// original and a variant see byte-identical inputs, and each verification
// round draws a fresh set.
#pragma once

#include "evaluator/Workload.h"

#include <cstdint>
#include <vector>

namespace kopt::evaluator {

// Bytes for Buffer's Count elements: floats uniform in [-1, 1] (no overflow in
// sums and products of moderate length, signs mixed), integers in [0, 16)
// (small enough to be safe as indices and counts), bools 0/1. Seed and
// BufferIndex select the stream.
std::vector<uint8_t> generateBufferInput(const BufferArg &Buffer, uint64_t Seed,
                                         unsigned BufferIndex);

// The poison written into output-only buffers before every run: all bytes
// 0xFF, a NaN for every floating type and -1 (all ones) for integers.
inline constexpr uint8_t PoisonByte = 0xFF;
// The canary pattern of the guard zones around every buffer.
inline constexpr uint8_t GuardByte = 0xA5;

} // namespace kopt::evaluator
