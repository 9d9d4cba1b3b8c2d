#include "memory/experience/FactVector.h"

#include <algorithm>
#include <cmath>

namespace kopt::memory {

namespace {
enum class Scale : uint8_t { Bool, Count, Percent, Parallelism, Intensity };

struct Dimension {
  llvm::StringRef Fact;
  Scale How;
  double Weight;
};

constexpr Dimension Dimensions[] = {
    {"kind_matmul", Scale::Bool, 1},
    {"kind_reduction", Scale::Bool, 1},
    {"kind_scan", Scale::Bool, 1},
    {"kind_stencil", Scale::Bool, 1},
    {"kind_transpose", Scale::Bool, 1},
    {"kind_elementwise", Scale::Bool, 1},
    {"kind_other", Scale::Bool, 1},
    {"matmul_like", Scale::Bool, 1},
    {"stencil_like", Scale::Bool, 1},
    {"reduction_like", Scale::Bool, 1},
    {"transpose_like", Scale::Bool, 1},
    {"scan_like", Scale::Bool, 1},
    {"has_loops", Scale::Bool, 0.5},
    {"uses_shared", Scale::Bool, 0.5},
    {"uses_atomics", Scale::Bool, 0.5},
    {"uses_barriers", Scale::Bool, 0.5},
    {"dims_2d", Scale::Bool, 0.5},
    {"dims_3d", Scale::Bool, 0.5},
    {"grid_stride_loop", Scale::Bool, 0.5},
    {"loop_depth", Scale::Count, 0.5},
    {"accesses_in_loops", Scale::Count, 0.5},
    {"uncoalesced_in_loops", Scale::Count, 0.5},
    {"repeated_accesses", Scale::Count, 0.5},
    {"repeated_writes", Scale::Count, 0.5},
    {"read_only_params", Scale::Count, 0.5},
    {"strided_accesses", Scale::Count, 0.5},
    {"precise_math_calls", Scale::Count, 0.5},
    {"dram_throughput_pct", Scale::Percent, 1},
    {"sm_throughput_pct", Scale::Percent, 1},
    {"achieved_occupancy_pct", Scale::Percent, 1},
    {"parallelism", Scale::Parallelism, 1},
    {"arithmetic_intensity", Scale::Intensity, 1},
};

constexpr double Width = 0.02;

double scaled(Scale How, double V) {
  switch (How) {
  case Scale::Bool:
    return V != 0 ? 1 : 0;
  case Scale::Count: // 0 -> 0, 15 and more -> 1.
    return std::min(1.0, std::log2(1 + std::max(V, 0.0)) / 4);
  case Scale::Percent:
    return std::clamp(V / 100, 0.0, 1.0);
  case Scale::Parallelism: // A hundredth of the GPU -> 0, ten times it -> 1.
    return std::clamp((std::log10(std::max(V, 1e-6)) + 2) / 3, 0.0, 1.0);
  case Scale::Intensity: // 0.1 flop a byte -> 0, 1000 -> 1.
    return std::clamp((std::log10(std::max(V, 1e-6)) + 1) / 4, 0.0, 1.0);
  }
  return 0;
}

const Dimension *dimension(llvm::StringRef Fact) {
  for (const Dimension &D : Dimensions)
    if (D.Fact == Fact)
      return &D;
  return nullptr;
}
} // namespace

FactVector factVector(const Facts &F) {
  FactVector V;
  for (const Dimension &D : Dimensions)
    if (std::optional<double> X = F.get(D.Fact))
      V[D.Fact.str()] = scaled(D.How, *X);
  return V;
}

double similarity(const FactVector &A, const FactVector &B) {
  double Sum = 0, Weights = 0;
  for (const auto &[Name, X] : A) {
    auto Other = B.find(Name);
    const Dimension *D = dimension(Name);
    if (Other == B.end() || !D)
      continue;
    Sum += D->Weight * (X - Other->second) * (X - Other->second);
    Weights += D->Weight;
  }
  return Weights > 0 ? std::exp(-Sum / Weights / Width) : 0;
}

} // namespace kopt::memory
