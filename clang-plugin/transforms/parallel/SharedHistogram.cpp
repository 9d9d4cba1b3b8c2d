// shared-histogram: threads adding into data-dependent global bins with
// atomicAdd (a histogram, a count by class) serialize on the few bins the data
// crowds into. Each block keeps its own bins in shared memory, zeroed at the
// start; the threads' atomics go there (on-chip), and after a barrier the
// block adds each bin it touched to the global one:
//   atomicAdd(&hist[img[i]], 1u);   ->
//   (unsigned long long)(img[i]) < 256 ? atomicAdd(&kopt_bins[img[i]], (unsigned)(1u))
//                                      : atomicAdd(&hist[img[i]], (unsigned)(1u))
// An index outside the shared bins (the bin count is the pragma's buffer
// size, which the data may not keep to) still goes to the global bin, so the
// result is the original's for any index: the same adds in another order
// (integers exact, floats within rounding). Where another pointer may alias
// the bins (no noalias, no __restrict__), the block first checks, from the
// pragma's buffer sizes, that none overlaps them; where one does, every add
// goes to the global bins as in the original.
//
// The body runs inside a lambda, so its returns leave the lambda and every
// thread reaches the barriers around it. Refused where that is not the
// original's meaning or the bins cannot be private: the bin count is not a
// constant, or too large for shared memory; the bins are read, reassigned,
// may alias a pointer the pragma gives no size, or take an atomic other than
// atomicAdd or one whose result is used; an index with side effects; the kernel already uses shared
// memory, barriers or warp intrinsics.
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/BufferOverlap.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>

namespace kopt::transform {

namespace {

// Shared bytes the bins may take: a quarter of what a block has on every
// architecture kopt targets, so that occupancy holds.
constexpr int64_t MaxBinBytes = 12 * 1024;

// The bin an atomicAdd's address names: P[I] as &P[I] or P + I, P a pointer
// parameter.
struct BinAddress {
  const clang::ParmVarDecl *Bins = nullptr;
  const clang::Expr *Index = nullptr;
};

std::optional<BinAddress> binAddress(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  const clang::Expr *Base = nullptr, *Index = nullptr;
  if (const auto *Addr = llvm::dyn_cast<clang::UnaryOperator>(E);
      Addr && Addr->getOpcode() == clang::UO_AddrOf) {
    if (const auto *Sub =
            llvm::dyn_cast<clang::ArraySubscriptExpr>(Addr->getSubExpr()->IgnoreParens())) {
      Base = Sub->getBase();
      Index = Sub->getIdx();
    }
  } else if (const auto *Plus = llvm::dyn_cast<clang::BinaryOperator>(E);
             Plus && Plus->getOpcode() == clang::BO_Add) {
    Base = Plus->getLHS();
    Index = Plus->getRHS();
    if (!Base->IgnoreParenImpCasts()->getType()->isPointerType())
      std::swap(Base, Index);
  }
  if (!Base)
    return std::nullopt;
  const auto *P = llvm::dyn_cast_or_null<clang::ParmVarDecl>(namedVariable(Base));
  if (!P || !P->getType()->isPointerType())
    return std::nullopt;
  return BinAddress{P, Index};
}

struct Privatized {
  std::string Bins;
  int64_t Count = 0;
  unsigned Calls = 0;
};

llvm::Expected<Privatized> rewrite(UnitAST &U, bool NoAlias, const BufferSizes &Sizes) {
  const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(U.Kernel.getBody());
  if (!Body)
    return unsupported(U, U.Kernel.getLocation(), "the kernel's body is not a plain block");
  std::vector<std::pair<const clang::CallExpr *, BinAddress>> Adds;
  const clang::ParmVarDecl *Bins = nullptr;
  std::optional<llvm::Error> Refusal;
  auto Refuse = [&](clang::SourceLocation At, const llvm::Twine &Why) {
    if (!Refusal)
      Refusal = unsupported(U, At, Why);
  };
  forEachStmt(Body, [&](const clang::Stmt *S) {
    if (llvm::isa<clang::LambdaExpr>(S))
      Refuse(S->getBeginLoc(), "a lambda in the kernel");
    const auto *Call = llvm::dyn_cast<clang::CallExpr>(S);
    if (!Call)
      return;
    std::string Name = calleeName(*Call);
    if (Name != "atomicAdd") {
      if (llvm::StringRef(Name).starts_with("atomic"))
        Refuse(Call->getBeginLoc(), "an atomic other than atomicAdd");
      return;
    }
    std::optional<BinAddress> At =
        Call->getNumArgs() == 2 ? binAddress(Call->getArg(0)) : std::nullopt;
    if (!At || (Bins && At->Bins != Bins)) {
      Refuse(Call->getBeginLoc(), "atomicAdd on something other than the bins of one pointer "
                                  "parameter (&p[i] or p + i)");
      return;
    }
    if (hasEffects(At->Index, U.Ctx) || hasEffects(Call->getArg(1), U.Ctx)) {
      Refuse(Call->getBeginLoc(), "the atomicAdd's index or value has side effects");
      return;
    }
    if (const clang::Stmt *Parent = parentOf(Call, U.Ctx);
        Parent && llvm::isa<clang::Expr>(Parent)) {
      Refuse(Call->getBeginLoc(), "the atomicAdd's result is used");
      return;
    }
    Bins = At->Bins;
    Adds.push_back({Call, *At});
  });
  if (Refusal)
    return std::move(*Refusal);
  if (Adds.empty())
    return unsupported(U, U.Kernel.getLocation(), "the kernel has no atomicAdd into bins");
  bool DataDependent = false;
  for (const auto &[Call, At] : Adds)
    DataDependent |= !At.Index->getIntegerConstantExpr(U.Ctx);
  if (!DataDependent)
    return unsupported(U, Adds.front().first->getBeginLoc(),
                       "every atomicAdd has a constant index (atomic-aggregation sums one "
                       "address in registers)");
  auto Counted = Sizes.Constant.find(Bins->getName().str());
  if (Counted == Sizes.Constant.end())
    return unsupported(U, Bins->getLocation(),
                       "the size of '" + Bins->getName() +
                           "' in the pragma's buffers(...) is not a constant");
  const int64_t BinCount = Counted->second;
  if (countRefs(Body, Bins) != Adds.size())
    return unsupported(U, Bins->getLocation(),
                       "'" + Bins->getName() + "' is used other than as the atomicAdd target");
  if (changedVariables(Body).count(Bins))
    return unsupported(U, Bins->getLocation(), "'" + Bins->getName() + "' is reassigned");
  clang::QualType Element = Bins->getType()->getPointeeType().getUnqualifiedType();
  const clang::BuiltinType *Builtin = Element->getAs<clang::BuiltinType>();
  const bool Supported = Builtin && (Builtin->getKind() == clang::BuiltinType::Int ||
                                     Builtin->getKind() == clang::BuiltinType::UInt ||
                                     Builtin->getKind() == clang::BuiltinType::ULongLong ||
                                     Builtin->getKind() == clang::BuiltinType::Float ||
                                     Builtin->getKind() == clang::BuiltinType::Double);
  if (!Supported)
    return unsupported(U, Bins->getLocation(),
                       "the bins are not int, unsigned, unsigned long long, float or double");
  const int64_t Bytes = BinCount * int64_t(U.Ctx.getTypeSizeInChars(Element).getQuantity());
  if (Bytes > MaxBinBytes)
    return unsupported(U, Bins->getLocation(),
                       std::to_string(BinCount) + " bins take " + std::to_string(Bytes) +
                           " bytes of shared memory, more than " + std::to_string(MaxBinBytes));
  const std::string Type = typeText(Element, U);
  const std::string Name = Bins->getName().str(), Count = std::to_string(BinCount);
  std::vector<const clang::ParmVarDecl *> Others;
  for (const clang::ParmVarDecl *P : U.Kernel.parameters())
    if (P != Bins && P->getType()->isPointerType())
      Others.push_back(P);
  llvm::Expected<std::string> Apart =
      apartTest(U, *Bins, std::to_string(Bytes) + "ull", Others, Sizes, NoAlias);
  if (!Apart)
    return Apart.takeError();

  for (const auto &[Call, At] : Adds) {
    llvm::Expected<std::string> Index = exprText(U, *At.Index);
    llvm::Expected<std::string> Value = exprText(U, *Call->getArg(1));
    llvm::Expected<clang::CharSourceRange> Range = fileRange(U, Call->getSourceRange());
    if (!Index)
      return Index.takeError();
    if (!Value)
      return Value.takeError();
    if (!Range)
      return Range.takeError();
    U.Rewrite.ReplaceText(*Range, "(kopt_apart && (unsigned long long)(" + *Index + ") < " + Count +
                                      "ull ? atomicAdd(&kopt_bins[" + *Index + "], (" + Type +
                                      ")(" + *Value + ")) : atomicAdd(&" + Name + "[" + *Index +
                                      "], (" + Type + ")(" + *Value + ")))");
  }
  const std::string Thread = ThreadInBlockText, Threads = BlockThreadsText;
  // On the lines of the braces, so that the body's lines keep their numbers.
  U.Rewrite.InsertTextAfterToken(
      Body->getLBracLoc(), " const bool kopt_apart = " + *Apart + "; __shared__ " + Type +
                               " kopt_bins[" + Count + "]; for (unsigned kopt_b = " + Thread +
                               "; kopt_b < " + Count + "u; kopt_b += " + Threads +
                               ") kopt_bins[kopt_b] = (" + Type + ")0; __syncthreads(); [&] {");
  U.Rewrite.InsertTextBefore(
      Body->getRBracLoc(), "}(); // kopt shared-histogram: the block's bins into the global ones\n"
                           "__syncthreads();\n"
                           "for (unsigned kopt_b = " +
                               Thread + "; kopt_b < " + Count + "u; kopt_b += " + Threads +
                               ")\n"
                               "  if (kopt_bins[kopt_b] != (" +
                               Type + ")0)\n    atomicAdd(&" + Name +
                               "[kopt_b], kopt_bins[kopt_b]);\n");
  return Privatized{Name, BinCount, unsigned(Adds.size())};
}

class SharedHistogram : public Transform {
public:
  llvm::StringRef id() const override { return "shared-histogram"; }

  // Float bins are added in another order.
  Numerics numerics() const override { return Numerics::Reassociates; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = callsAtomicAdd(Kernel); !F)
      return F.offer();
    if (Fit F = independentThreads(Kernel); !F)
      return F.offer();
    if (bufferSizes(Kernel).Constant.empty())
      return Offer::no("no pointer the kernel adds into has a constant size in the pragma's "
                       "buffers(...) clause");
    return Offer::of({ParamSet{}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    bool NoAlias = In.Kernel.Pragma && In.Kernel.Pragma->NoAlias;
    BufferSizes Sizes = bufferSizes(In.Kernel);
    llvm::Expected<RewrittenWith<Privatized>> Made =
        rewriteUnitWith<Privatized>(In, [&](UnitAST &U) { return rewrite(U, NoAlias, Sizes); });
    if (!Made)
      return Made.takeError();
    return TransformOutput{std::move(Made->UnitText), std::nullopt,
                           std::to_string(Made->Found.Calls) + " atomicAdd into " +
                               Made->Found.Bins + " privatized in " +
                               std::to_string(Made->Found.Count) +
                               " shared bins a block, added to the global ones once"};
  }
};
} // namespace

std::unique_ptr<Transform> makeSharedHistogramTransform() {
  return std::make_unique<SharedHistogram>();
}

} // namespace kopt::transform
