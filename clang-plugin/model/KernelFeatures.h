// Static features of a kernel body for the planner: thread geometry, loops,
// global memory accesses and how they coalesce, guards, shared memory, and the
// synchronization, warp, atomic and math calls. Computed from the AST of the
// kernel's own body (device functions it calls are not followed).
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace kopt::frontend {

struct LoopFeature {
  enum class Kind : uint8_t { For, While, Do };
  Kind LoopKind = Kind::For;
  unsigned Line = 0, Column = 0;
  unsigned Depth = 0; // 0 for an outermost loop of the body.
  // For a for loop whose condition compares a variable: i, "0", "<", "n", "1".
  std::string InductionVar, Init, Comparison, Bound;
  std::string Step;        // Additive step ("1", "-1", "blockDim.x * gridDim.x"), else empty.
  std::string Increment;   // The increment as written: "i += 4", "s >>= 1".
  bool Canonical = false;  // init; i CMP bound; additive step.
  bool Unroll = false;     // Under '#pragma unroll'.
  std::string UnrollCount; // '#pragma unroll 4': "4".
  // Pointer parameters whose elements the loop's start or condition reads,
  // directly or through locals: a CSR row's `for (j = rowptr[r]; j <
  // rowptr[r + 1]; ...)`. Its trip counts are data.
  std::vector<std::string> BoundParams{};
  // An integer pointer parameter P that gives the loop's start as P[I] and its
  // end as P[I + 1] (CSR row offsets), directly or through locals; empty where
  // none does. RowParams: the pointer parameters the loop (or a loop inside
  // it) indexes with its induction variable, the row's column indices and
  // values: P's last element must not exceed their element counts.
  std::string OffsetsParam{};
  std::vector<std::string> RowParams{};
};

enum class AccessPattern : uint8_t {
  Coalesced, // Affine in threadIdx.x with coefficient 1.
  Strided,   // Affine in threadIdx.x with another coefficient (Stride).
  Broadcast, // Does not depend on threadIdx.x: one address across a warp's x lanes.
  Indirect,  // The index itself loads from memory.
  Other,     // Depends on threadIdx.x in another way (division, modulo, products).
};

const char *accessPatternName(AccessPattern P);

// p[index] or *(p + index) where p is a pointer parameter, or a local pointer
// initialized from one (then Index includes that offset).
struct MemoryAccess {
  std::string Param;
  std::string Index; // As written; "0" for *p.
  bool Read = false, Write = false;
  AccessPattern Pattern = AccessPattern::Other;
  std::string Stride; // For Strided: the coefficient of threadIdx.x ("2", "K").
  unsigned Line = 0, Column = 0;
  int Loop = -1; // Index into KernelFeatures::Loops of the innermost loop, or -1.
};

// The same address (parameter and index text) accessed in every iteration of a
// loop: the index does not depend on the loop's induction variable.
struct RepeatedAccess {
  std::string Param, Index;
  int Loop = -1; // Index into KernelFeatures::Loops.
  bool Read = false, Write = false;
  unsigned Count = 0; // Accesses in the loop body with this address.
};

// An if condition comparing a thread-index-derived value with a parameter or a
// constant (a macro size); Params is empty for a constant.
struct BoundsGuard {
  std::string Condition; // The comparison as written: "i < n".
  std::vector<std::string> Params;
  unsigned Line = 0, Column = 0;
};

struct SharedVariable {
  std::string Name, Type;
  std::optional<uint64_t> Bytes; // Absent for extern (dynamic) or dependent sizes.
  bool Dynamic = false;          // extern __shared__ T s[].
};

// A per-thread array of the kernel's body (`int hist[16];`): one dimension, an
// arithmetic element type, a constant size. Indexed by data (any index other
// than a constant or a counter of a loop with constant bounds), nvcc keeps it
// in local memory rather than registers.
struct LocalArray {
  std::string Name, Element;
  uint64_t Elements = 0, Bytes = 0;
  bool DataIndexed = false;
  unsigned Line = 0, Column = 0;
};

struct CallFeature {
  std::string Name; // atomicAdd, __syncthreads, __shfl_down_sync, expf, ...
  unsigned Line = 0, Column = 0;
};

// A pointer parameter used where the access analysis cannot follow it: passed
// to a function or stored in a variable. An atomic's address is a write.
struct PointerEscape {
  std::string Param;
  std::string How;     // "passed to 'helper'", "assigned to 'p'".
  bool Writes = false; // Certainly written (atomicAdd(p + i, v)).
  unsigned Line = 0, Column = 0;
};

// An input read at several offsets of the thread's position: a stencil's
// neighbourhood (Neighbourhoods.h). A clamped read counts as one offset.
struct Neighbourhood {
  std::string Param;
  unsigned Offsets = 0; // Distinct offsets read around one base.
  unsigned Radius = 0;  // The largest offset in any dimension.
};

struct KernelFeatures {
  // Which of threadIdx/blockIdx/blockDim/gridDim .x/.y/.z the body reads, sorted.
  std::vector<std::string> IndexBuiltins;
  unsigned Dimensions = 0; // 1-3: highest component of threadIdx/blockIdx/blockDim used.
  std::vector<LoopFeature> Loops;
  std::vector<MemoryAccess> Accesses;
  std::vector<RepeatedAccess> RepeatedAccesses;
  std::vector<BoundsGuard> Guards;
  std::vector<SharedVariable> SharedVariables;
  std::vector<LocalArray> LocalArrays;
  std::vector<CallFeature> Atomics, Barriers, WarpIntrinsics, MathCalls;
  unsigned FloatDivisions = 0; // '/' on float operands (fast-math can approximate them).
  // pow(x, n) with a literal small integer n (analysis/IntegerPowers.h).
  unsigned IntegerPowers = 0;
  // Any other pow(x, e): a runtime or fractional exponent (analysis/IntegerPowers.h).
  unsigned OtherPowers = 0;
  // Stores a loop reads back in its next iteration (analysis/CarriedStores.h).
  unsigned CarriedStores = 0;
  // Flags every thread may raise again and again inside a loop: one value
  // stored to one location (analysis/FlagStores.h).
  unsigned FlagStores = 0;
  // Calls the analysis does not look into: the kernel's device functions and
  // library calls other than math, atomics, barriers and warp intrinsics.
  std::vector<CallFeature> OtherCalls;
  std::vector<PointerEscape> Escapes;
  std::vector<Neighbourhood> Neighbourhoods; // Inputs read at two or more offsets.
};

// Whether L steps by blockDim * gridDim: the product written in its step, or
// kept in a local the step names (the step is one identifier and the kernel
// reads gridDim.x). The AST tells for sure; this is the features' guess.
inline bool stepsByGrid(const KernelFeatures &F, const LoopFeature &L) {
  if (L.Step.find("gridDim") != std::string::npos)
    return true;
  bool Name = !L.Step.empty() && !std::isdigit(static_cast<unsigned char>(L.Step[0])) &&
              std::all_of(L.Step.begin(), L.Step.end(), [](char C) {
                return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
              });
  return Name && std::find(F.IndexBuiltins.begin(), F.IndexBuiltins.end(), "gridDim.x") !=
                     F.IndexBuiltins.end();
}

// Whether L is a canonical 'i < n' loop that steps by the block's threads or
// the grid's (for (c = threadIdx.x; c < n; c += blockDim.x)): its iterations
// are split among threads, each taking every stride-th element.
inline bool stepsByThreads(const KernelFeatures &F, const LoopFeature &L) {
  return L.Canonical && L.Comparison == "<" &&
         (L.Step.find("blockDim") != std::string::npos || stepsByGrid(F, L));
}

// Whether L halves its variable (s >>= 1, s /= 2, s = s >> 1): a block tree's
// loop, as the features tell it (the AST decides).
inline bool halvesItsVariable(const LoopFeature &L) {
  const std::string &Inc = L.Increment;
  auto EndsWith = [&](const std::string &Tail) {
    return Inc.size() >= Tail.size() &&
           Inc.compare(Inc.size() - Tail.size(), Tail.size(), Tail) == 0;
  };
  return Inc.find(">>= 1") != std::string::npos || Inc.find("/= 2") != std::string::npos ||
         EndsWith(">> 1") || EndsWith("/ 2");
}

// Whether the kernel's shared memory and barriers may all serve block trees
// whose total an atomic adds to global memory (the tree-atomics normalization
// turns them into an atomic a thread, and the threads become independent):
// __syncthreads alone, a loop that halves its variable, an atomicAdd,
// atomicMax or atomicMin, no warp intrinsics. The AST decides.
inline bool mayHoldAtomicTrees(const KernelFeatures &F) {
  auto Syncthreads = [](const CallFeature &C) { return C.Name == "__syncthreads"; };
  auto Combines = [](const CallFeature &C) {
    return C.Name == "atomicAdd" || C.Name == "atomicMax" || C.Name == "atomicMin";
  };
  return !F.SharedVariables.empty() && !F.Barriers.empty() && F.WarpIntrinsics.empty() &&
         std::all_of(F.Barriers.begin(), F.Barriers.end(), Syncthreads) &&
         std::any_of(F.Atomics.begin(), F.Atomics.end(), Combines) &&
         std::any_of(F.Loops.begin(), F.Loops.end(), halvesItsVariable);
}

// The features of Kernel's body (empty for a declaration).
KernelFeatures analyzeKernelFeatures(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

} // namespace kopt::frontend
