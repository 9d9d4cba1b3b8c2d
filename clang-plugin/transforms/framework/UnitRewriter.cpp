#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include "clang-plugin/parse/NvccTolerantPrinter.h"
#include "clang-plugin/parse/PrecompiledCudaHeaders.h"
#include "clang-plugin/transforms/framework/TransformPipeline.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Lexer.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>

namespace kopt::transform {

std::string UnitAST::text(clang::SourceRange Range) const {
  if (Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return {};
  return clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(Range),
                                     Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

unsigned UnitAST::line(clang::SourceLocation Loc) const {
  clang::PresumedLoc P = Ctx.getSourceManager().getPresumedLoc(Loc);
  return P.isValid() ? P.getLine() : 0;
}

unsigned UnitAST::column(clang::SourceLocation Loc) const {
  clang::PresumedLoc P = Ctx.getSourceManager().getPresumedLoc(Loc);
  return P.isValid() ? P.getColumn() : 0;
}

std::string instantiationUse(llvm::StringRef Kernel, llvm::StringRef Args) {
  return ("\n[[maybe_unused]] static void *const kopt_analysed_instance = (void *)&" + Kernel +
          "<" + Args + ">;\n")
      .str();
}

namespace {
using namespace clang::ast_matchers;

// What the parse produced: the edited text, or why there is none.
struct RewriteResult {
  std::string Text;
  std::string Failure; // Empty on success.
};

class EditConsumer : public clang::ASTConsumer {
public:
  EditConsumer(const TransformInput &Input, UnitEdit EditFn, RewriteResult &Sink,
               const clang::Preprocessor &Preprocessor, bool Instantiated)
      : In(Input), Edit(EditFn), Out(Sink), PP(Preprocessor), ByInstance(Instantiated) {}

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    frontend::traverseParsedDeclsOnly(Ctx, PP);
    if (Ctx.getDiagnostics().getClient()->getNumErrors() > 0)
      return; // run() reports it (errors nvcc accepts are not counted).
    const clang::FunctionDecl *Kernel = findKernel(Ctx);
    if (!Kernel) {
      Out.Failure = "the unit has no kernel named '" + In.Kernel.Name + "'";
      return;
    }
    clang::Rewriter Rewrite(Ctx.getSourceManager(), Ctx.getLangOpts());
    UnitAST AST{Ctx, *Kernel, Rewrite};
    if (llvm::Error E = Edit(AST)) {
      Out.Failure = llvm::toString(std::move(E));
      return;
    }
    clang::FileID Main = Ctx.getSourceManager().getMainFileID();
    if (const clang::RewriteBuffer *Buffer = Rewrite.getRewriteBufferFor(Main))
      Out.Text = std::string(Buffer->begin(), Buffer->end());
    else
      Out.Text = Ctx.getSourceManager().getBufferData(Main).str();
  }

private:
  const clang::FunctionDecl *findKernel(clang::ASTContext &Ctx) const {
    auto Matches = match(
        functionDecl(isDefinition(), hasAttr(clang::attr::CUDAGlobal), isExpansionInMainFile())
            .bind("kernel"),
        Ctx);
    for (const BoundNodes &M : Matches) {
      const auto *FD = M.getNodeAs<clang::FunctionDecl>("kernel");
      if (!FD || FD->isTemplateInstantiation() || FD->getQualifiedNameAsString() != In.Kernel.Name)
        continue;
      const clang::FunctionTemplateDecl *Template = FD->getDescribedFunctionTemplate();
      if (!ByInstance || !Template)
        return FD;
      // The one instantiation the appended use made (instantiationUse).
      for (const clang::FunctionDecl *Spec : Template->specializations())
        if (Spec->isTemplateInstantiation() && Spec->hasBody())
          return Spec;
    }
    return nullptr;
  }

  const TransformInput &In;
  UnitEdit Edit;
  RewriteResult &Out;
  const clang::Preprocessor &PP;
  bool ByInstance; // The unit ends with instantiationUse: edit the kernel at it.
};

class EditAction : public clang::ASTFrontendAction {
public:
  EditAction(const TransformInput &Input, UnitEdit EditFn, RewriteResult &Sink,
             frontend::NvccTolerantPrinter &Diagnostics, llvm::raw_ostream &Summary,
             bool Instantiated)
      : In(Input), Edit(EditFn), Out(Sink), Printer(Diagnostics), SummaryStream(Summary),
        ByInstance(Instantiated) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef) override {
    CI.setVerboseOutputStream(SummaryStream);
    Printer.attach(CI);
    return std::make_unique<EditConsumer>(In, Edit, Out, CI.getPreprocessor(), ByInstance);
  }

private:
  const TransformInput &In;
  UnitEdit Edit;
  RewriteResult &Out;
  frontend::NvccTolerantPrinter &Printer;
  llvm::raw_ostream &SummaryStream;
  bool ByInstance;
};
} // namespace

llvm::Expected<std::string> rewriteUnit(const TransformInput &In, UnitEdit Edit) {
  std::string Use;
  if (std::optional<frontend::KernelInstantiation> Instance = analysedInstantiation(In.Kernel))
    Use = instantiationUse(In.Kernel.Name, Instance->TemplateArgs);
  auto Overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  Memory->addFile(UnitFileName, 0, llvm::MemoryBuffer::getMemBufferCopy(In.UnitText + Use));
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(
      new clang::FileManager(clang::FileSystemOptions(), Overlay));

  std::vector<std::string> CommandLine = {"clang"};
  CommandLine.insert(CommandLine.end(), In.ClangArgs.begin(), In.ClangArgs.end());
  std::vector<std::string> Precompiled = frontend::usePrecompiledCudaHeaders(In.ClangArgs, *Memory);
  CommandLine.insert(CommandLine.end(), Precompiled.begin(), Precompiled.end());
  CommandLine.push_back(UnitFileName.str());

  std::string Diagnostics;
  llvm::raw_string_ostream DiagStream(Diagnostics);
  auto Options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  frontend::NvccTolerantPrinter Printer(DiagStream, Options.get());
  RewriteResult Result;
  clang::tooling::ToolInvocation Invocation(
      CommandLine,
      std::make_unique<EditAction>(In, Edit, Result, Printer, DiagStream, !Use.empty()),
      Files.get());
  Invocation.setDiagnosticConsumer(&Printer);
  if (!Invocation.run())
    return llvm::createStringError("the kernel unit of '%s' does not parse:\n%s",
                                   In.Kernel.Name.c_str(), Diagnostics.c_str());
  if (!Result.Failure.empty())
    return llvm::createStringError(Result.Failure);
  if (!Use.empty() && !llvm::StringRef(Result.Text).consume_back(Use))
    return llvm::createStringError("the edit of '%s' changed the instantiation kopt appends to "
                                   "analyse the template",
                                   In.Kernel.Name.c_str());
  Result.Text.resize(Result.Text.size() - Use.size());
  return Result.Text;
}

} // namespace kopt::transform
