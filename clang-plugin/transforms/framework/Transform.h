// Mechanical transforms: one class each, behind this interface, listed in one
// registry. A transform rewrites a kernel unit's source (the kernel and the
// device code it needs, see KernelUnit.h) into a variant with one change, for
// one point of its parameter space; the evaluator then decides whether the
// variant is correct and faster. Transforms compose: the input may already be
// a variant. The implementations use clang; this header does not.
#pragma once

#include "clang-plugin/parse/KernelFinder.h"
#include "clang-plugin/units/KernelVariant.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kopt::transform {

// One point of a transform's parameter space: {"factor": 4}. Empty for a
// transform without parameters.
using ParamSet = std::map<std::string, int64_t>;

struct TransformInput {
  // The kernel as the front end sees UnitText (findKernelsInCode on it): its
  // name, parameters, pragma and static features are current.
  const frontend::KernelSummary &Kernel;
  std::string UnitText;               // The unit to transform, self-contained.
  std::vector<std::string> ClangArgs; // To parse UnitText (findKernelsInCode's).
};

struct TransformOutput {
  std::string UnitText; // The whole unit, with the change.
  // Set when the variant needs another launch: a mapping from UnitText's
  // launch (the input's) to the new one. The caller composes mappings.
  std::optional<frontend::LaunchMapping> Launch;
  std::string Summary; // One line: "unrolled the loop at line 12 by 4".
};

class Transform {
public:
  virtual ~Transform() = default;
  // The id of the skill it implements (skills/<id>.yaml): "unroll".
  virtual llvm::StringRef id() const = 0;
  // The parameter points worth trying on this kernel, most promising first;
  // empty where the transform does not apply (an unroll without loops).
  virtual std::vector<ParamSet> parameterSpace(const frontend::KernelSummary &Kernel) const = 0;
  // The variant for one point; an error (never a crash) where the kernel's
  // code does not have the shape the transform needs.
  virtual llvm::Expected<TransformOutput> apply(const TransformInput &In,
                                                const ParamSet &Params) const = 0;
};

// All transforms, in a fixed order.
llvm::ArrayRef<std::unique_ptr<Transform>> allTransforms();
const Transform *findTransform(llvm::StringRef Id);

} // namespace kopt::transform
