// Mechanical transforms: one class each, behind this interface, listed in one
// registry. A transform rewrites a kernel unit's source (the kernel and the
// device code it needs, see model/KernelUnit.h) into a variant with one change,
// for one point of its parameter space; the evaluator then decides whether the
// variant is correct and faster. Transforms compose: the input may already be
// a variant. The implementations use clang; this header does not.
//
// Like a clang-tidy check, a transform declares once what it takes and when it
// applies:
//   params()       the parameters it takes, with the values each accepts;
//   numerics()     whether its rewrite can change results beyond reordering;
//   offerPoints()  for a kernel as the front end sees it, the points worth
//                  trying or why none (decided from the summary, no parse);
//   rewriteAt()    the variant for one checked point (a parse of the unit),
//                  or why the code does not have the shape it needs.
// Callers use offer() and apply(), which add what every transform shares: the
// user's numerics policy and the check of a point against params().
#pragma once

#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/model/KernelVariant.h"

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

// A parameter a transform takes.
struct ParamDecl {
  std::string Name;
  std::vector<int64_t> Values; // The values it accepts; empty: any integer >= Min.
  int64_t Min = 0;             // Where Values is empty.
  bool Optional = false;       // May be left out (a third block dimension of a 2-D kernel).
  // Parameters of one group name alternatives: exactly one of them is given
  // (thread-coarsening-2d's rows or planes). 0: no group.
  unsigned Group = 0;
};

// How a transform's variants compare with the original's results.
enum class Numerics {
  Exact,        // The same operations on the same values: bit for bit.
  Reassociates, // Sums and folds in another order: within the pragma's tol.
  Approximates, // Correctly rounded operations become approximations
                // (intrinsics, __fdividef, rsqrtf): only where the user allows it.
};

// What the user allows beyond exact and reassociated results.
struct TransformPolicy {
  bool ApproximateMath = false; // `fastmath` in the pragma, --kopt-fast-math or -use_fast_math.
};

// A transform's answer for one kernel: the points worth trying, most promising
// first, or why it offers none, in the transform's words ("no loop with a
// constant trip count"). --list, --try, kcc's notes and the planner all read it.
class Offer {
public:
  // Points must not be empty: a transform that offers nothing says why.
  static Offer of(std::vector<ParamSet> Points);
  static Offer no(std::string WhyNot);

  bool offered() const { return !Points.empty(); }
  const std::vector<ParamSet> &points() const { return Points; }
  const std::string &whyNot() const { return WhyNot; }

private:
  std::vector<ParamSet> Points;
  std::string WhyNot;
};

// Whether a kernel has a shape that transforms need, and if not, why: what
// the shared applicability tests (a 1-D guarded kernel, the matmul idiom, ...)
// return, so that an offer can pass the reason on.
class Fit {
public:
  static Fit yes() { return Fit(); }
  static Fit no(std::string WhyNot) { return Fit(std::move(WhyNot)); }
  explicit operator bool() const { return WhyNot.empty(); }
  const std::string &whyNot() const { return WhyNot; }
  Offer offer() const { return Offer::no(WhyNot); } // Where the kernel does not fit.

private:
  Fit() = default;
  explicit Fit(std::string Why) : WhyNot(std::move(Why)) {}
  std::string WhyNot;
};

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
  virtual std::vector<ParamDecl> params() const { return {}; }
  virtual Numerics numerics() const { return Numerics::Exact; }

  // The points worth trying on Kernel under Policy, or why none.
  Offer offer(const frontend::KernelSummary &Kernel, const TransformPolicy &Policy) const;
  // Params checked against params(), then the variant for that point; an
  // error (never a crash) where the point or the kernel's code does not fit.
  llvm::Expected<TransformOutput> apply(const TransformInput &In, const ParamSet &Params) const;
  // Fails, saying why, where Params is not a point of params(): an unknown
  // name, a missing parameter, a value it does not accept (the caller names
  // the transform).
  llvm::Error checkParams(const ParamSet &Params) const;
  // Params with each missing parameter given its first accepted value (the
  // first alternative of a group), for a caller that names only some.
  ParamSet completeParams(ParamSet Params) const;

protected:
  virtual Offer offerPoints(const frontend::KernelSummary &Kernel) const = 0;
  virtual llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                                    const ParamSet &Params) const = 0;
};

// All transforms, in a fixed order.
llvm::ArrayRef<std::unique_ptr<Transform>> allTransforms();
const Transform *findTransform(llvm::StringRef Id);

// The words for a transform the policy rules out, as --list and kcc's notes
// print them.
std::string approximateMathNotAllowed();

} // namespace kopt::transform
