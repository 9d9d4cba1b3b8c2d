#include "clang-plugin/transforms/LaneGroup.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdint>

namespace kopt::transform {

namespace {
std::string str(uint64_t N) { return std::to_string(N); }

std::string combine(const Fold &How, const std::string &A, const std::string &B) {
  if (How.Op == Fold::Sum)
    return A + " + " + B;
  return How.Combine + "(" + A + ", " + B + ")";
}

// Warp shuffles over the offsets Hi, Hi / 2, ..., Lo under Mask, then the
// value in every lane of those steps' span.
std::string butterfly(const std::string &Mask, unsigned Hi, unsigned Lo, const Fold &How) {
  return "for (int kopt_o = " + str(Hi) + "; kopt_o " + (Lo == 1 ? "> 0" : ">= " + str(Lo)) +
         "; kopt_o >>= 1)\n  kopt_v = " +
         combine(How, "kopt_v", "__shfl_xor_sync(" + Mask + ", kopt_v, kopt_o)") + ";\n";
}
} // namespace

unsigned LaneGroup::groupsPerRow() const {
  unsigned Row = TwoD ? 32 : Threads;
  return Row / Lanes;
}

std::string LaneGroup::lane() const { return Shape == Kind::Block ? "threadIdx.x" : "kopt_lane"; }

std::string LaneGroup::stride(const std::string &T) const {
  switch (Shape) {
  case Kind::Warp:
    return str(Lanes);
  case Kind::Block:
    return "(" + T + ")blockDim.x";
  case Kind::Cluster:
    return "(" + T + ")(" + str(Lanes) + "u * blockDim.x)";
  }
  return "";
}

std::string LaneGroup::sync() const {
  switch (Shape) {
  case Kind::Warp:
    return "__syncwarp(kopt_mask);";
  case Kind::Block:
    return "__syncthreads();";
  case Kind::Cluster:
    return "__cluster_barrier_arrive();\n__cluster_barrier_wait();";
  }
  return "";
}

std::string LaneGroup::prologue() const {
  if (Shape == Kind::Block)
    return "";
  if (Shape == Kind::Cluster)
    return "\nconst unsigned kopt_rank = __clusterRelativeBlockRank();"
           "\nconst unsigned kopt_lane = kopt_rank * blockDim.x + threadIdx.x;";
  unsigned R = Lanes, Apart = 32 / R;
  if (!Interleaved || R == 32) {
    uint64_t Mask = R == 32 ? 0xffffffffu : (uint64_t(1) << R) - 1;
    return "\nconst unsigned kopt_lane = threadIdx.x % " + str(R) +
           "u;\nconst unsigned kopt_group = threadIdx.x / " + str(R) +
           "u;\nconst unsigned kopt_mask = " + str(Mask) + "u << (threadIdx.x & " +
           str(31u & ~(R - 1)) + "u);";
  }
  uint64_t Pattern = 0;
  for (unsigned L = 0; L < R; ++L)
    Pattern |= uint64_t(1) << (L * Apart);
  return "\nconst unsigned kopt_lane = (threadIdx.x & 31u) / " + str(Apart) +
         "u;\nconst unsigned kopt_group = (threadIdx.x >> 5) * " + str(Apart) +
         "u + (threadIdx.x & 31u) % " + str(Apart) +
         "u;\nconst unsigned kopt_mask = " + str(Pattern) + "u << ((threadIdx.x & 31u) % " +
         str(Apart) + "u);";
}

std::string LaneGroup::position(char Dim) const {
  switch (Shape) {
  case Kind::Warp:
    return Dim == 'x' ? "(blockIdx.x * " + str(groupsPerRow()) + "u + kopt_group)" : "";
  case Kind::Block:
    return Dim == 'x' ? "blockIdx.x" : "blockIdx.y";
  case Kind::Cluster:
    return Dim == 'x' ? "(blockIdx.x / " + str(Lanes) + "u)" : "blockIdx.y";
  }
  return "";
}

std::string LaneGroup::beforeFold(const std::string &Var, const Fold &How) const {
  if (How.Op != Fold::Sum)
    return "";
  return "if (" + lane() + " != 0)\n  " + Var + " = 0;\n";
}

std::string LaneGroup::reduce(const std::string &T, const std::string &Var, const Fold &How,
                              unsigned Site) const {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "{\n";
  if (Shape == Kind::Warp) {
    unsigned Hi = Interleaved ? 16 : Lanes / 2, Lo = Interleaved ? 32 / Lanes : 1;
    OS << T << " kopt_v = " << Var << ";\n"
       << butterfly("kopt_mask", Hi, Lo, How) << Var << " = kopt_v;\n}";
    return Out;
  }
  // A block reduction: each warp's value, one a warp in shared memory, then
  // every thread combines those.
  std::string Red = "kopt_red" + str(Site);
  std::string Row = Red + (Shape == Kind::Cluster ? "[kopt_rank]" : "");
  OS << "__shared__ " << T << " " << Red;
  if (Shape == Kind::Cluster)
    OS << "[" << Lanes << "]";
  OS << "[32];\n"
     << T << " kopt_v = " << Var << ";\n"
     << butterfly("0xffffffffu", 16, 1, How) << "if ((threadIdx.x & 31u) == 0u)\n  " << Row
     << "[threadIdx.x >> 5] = kopt_v;\n__syncthreads();\nkopt_v = " << Row
     << "[0];\nfor (unsigned kopt_w = 1; kopt_w < (blockDim.x + 31u) >> 5; ++kopt_w)\n  kopt_v = "
     << combine(How, "kopt_v", Row + "[kopt_w]") << ";\n";
  if (Shape == Kind::Block) {
    OS << "__syncthreads();\n" << Var << " = kopt_v;\n}";
    return Out;
  }
  // Then the blocks of the cluster: each block's total at its rank, read by
  // every thread from every block in rank order.
  std::string Xred = "kopt_xred" + str(Site);
  auto Remote = [&](const std::string &Rank) {
    return "*(" + T + " *)__cluster_map_shared_rank(&" + Xred + "[" + Rank + "], " + Rank + ")";
  };
  OS << "__shared__ " << T << " " << Xred << "[" << Lanes << "];\nif (threadIdx.x == 0)\n  " << Xred
     << "[kopt_rank] = kopt_v;\n"
     << sync() << "\nkopt_v = " << Remote("0") << ";\nfor (unsigned kopt_r = 1; kopt_r < " << Lanes
     << "u; ++kopt_r)\n  kopt_v = " << combine(How, "kopt_v", Remote("kopt_r")) << ";\n"
     << sync() << "\n"
     << Var << " = kopt_v;\n}";
  return Out;
}

std::string LaneGroup::afterReductions() const {
  return Shape == Kind::Warp ? "\n__syncwarp(kopt_mask);" : "";
}

std::string LaneGroup::kernelAttributes() const {
  return Shape == Kind::Cluster ? "__cluster_dims__(" + str(Lanes) + ", 1, 1) " : "";
}

frontend::LaunchMapping LaneGroup::launch() const {
  frontend::LaunchMapping M;
  const std::string X = "grid_x * block_x";
  switch (Shape) {
  case Kind::Warp: {
    unsigned Per = groupsPerRow();
    M.Grid[0] = Per == 1 ? X : "(" + X + " + " + str(Per - 1) + ") / " + str(Per);
    if (TwoD) {
      unsigned Rows = Threads / 32;
      M.Block = {"32", str(Rows), "1"};
      M.Grid[1] = Rows == 1 ? "grid_y * block_y"
                            : "(grid_y * block_y + " + str(Rows - 1) + ") / " + str(Rows);
    } else {
      M.Block[0] = str(Threads);
    }
    return M;
  }
  case Kind::Block:
    M.Grid[0] = X;
    M.Block[0] = str(Threads);
    if (TwoD) {
      M.Grid[1] = "grid_y * block_y";
      M.Block[1] = "1";
    }
    return M;
  case Kind::Cluster:
    M.Grid[0] = X + " * " + str(Lanes);
    M.Block[0] = str(Threads);
    if (TwoD) {
      M.Grid[1] = "grid_y * block_y";
      M.Block[1] = "1";
    }
    return M;
  }
  return M;
}

std::string LaneGroup::describe() const {
  switch (Shape) {
  case Kind::Warp:
    return str(Lanes) + " lanes of a warp a thread" + (Interleaved ? " (interleaved)" : "");
  case Kind::Block:
    return "one block of " + str(Threads) + " threads a thread";
  case Kind::Cluster:
    return "a cluster of " + str(Lanes) + " blocks of " + str(Threads) + " threads a thread";
  }
  return "";
}

} // namespace kopt::transform
