#include "clang-plugin/KernelFinder.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/GlobalDecl.h>
#include <clang/AST/Mangle.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <memory>

namespace kopt::frontend {

namespace {
using namespace clang::ast_matchers;

class KernelCollector : public MatchFinder::MatchCallback {
public:
  explicit KernelCollector(std::vector<KernelSummary> &Sink) : Out(Sink) {}

  void run(const MatchFinder::MatchResult &Result) override {
    const auto *FD = Result.Nodes.getNodeAs<clang::FunctionDecl>("kernel");
    if (!FD || FD->isTemplateInstantiation())
      return; // Instantiations are reported through their template.
    clang::ASTContext &Ctx = *Result.Context;
    const clang::SourceManager &SM = Ctx.getSourceManager();
    KernelSummary K;
    K.Name = FD->getQualifiedNameAsString();
    K.IsTemplate = FD->getDescribedFunctionTemplate() != nullptr;
    clang::PresumedLoc Loc = SM.getPresumedLoc(FD->getLocation());
    if (Loc.isValid()) {
      K.Line = Loc.getLine();
      K.Column = Loc.getColumn();
    }
    if (!K.IsTemplate) {
      std::unique_ptr<clang::MangleContext> Mangler(Ctx.createMangleContext());
      llvm::raw_string_ostream OS(K.MangledName);
      // The kernel's own symbol, not the host-side launch stub's.
      Mangler->mangleName(clang::GlobalDecl(FD, clang::KernelReferenceKind::Kernel), OS);
    }
    for (const clang::ParmVarDecl *P : FD->parameters())
      K.Params.push_back({P->getNameAsString(), P->getType().getAsString(Ctx.getPrintingPolicy())});
    Out.push_back(std::move(K));
  }

private:
  std::vector<KernelSummary> &Out;
};
} // namespace

llvm::Expected<std::vector<KernelSummary>> findKernels(const std::string &File,
                                                       const CudaParseSetup &Setup) {
  clang::tooling::FixedCompilationDatabase Db(".", Setup.clangArgs());
  clang::tooling::ClangTool Tool(Db, {File});

  std::vector<KernelSummary> Kernels;
  KernelCollector Collector(Kernels);
  MatchFinder Finder;
  Finder.addMatcher(
      functionDecl(isDefinition(), hasAttr(clang::attr::CUDAGlobal), isExpansionInMainFile())
          .bind("kernel"),
      &Collector);
  if (Tool.run(clang::tooling::newFrontendActionFactory(&Finder).get()) != 0)
    return llvm::createStringError("%s: cannot be parsed as CUDA (see the errors above)",
                                   File.c_str());
  return Kernels;
}

} // namespace kopt::frontend
