#include "memory/experience/KernelFacts.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Regex.h>

#include <algorithm>
#include <set>

namespace kopt::memory {

namespace {
using frontend::AccessPattern;
using frontend::KernelFeatures;
using frontend::LoopFeature;
using frontend::MemoryAccess;

constexpr FactType Num = FactType::Number, Bool = FactType::Boolean;

const FactInfo Table[] = {
    // Counts from the front end.
    {"dimensions", Num, false, "highest thread/block dimension used (1-3)"},
    {"loops", Num, false, "loops in the body"},
    {"loop_depth", Num, false, "deepest loop nesting (0 without loops)"},
    {"canonical_loops", Num, false, "for loops with an additive step"},
    {"unrolled_loops", Num, false, "loops under #pragma unroll"},
    {"literal_bound_loops", Num, false, "loops whose bound is a literal number"},
    {"accesses", Num, false, "global memory accesses"},
    {"reads", Num, false, "global reads"},
    {"writes", Num, false, "global writes"},
    {"coalesced_accesses", Num, false, "accesses with unit stride in threadIdx.x"},
    {"strided_accesses", Num, false, "accesses with a non-unit stride in threadIdx.x"},
    {"broadcast_accesses", Num, false, "accesses independent of threadIdx.x"},
    {"indirect_accesses", Num, false, "accesses whose index is loaded from memory"},
    {"other_accesses", Num, false, "accesses depending on threadIdx.x non-affinely"},
    {"accesses_in_loops", Num, false, "accesses inside a loop"},
    {"uncoalesced_in_loops", Num, false, "strided or other accesses inside a loop"},
    {"broadcast_writes", Num, false, "writes independent of threadIdx.x (out[blockIdx.x])"},
    {"repeated_accesses", Num, false, "same global address in every iteration of a loop"},
    {"repeated_writes", Num, false, "repeated accesses that write (accumulation in memory)"},
    {"read_params", Num, false, "pointer parameters read"},
    {"read_only_params", Num, false, "pointer parameters read and never written"},
    {"written_params", Num, false, "pointer parameters written"},
    {"guards", Num, false, "bounds guards (thread index compared with a parameter)"},
    {"atomics", Num, false, "atomic calls"},
    {"barriers", Num, false, "block barriers (__syncthreads, cg sync)"},
    {"warp_intrinsics", Num, false, "shuffles, votes and warp reductions"},
    {"shared_variables", Num, false, "__shared__ variables"},
    {"shared_bytes", Num, false, "bytes of static shared memory"},
    {"math_calls", Num, false, "math library calls"},
    {"precise_math_calls", Num, false, "math calls with a faster intrinsic (expf, sinf, ...)"},
    {"fast_math_calls", Num, false, "fast intrinsics already used (__expf, ...)"},
    {"integer_powers", Num, false, "pow calls with a literal integer exponent from 2 to 16"},
    {"other_powers", Num, false, "pow calls with a runtime, fractional or negative exponent"},
    {"carried_stores", Num, false,
     "stores a loop reads back in its next iteration (a recurrence through memory)"},
    {"flag_stores", Num, false,
     "flags a thread may raise again and again in a loop (one value to one location: *changed = "
     "1)"},
    {"data_indexed_arrays", Num, false, "per-thread arrays indexed by data (kept in local memory)"},
    {"thread_stride_loops", Num, false,
     "'i < n' loops stepping by blockDim.x or blockDim * gridDim (split among threads)"},
    // Booleans from the front end.
    {"has_loops", Bool, false, "the body has a loop"},
    {"has_bounds_guard", Bool, false, "a thread index is compared with a parameter"},
    {"grid_stride_loop", Bool, false, "a loop steps by blockDim * gridDim"},
    {"tree_loop", Bool, false, "a loop halves or doubles its variable (s >>= 1, o *= 2)"},
    {"uses_shared", Bool, false, "the kernel declares __shared__ memory"},
    {"uses_dynamic_shared", Bool, false, "extern __shared__ memory"},
    {"uses_atomics", Bool, false, "the kernel calls atomics"},
    {"uses_barriers", Bool, false, "the kernel calls block barriers"},
    {"atomic_trees", Bool, false,
     "its shared memory and barriers may serve only block trees whose total an atomic adds "
     "(the cooperative transforms free its threads)"},
    {"uses_warp_intrinsics", Bool, false, "the kernel uses warp-level intrinsics"},
    {"dims_2d", Bool, false, "uses a .y component (2 or more dimensions)"},
    {"dims_3d", Bool, false, "uses a .z component"},
    {"matmul_like", Bool, false, "a loop reads A[..k..] and B[..k..] with k scaled in one"},
    {"reduction_like", Bool, false, "many inputs fold into few outputs (tree, shuffles, atomics)"},
    {"scan_like", Bool, false, "a doubling loop over shared memory, one output per thread"},
    {"stencil_like", Bool, false,
     "an input read at several offsets of the thread's position (3 in 1-D, 2 in 2-D)"},
    {"stencil_points", Num, false, "most offsets one input is read at around one base"},
    {"transpose_like", Bool, false, "2D copy reading coalesced and writing strided or back"},
    {"kind_elementwise", Bool, false, "kernelKind is elementwise"},
    {"kind_reduction", Bool, false, "kernelKind is reduction"},
    {"kind_stencil", Bool, false, "kernelKind is stencil"},
    {"kind_matmul", Bool, false, "kernelKind is matmul"},
    {"kind_matvec", Bool, false, "kernelKind is matvec"},
    {"kind_transpose", Bool, false, "kernelKind is transpose"},
    {"kind_scan", Bool, false, "kernelKind is scan"},
    {"kind_other", Bool, false, "kernelKind is other"},
    // Measured; absent without a profile (see ProfileMetrics).
    {"elapsed_ms", Num, true, "median kernel time, ms"},
    {"dram_throughput_pct", Num, true, "DRAM bandwidth used, % of peak"},
    {"sm_throughput_pct", Num, true, "SM pipes busy, % of peak"},
    {"achieved_occupancy_pct", Num, true, "achieved occupancy, %"},
    {"theoretical_occupancy_pct", Num, true, "occupancy the resources allow, %"},
    {"registers", Num, true, "registers per thread"},
    {"local_bytes", Num, true, "local memory (spills) per thread, bytes"},
    {"shared_bytes_per_block", Num, true, "shared memory per block, bytes"},
    {"block_size", Num, true, "threads per block of the launch"},
    {"grid_size", Num, true, "blocks of the launch"},
    {"threads_launched", Num, true,
     "threads of the launch (block_size x grid_size); an H100 holds 270336 at once"},
    {"bytes_moved", Num, true, "DRAM bytes read and written per launch"},
    {"parallelism", Num, true,
     "threads launched / threads the device holds at once (SMs x max threads per SM)"},
    {"arithmetic_intensity", Num, true, "floating-point operations per DRAM byte"},
    {"l1_hit_rate_pct", Num, true, "L1 (l1tex) sector hit rate, %"},
    {"l2_hit_rate_pct", Num, true, "L2 sector hit rate, %"},
    {"sectors_per_request", Num, true, "global sectors per request"},
    {"branch_efficiency_pct", Num, true, "non-divergent branches, %"},
    {"warp_execution_efficiency_pct", Num, true, "active lanes per instruction, %"},
    {"stall_long_scoreboard_pct", Num, true, "warps stalled on global/local memory, % of active"},
    {"stall_short_scoreboard_pct", Num, true,
     "warps stalled on shared memory or MUFU, % of active"},
    {"stall_barrier_pct", Num, true, "warps stalled at a block barrier, % of active"},
    {"stall_mio_throttle_pct", Num, true, "warps stalled on the MIO queue (shared), % of active"},
    {"stall_lg_throttle_pct", Num, true, "warps stalled on the global/local queue, % of active"},
    {"stall_math_pipe_throttle_pct", Num, true, "warps stalled on a busy math pipe, % of active"},
};

constexpr llvm::StringRef Kinds[] = {"matmul",  "matvec",    "reduction",   "scan",
                                     "stencil", "transpose", "elementwise", "other"};

// Identifier Var appears in Text as a whole word.
bool mentions(llvm::StringRef Text, llvm::StringRef Var) {
  if (Var.empty())
    return false;
  return llvm::Regex("(^|[^A-Za-z0-9_])" + llvm::Regex::escape(Var) + "([^A-Za-z0-9_]|$)")
      .match(Text);
}

// Var is a factor of a product in Text ("kk * n", "n*kk").
bool scaled(llvm::StringRef Text, llvm::StringRef Var) {
  std::string V = llvm::Regex::escape(Var);
  return llvm::Regex("(^|[^A-Za-z0-9_])" + V + "[ ]*\\*").match(Text) ||
         llvm::Regex("\\*[ ]*" + V + "([^A-Za-z0-9_]|$)").match(Text);
}

bool isTreeLoop(const LoopFeature &L) {
  llvm::StringRef Inc = L.Increment;
  return Inc.contains(">>=") || Inc.contains("<<=") || llvm::Regex("[*/]= *2$").match(Inc) ||
         llvm::Regex("= *[A-Za-z_][A-Za-z0-9_]* *[*/] *2$").match(Inc);
}

// Whether Word is a variable, not a type or keyword a cast spells.
bool isVariableWord(llvm::StringRef Word) {
  static const std::set<std::string, std::less<>> TypeWords = {
      "int",     "long",     "short",   "char",     "unsigned",  "signed", "size_t",
      "int32_t", "uint32_t", "int64_t", "uint64_t", "ptrdiff_t", "const",  "static_cast"};
  return !TypeWords.count(Word);
}

// Whether Text names a variable other than Var (casts and numbers aside).
bool namesOtherThan(llvm::StringRef Text, llvm::StringRef Var) {
  for (size_t I = 0; I < Text.size();) {
    if (!llvm::isAlpha(Text[I]) && Text[I] != '_') {
      size_t End = I + 1; // A number's digits and suffix (1u, 0x10) go with it.
      if (llvm::isDigit(Text[I]))
        while (End < Text.size() && (llvm::isAlnum(Text[End]) || Text[End] == '_'))
          ++End;
      I = End;
      continue;
    }
    size_t End = I;
    while (End < Text.size() && (llvm::isAlnum(Text[End]) || Text[End] == '_'))
      ++End;
    llvm::StringRef Word = Text.slice(I, End);
    if (Word != Var && isVariableWord(Word))
      return true;
    I = End;
  }
  return false;
}

// The top-level additive terms of an index ("row * n + k" -> "row * n", "k").
std::vector<llvm::StringRef> additiveTerms(llvm::StringRef Index) {
  std::vector<llvm::StringRef> Terms;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Index.size(); ++I) {
    char C = Index[I];
    Depth += (C == '(' || C == '[') - (C == ')' || C == ']');
    if (Depth == 0 && (C == '+' || C == '-') && I > Start) {
      Terms.push_back(Index.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  Terms.push_back(Index.substr(Start).trim());
  return Terms;
}

// A matrix operand's index: a row or column stride and another index beside
// k (A[row * K + k], A[k * N + col], A[(size_t)k * n + j]). x[k], x[k + 1],
// x[k * stride] and x[k + offset] are vectors.
bool matrixIndex(llvm::StringRef Index, llvm::StringRef Var) {
  if (!Index.contains('*'))
    return false;
  std::vector<llvm::StringRef> Terms = additiveTerms(Index);
  return Terms.size() >= 2 && llvm::any_of(Terms, [&](llvm::StringRef T) {
           return !mentions(T, Var) && namesOtherThan(T, Var);
         });
}

// What a loop over k reads with indices that use k: the arrays, the matrix
// operands (distinct reads with a stride and another index) and the vector
// ones (k alone); whether k is scaled in one (a row or column stride), and
// whether the loop writes along k (an elementwise pass over a row, not a
// product).
struct ProductOperands {
  std::set<std::string> Params;
  unsigned Matrices = 0, Vectors = 0;
  bool Scaled = false, WritesAlongK = false;
  // Matrix operands read in different patterns across a warp: rows chosen by
  // different thread indices (A[i * K + k] and B[j * K + k], i from y and j
  // from x), not two views of one row.
  bool RowsFromDifferentThreads = false;
};

ProductOperands operandsOf(const KernelFeatures &F, size_t L) {
  ProductOperands Out;
  const std::string &K = F.Loops[L].InductionVar;
  if (K.empty() || stepsByGrid(F, F.Loops[L])) // A grid-stride loop walks threads, not k.
    return Out;
  std::set<std::pair<std::string, std::string>> Matrices;
  std::set<AccessPattern> MatrixPatterns;
  std::set<std::string> Vectors;
  for (const MemoryAccess &A : F.Accesses) {
    if (A.Loop != int(L) || !mentions(A.Index, K))
      continue;
    Out.WritesAlongK |= A.Write;
    if (!A.Read)
      continue;
    Out.Params.insert(A.Param);
    Out.Scaled |= scaled(A.Index, K);
    if (matrixIndex(A.Index, K)) {
      Matrices.insert({A.Param, A.Index});
      MatrixPatterns.insert(A.Pattern);
    } else
      Vectors.insert(A.Param);
  }
  Out.Matrices = static_cast<unsigned>(Matrices.size());
  Out.Vectors = static_cast<unsigned>(Vectors.size());
  Out.RowsFromDifferentThreads = MatrixPatterns.size() >= 2;
  return Out;
}

// A loop over k reads two arrays whose indices use k, k scaled in one of them,
// and no vector: A[row * K + k] * B[k * N + col]. Or it reads two rows along
// k that different threads choose, a product with a transposed operand or a
// rank-k update: A[i * K + k] * B[j * K + k], A[i][k] * A[j][k] (k unscaled:
// with k scaled in both, A[k * n + j1] * A[k * n + j2], j2 is often a loop's,
// as in a covariance kernel with one thread a column). A dot product
// x[k] * y[k] is not matmul-like, nor one row times another that the same
// thread index chooses, nor a matrix-vector product, in either orientation
// (A[row * n + k] * x[k], A[k * n + col] * x[k]).
bool matmulLike(const KernelFeatures &F) {
  for (size_t L = 0; L < F.Loops.size(); ++L) {
    ProductOperands O = operandsOf(F, L);
    if (O.Vectors > 0)
      continue;
    if ((O.Params.size() >= 2 && O.Scaled) ||
        (O.Matrices >= 2 && !O.Scaled && O.RowsFromDifferentThreads && !O.WritesAlongK))
      return true;
  }
  return false;
}

// A loop over k reads a matrix and a vector with k and writes nothing along
// k: y = A x or y = A^T x, whichever index the grid walks (gesummv's two
// matrices times one vector too).
bool matvecLike(const KernelFeatures &F) {
  for (size_t L = 0; L < F.Loops.size(); ++L)
    if (ProductOperands O = operandsOf(F, L); O.Matrices >= 1 && O.Vectors >= 1 && !O.WritesAlongK)
      return true;
  return false;
}

// "c - width" -> base "c"; an index that is a base plus or minus a term.
std::string indexBase(llvm::StringRef Index) {
  Index = Index.trim();
  size_t Pos = Index.find_first_of("+-");
  return Index.substr(0, Pos).trim().str();
}

unsigned stencilPoints(const KernelFeatures &F) {
  unsigned Points = 0;
  for (const frontend::Neighbourhood &N : F.Neighbourhoods)
    Points = std::max(Points, N.Offsets);
  return Points;
}

// The front end's neighbourhoods see every spelling of an offset (flattened,
// 2-D subscripts, loops, clamps); the text rule below is kept for summaries
// without them.
bool stencilLike(const KernelFeatures &F) {
  if (stencilPoints(F) >= (F.Dimensions >= 2 ? 2u : 3u))
    return true;
  std::map<std::pair<std::string, std::string>, std::set<std::string>> Offsets;
  for (const MemoryAccess &A : F.Accesses)
    if (A.Read && !A.Write && A.Pattern != AccessPattern::Indirect)
      Offsets[{A.Param, indexBase(A.Index)}].insert(A.Index);
  for (const auto &[Key, Indices] : Offsets)
    if (!Key.second.empty() && Indices.size() >= 3)
      return true;
  return false;
}

unsigned count(const KernelFeatures &F, AccessPattern P) {
  return std::count_if(F.Accesses.begin(), F.Accesses.end(),
                       [&](const MemoryAccess &A) { return A.Pattern == P; });
}

bool transposeLike(const KernelFeatures &F) {
  if (F.Dimensions < 2 || F.Loops.size() > 0 || F.Accesses.size() > 4)
    return false;
  bool ReadC = false, ReadS = false, WriteC = false, WriteS = false;
  for (const MemoryAccess &A : F.Accesses) {
    bool C = A.Pattern == AccessPattern::Coalesced;
    bool S = A.Pattern == AccessPattern::Strided || A.Pattern == AccessPattern::Other;
    ReadC |= A.Read && C;
    ReadS |= A.Read && S;
    WriteC |= A.Write && C;
    WriteS |= A.Write && S;
  }
  return (ReadC && WriteS) || (ReadS && WriteC);
}

unsigned broadcastWrites(const KernelFeatures &F) {
  return std::count_if(F.Accesses.begin(), F.Accesses.end(), [](const MemoryAccess &A) {
    return A.Write && A.Pattern == AccessPattern::Broadcast;
  });
}

bool reductionLike(const KernelFeatures &F) {
  bool Folds = std::any_of(F.Loops.begin(), F.Loops.end(), isTreeLoop) ||
               !F.WarpIntrinsics.empty() || !F.Atomics.empty();
  return Folds && (broadcastWrites(F) > 0 || !F.Atomics.empty());
}

bool scanLike(const KernelFeatures &F) {
  return std::any_of(F.Loops.begin(), F.Loops.end(), isTreeLoop) &&
         (!F.SharedVariables.empty() || !F.WarpIntrinsics.empty()) && broadcastWrites(F) == 0 &&
         F.Atomics.empty() &&
         std::any_of(F.Accesses.begin(), F.Accesses.end(), [](const MemoryAccess &A) {
           return A.Write && A.Pattern == AccessPattern::Coalesced;
         });
}

// A map: each thread writes its own elements, no cooperation between threads.
bool elementwise(const KernelFeatures &F) {
  if (!F.Atomics.empty() || !F.Barriers.empty() || !F.WarpIntrinsics.empty())
    return false;
  if (!std::all_of(F.Loops.begin(), F.Loops.end(),
                   [&](const LoopFeature &L) { return stepsByGrid(F, L); }))
    return false;
  bool Writes = false;
  for (const MemoryAccess &A : F.Accesses)
    if (A.Write) {
      if (A.Pattern != AccessPattern::Coalesced)
        return false;
      Writes = true;
    }
  return Writes;
}

bool isPreciseMath(llvm::StringRef Name) {
  static const std::set<std::string, std::less<>> Names = {
      "expf", "exp2f",   "exp10f", "logf", "log2f", "log10f", "powf", "sinf", "cosf",
      "tanf", "sincosf", "exp",    "log",  "pow",   "sin",    "cos",  "tanh", "tanhf"};
  return Names.count(Name) > 0;
}
} // namespace

llvm::ArrayRef<FactInfo> knownFacts() { return Table; }

const FactInfo *findFact(llvm::StringRef Name) {
  for (const FactInfo &F : Table)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

std::optional<double> Facts::get(llvm::StringRef Name) const {
  auto It = Values.find(Name);
  if (It == Values.end())
    return std::nullopt;
  return It->second;
}

llvm::ArrayRef<llvm::StringRef> kernelKinds() { return Kinds; }

std::string kernelKind(const KernelFeatures &F) {
  if (matmulLike(F))
    return "matmul";
  if (matvecLike(F))
    return "matvec";
  if (reductionLike(F))
    return "reduction";
  if (scanLike(F))
    return "scan";
  if (stencilLike(F))
    return "stencil";
  if (transposeLike(F))
    return "transpose";
  if (elementwise(F))
    return "elementwise";
  return "other";
}

Facts factsFor(const KernelFeatures &F, const ProfileMetrics &Metrics) {
  Facts Out;
  Out.set("dimensions", F.Dimensions);
  Out.set("loops", F.Loops.size());
  unsigned Depth = 0, Canonical = 0, Unrolled = 0, LiteralBound = 0;
  for (const LoopFeature &L : F.Loops) {
    Depth = std::max(Depth, L.Depth + 1);
    Canonical += L.Canonical;
    Unrolled += L.Unroll;
    unsigned long long Ignored;
    LiteralBound += !L.Bound.empty() && !llvm::getAsUnsignedInteger(L.Bound, 0, Ignored);
  }
  Out.set("loop_depth", Depth);
  Out.set("canonical_loops", Canonical);
  Out.set("unrolled_loops", Unrolled);
  Out.set("literal_bound_loops", LiteralBound);

  unsigned Reads = 0, Writes = 0, InLoops = 0, UncoalescedInLoops = 0;
  std::set<std::string> ReadParams, WrittenParams;
  for (const MemoryAccess &A : F.Accesses) {
    Reads += A.Read;
    Writes += A.Write;
    if (A.Read)
      ReadParams.insert(A.Param);
    if (A.Write)
      WrittenParams.insert(A.Param);
    if (A.Loop >= 0) {
      ++InLoops;
      UncoalescedInLoops +=
          A.Pattern == AccessPattern::Strided || A.Pattern == AccessPattern::Other;
    }
  }
  unsigned ReadOnly = std::count_if(ReadParams.begin(), ReadParams.end(),
                                    [&](auto &P) { return !WrittenParams.count(P); });
  Out.set("accesses", F.Accesses.size());
  Out.set("reads", Reads);
  Out.set("writes", Writes);
  Out.set("coalesced_accesses", count(F, AccessPattern::Coalesced));
  Out.set("strided_accesses", count(F, AccessPattern::Strided));
  Out.set("broadcast_accesses", count(F, AccessPattern::Broadcast));
  Out.set("indirect_accesses", count(F, AccessPattern::Indirect));
  Out.set("other_accesses", count(F, AccessPattern::Other));
  Out.set("accesses_in_loops", InLoops);
  Out.set("uncoalesced_in_loops", UncoalescedInLoops);
  Out.set("broadcast_writes", broadcastWrites(F));
  Out.set("repeated_accesses", F.RepeatedAccesses.size());
  Out.set("repeated_writes", std::count_if(F.RepeatedAccesses.begin(), F.RepeatedAccesses.end(),
                                           [](auto &R) { return R.Write; }));
  Out.set("read_params", ReadParams.size());
  Out.set("read_only_params", ReadOnly);
  Out.set("written_params", WrittenParams.size());
  Out.set("guards", F.Guards.size());
  Out.set("atomics", F.Atomics.size());
  Out.set("barriers", F.Barriers.size());
  Out.set("warp_intrinsics", F.WarpIntrinsics.size());
  Out.set("shared_variables", F.SharedVariables.size());
  uint64_t SharedBytes = 0;
  bool Dynamic = false;
  for (const frontend::SharedVariable &S : F.SharedVariables) {
    SharedBytes += S.Bytes.value_or(0);
    Dynamic |= S.Dynamic;
  }
  Out.set("shared_bytes", SharedBytes);
  Out.set("math_calls", F.MathCalls.size());
  unsigned Precise = 0, Fast = 0;
  for (const frontend::CallFeature &C : F.MathCalls) {
    Precise += isPreciseMath(C.Name);
    Fast += llvm::StringRef(C.Name).starts_with("__");
  }
  Out.set("precise_math_calls", Precise);
  Out.set("fast_math_calls", Fast);
  Out.set("integer_powers", F.IntegerPowers);
  Out.set("other_powers", F.OtherPowers);
  Out.set("carried_stores", F.CarriedStores);
  Out.set("flag_stores", F.FlagStores);
  Out.set("data_indexed_arrays",
          std::count_if(F.LocalArrays.begin(), F.LocalArrays.end(),
                        [](const frontend::LocalArray &A) { return A.DataIndexed; }));

  Out.set("thread_stride_loops",
          std::count_if(F.Loops.begin(), F.Loops.end(), [&](const frontend::LoopFeature &L) {
            return frontend::stepsByThreads(F, L);
          }));

  Out.setBool("has_loops", !F.Loops.empty());
  Out.setBool("has_bounds_guard", !F.Guards.empty());
  Out.setBool("grid_stride_loop",
              std::any_of(F.Loops.begin(), F.Loops.end(),
                          [&](const LoopFeature &L) { return stepsByGrid(F, L); }));
  Out.setBool("tree_loop", std::any_of(F.Loops.begin(), F.Loops.end(), isTreeLoop));
  Out.setBool("uses_shared", !F.SharedVariables.empty());
  Out.setBool("uses_dynamic_shared", Dynamic);
  Out.setBool("uses_atomics", !F.Atomics.empty());
  Out.setBool("uses_barriers", !F.Barriers.empty());
  Out.setBool("atomic_trees", frontend::mayHoldAtomicTrees(F));
  Out.setBool("uses_warp_intrinsics", !F.WarpIntrinsics.empty());
  Out.setBool("dims_2d", F.Dimensions >= 2);
  Out.setBool("dims_3d", F.Dimensions >= 3);
  Out.setBool("matmul_like", matmulLike(F));
  Out.setBool("reduction_like", reductionLike(F));
  Out.setBool("scan_like", scanLike(F));
  Out.setBool("stencil_like", stencilLike(F));
  Out.set("stencil_points", stencilPoints(F));
  Out.setBool("transpose_like", transposeLike(F));
  std::string Kind = kernelKind(F);
  for (llvm::StringRef K : Kinds)
    Out.setBool("kind_" + K.str(), K == Kind);

  for (const auto &[Name, Value] : Metrics)
    if (const FactInfo *Info = findFact(Name); Info && Info->Metric)
      Out.set(Name, Value);
  // The parallelism a launch offers, for skills that add threads.
  auto Block = Metrics.find("block_size"), Grid = Metrics.find("grid_size");
  if (Block != Metrics.end() && Grid != Metrics.end())
    Out.set("threads_launched", Block->second * Grid->second);
  return Out;
}

} // namespace kopt::memory
