#include "clang-plugin/analysis/CollectiveCalls.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>

namespace kopt::frontend {

namespace {

std::optional<CollectiveCall> cooperativeGroupsCall(const clang::CallExpr &Call) {
  const clang::FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getDeclName().isIdentifier() ||
      llvm::StringRef(FD->getQualifiedNameAsString()).find("cooperative_groups") ==
          llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Function = FD->getName();
  // wait/wait_prior: memcpy_async's completion, then the group's barrier.
  bool IsBarrier = Function == "sync" || Function == "barrier_wait" || Function == "wait" ||
                   Function == "wait_prior";
  bool IsWarpIntrinsic = Function.starts_with("shfl") || Function == "ballot" ||
                         Function == "any" || Function == "all" || Function.starts_with("match_") ||
                         Function == "reduce" || Function.starts_with("inclusive_scan") ||
                         Function.starts_with("exclusive_scan");
  if (!IsBarrier && !IsWarpIntrinsic)
    return std::nullopt;
  // The group's type as the kernel holds it (thread_block_tile), not the base
  // class that declares the method; methods may be static (thread_block::sync).
  std::string Group;
  if (const auto *Member =
          llvm::dyn_cast<clang::MemberExpr>(Call.getCallee()->IgnoreParenImpCasts())) {
    clang::QualType T = Member->getBase()->IgnoreParenImpCasts()->getType();
    if (T->isPointerType())
      T = T->getPointeeType();
    if (const clang::CXXRecordDecl *Record = T->getAsCXXRecordDecl();
        Record && Record->getIdentifier())
      Group = Record->getName().str();
  }
  return CollectiveCall{
      (llvm::Twine("cooperative_groups::") + Group + (Group.empty() ? "" : "::") + Function).str(),
      IsBarrier};
}

// Whether D is declared in namespace cub (through cub's versioned inline namespace).
bool inCub(const clang::Decl &D) {
  const clang::NamespaceDecl *Outermost = nullptr;
  for (const clang::DeclContext *DC = D.getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(DC))
      Outermost = NS;
  return Outermost && Outermost->getName() == "cub";
}

// The class (template) that a member call's object has, and the method's name:
// resolved (BlockReduce<float, 256>) or left dependent by a kernel template.
std::optional<std::pair<const clang::NamedDecl *, std::string>>
memberCallTarget(const clang::CallExpr &Call) {
  if (const auto *MemberCall = llvm::dyn_cast<clang::CXXMemberCallExpr>(&Call)) {
    const clang::CXXMethodDecl *Method = MemberCall->getMethodDecl();
    if (!Method || !Method->getDeclName().isIdentifier())
      return std::nullopt;
    const clang::NamedDecl *Class = Method->getParent();
    if (const auto *Spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(Class))
      Class = Spec->getSpecializedTemplate();
    return std::make_pair(Class, Method->getName().str());
  }
  const auto *Dependent =
      llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(Call.getCallee()->IgnoreParenImpCasts());
  if (!Dependent || Dependent->getBaseType().isNull())
    return std::nullopt;
  clang::QualType T = Dependent->getBaseType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const clang::NamedDecl *Class = nullptr;
  if (const auto *Spec = T->getAs<clang::TemplateSpecializationType>())
    Class = Spec->getTemplateName().getAsTemplateDecl();
  else
    Class = T->getAsCXXRecordDecl();
  if (!Class)
    return std::nullopt;
  return std::make_pair(Class, Dependent->getMember().getAsString());
}

// BlockReduce(temp).Sum(v): cub's block-wide collectives share data through
// shared memory between barriers; its warp-wide ones shuffle.
std::optional<CollectiveCall> cubCall(const clang::CallExpr &Call) {
  auto Target = memberCallTarget(Call);
  if (!Target || !Target->first->getIdentifier() || !inCub(*Target->first))
    return std::nullopt;
  llvm::StringRef Class = Target->first->getName();
  if (!Class.starts_with("Block") && !Class.starts_with("Warp"))
    return std::nullopt;
  return CollectiveCall{"cub::" + Class.str() + "::" + Target->second, Class.starts_with("Block")};
}

} // namespace

std::optional<CollectiveCall> collectiveCall(const clang::CallExpr &Call) {
  if (std::optional<CollectiveCall> Group = cooperativeGroupsCall(Call))
    return Group;
  return cubCall(Call);
}

} // namespace kopt::frontend
