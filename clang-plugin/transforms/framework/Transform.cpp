#include "clang-plugin/transforms/framework/Transform.h"

#include <llvm/ADT/STLExtras.h>

#include <cassert>

namespace kopt::transform {

namespace {
std::string valueList(const ParamDecl &D) {
  if (D.Values.empty())
    return "any integer from " + std::to_string(D.Min);
  std::string List;
  for (int64_t V : D.Values)
    List += (List.empty() ? "" : ", ") + std::to_string(V);
  return List;
}

std::string nameList(const std::vector<ParamDecl> &Decls) {
  std::string List;
  for (const ParamDecl &D : Decls)
    List += (List.empty() ? "" : ", ") + D.Name;
  return List;
}
} // namespace

Offer Offer::of(std::vector<ParamSet> Points) {
  assert(!Points.empty() && "an offer without points says why");
  Offer O;
  O.Points = std::move(Points);
  return O;
}

Offer Offer::no(std::string WhyNot) {
  assert(!WhyNot.empty() && "a refusal says why");
  Offer O;
  O.WhyNot = std::move(WhyNot);
  return O;
}

std::string approximateMathNotAllowed() {
  return "not allowed: it changes results beyond reordering (add `fastmath` to the pragma, "
         "or build with --kopt-fast-math or -use_fast_math)";
}

Offer Transform::offer(const frontend::KernelSummary &Kernel, const TransformPolicy &Policy) const {
  Offer O = offerPoints(Kernel);
  // Said only where the transform would fit: the user's choice is the reason.
  if (O.offered() && numerics() == Numerics::Approximates && !Policy.ApproximateMath)
    return Offer::no(approximateMathNotAllowed());
#ifndef NDEBUG
  // A transform's own points are points of its space; a mismatch is a bug here.
  for (const ParamSet &P : O.points())
    assert(!checkParams(P) && "a transform offers a point it does not take");
#endif
  return O;
}

llvm::Error Transform::checkParams(const ParamSet &Params) const {
  std::vector<ParamDecl> Decls = params();
  for (const auto &[Name, Value] : Params) {
    const ParamDecl *D = nullptr;
    for (const ParamDecl &Candidate : Decls)
      if (Candidate.Name == Name)
        D = &Candidate;
    if (!D)
      return llvm::createStringError("no parameter '%s'%s", Name.c_str(),
                                     Decls.empty() ? " (it takes none)"
                                                   : ("; it takes " + nameList(Decls)).c_str());
    bool Accepted = D->Values.empty() ? Value >= D->Min : llvm::is_contained(D->Values, Value);
    if (!Accepted)
      return llvm::createStringError("parameter '%s' is %lld; it takes %s", Name.c_str(),
                                     (long long)Value, valueList(*D).c_str());
  }
  for (const ParamDecl &D : Decls) {
    if (D.Group) {
      unsigned Given = 0;
      for (const ParamDecl &Other : Decls)
        Given += Other.Group == D.Group && Params.count(Other.Name);
      if (Given > 1)
        return llvm::createStringError("parameter '%s' and an alternative are both given; "
                                       "give one",
                                       D.Name.c_str());
      if (Given == 0 && !D.Optional)
        return llvm::createStringError("parameter '%s' (or an alternative) is missing",
                                       D.Name.c_str());
      continue;
    }
    if (!D.Optional && !Params.count(D.Name))
      return llvm::createStringError("parameter '%s' is missing; it takes %s", D.Name.c_str(),
                                     valueList(D).c_str());
  }
  return llvm::Error::success();
}

ParamSet Transform::completeParams(ParamSet Params) const {
  std::vector<ParamDecl> Decls = params();
  for (const ParamDecl &D : Decls) {
    if (D.Optional || Params.count(D.Name))
      continue;
    bool GroupGiven = false, FirstOfGroup = true;
    for (const ParamDecl &Other : Decls) {
      if (!D.Group || Other.Group != D.Group || Other.Name == D.Name)
        continue;
      GroupGiven |= Params.count(Other.Name) > 0;
      FirstOfGroup &= &Other > &D;
    }
    if (!GroupGiven && FirstOfGroup)
      Params[D.Name] = D.Values.empty() ? D.Min : D.Values.front();
  }
  return Params;
}

llvm::Expected<TransformOutput> Transform::apply(const TransformInput &In,
                                                 const ParamSet &Params) const {
  if (llvm::Error E = checkParams(Params))
    return E;
  return rewriteAt(In, Params);
}

} // namespace kopt::transform
