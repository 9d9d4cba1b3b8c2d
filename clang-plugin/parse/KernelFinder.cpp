#include "clang-plugin/parse/KernelFinder.h"

#include "clang-plugin/analysis/KernelAnalysis.h"
#include "clang-plugin/analysis/ParamDescription.h"
#include "clang-plugin/parse/FileAccessLog.h"
#include "clang-plugin/parse/IncludeDirectives.h"
#include "clang-plugin/parse/KernelFinderConsumer.h"
#include "clang-plugin/parse/NvccTolerantPrinter.h"
#include "clang-plugin/parse/PragmaAttacher.h"
#include "clang-plugin/parse/PrecompiledCudaHeaders.h"
#include "clang-plugin/pragma/PragmaHandler.h"
#include "clang-plugin/units/CommandLineMacroTests.h"
#include "clang-plugin/units/KernelUnitBuilder.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <memory>

namespace kopt::frontend {

namespace {
using namespace clang::ast_matchers;
using PragmaMap = llvm::DenseMap<const clang::FunctionDecl *, PragmaClauses>;

// A local declaration of Kernel that clang marked invalid where nvcc accepts it
// (NvccTolerantPrinter.h): the expressions that use it are not in the AST.
const clang::VarDecl *invalidLocal(const clang::FunctionDecl &Kernel) {
  for (const clang::Decl *D : Kernel.decls())
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D); V && V->isInvalidDecl())
      return V;
  return nullptr;
}

// An annotated kernel whose AST is not whole is not optimized: its analysis
// would miss what the dropped expressions read and write.
void warnNotAnalyzable(const clang::FunctionDecl &Kernel, const clang::VarDecl &Dropped,
                       clang::ASTContext &Ctx) {
  clang::DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  unsigned Id = Diags.getCustomDiagID(
      clang::DiagnosticsEngine::Warning,
      "kopt: kernel '%0' is not optimized: clang rejects the declaration of '%1' (nvcc accepts "
      "it), so kopt cannot see the code that uses it");
  Diags.Report(Dropped.getLocation(), Id) << Kernel.getQualifiedNameAsString() << Dropped.getName();
}

class KernelCollector : public MatchFinder::MatchCallback {
public:
  KernelCollector(std::vector<KernelSummary> &Sink, const PragmaMap &Attached,
                  const IncludeDirectiveLog &Directives, clang::Preprocessor &Preprocessor,
                  const CommandLineMacroTests *Tests, KernelDetail Level)
      : Out(Sink), Pragmas(Attached), Includes(Directives), PP(Preprocessor), MacroTests(Tests),
        Detail(Level) {}

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
    if (!SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())) && Loc.isValid()) {
      K.HeaderFile = Loc.getFilename();
      K.IncludedFrom = Includes.chainTo(FD->getLocation(), SM);
    }
    if (!K.IsTemplate)
      K.MangledName = kernelSymbol(*FD, Ctx);
    auto Attached = Pragmas.find(FD);
    const clang::FunctionDecl *Instance = evaluatedInstance(
        *FD, Attached != Pragmas.end() ? Attached->second.Instantiation : std::nullopt, Ctx);
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      K.Params.push_back(describeParam(
          *FD->getParamDecl(I), Ctx,
          Instance && I < Instance->getNumParams() ? Instance->getParamDecl(I) : nullptr));
    if (Attached != Pragmas.end()) {
      if (const clang::VarDecl *Dropped = invalidLocal(*FD))
        warnNotAnalyzable(*FD, *Dropped, Ctx);
      else
        K.Pragma = Attached->second;
    }
    if (Detail == KernelDetail::Analyzed) {
      if (!Launches) // One pass over the TU serves every kernel.
        Launches = findLaunchSites(Ctx);
      analyzeKernel(*FD, Instance, Ctx, *Launches, K);
      K.Unit = buildKernelUnit(*FD, Ctx, PP, MacroTests);
    } else {
      K.Instantiations = findInstantiations(*FD, Ctx);
    }
    Out.push_back(std::move(K));
  }

private:
  std::vector<KernelSummary> &Out;
  const PragmaMap &Pragmas;
  const IncludeDirectiveLog &Includes;
  clang::Preprocessor &PP;
  const CommandLineMacroTests *MacroTests;
  KernelDetail Detail;
  std::optional<LaunchSiteIndex> Launches;
};

class KernelFinderConsumer : public clang::ASTConsumer {
public:
  KernelFinderConsumer(std::shared_ptr<PragmaCollector> Pragmas, IncludeDirectiveLog Directives,
                       std::vector<KernelSummary> &Sink, clang::Preprocessor &Preprocessor,
                       const CommandLineMacroTests *Tests, KernelDetail Level)
      : Collector(std::move(Pragmas)), Includes(std::move(Directives)), Out(Sink), PP(Preprocessor),
        MacroTests(Tests), Detail(Level) {}

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    traverseParsedDeclsOnly(Ctx, PP);
    PragmaMap Pragmas = attachPragmas(Ctx, Collector->occurrences());
    KernelCollector Kernels(Out, Pragmas, Includes, PP, MacroTests, Detail);
    MatchFinder Finder;
    Finder.addMatcher(functionDecl(isDefinition(), hasAttr(clang::attr::CUDAGlobal),
                                   unless(isExpansionInSystemHeader()))
                          .bind("kernel"),
                      &Kernels);
    Finder.matchAST(Ctx);
  }

private:
  std::shared_ptr<PragmaCollector> Collector;
  IncludeDirectiveLog Includes;
  std::vector<KernelSummary> &Out;
  clang::Preprocessor &PP;
  const CommandLineMacroTests *MacroTests; // Owned by PP.
  KernelDetail Detail;
};

// Prints as clang would, less what nvcc accepts (NvccTolerantPrinter.h), and
// counts errors: those of `#pragma kopt` (custom diagnostics) apart from clang's own.
class CountingPrinter : public NvccTolerantPrinter {
public:
  using NvccTolerantPrinter::NvccTolerantPrinter;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    unsigned Before = getNumErrors();
    NvccTolerantPrinter::HandleDiagnostic(Level, Info);
    if (getNumErrors() > Before &&
        Info.getID() < clang::diag::DIAG_UPPER_LIMIT) // Custom IDs come after.
      ++ClangErrors;
  }
  unsigned ClangErrors = 0;
};

// Parses the translation unit with the '#pragma kopt' handlers installed.
class KernelFinderAction : public clang::ASTFrontendAction {
public:
  // Summary: where "N errors generated." goes (default: stderr).
  KernelFinderAction(std::vector<KernelSummary> &Sink, CountingPrinter &Diagnostics,
                     llvm::raw_ostream *Summary)
      : Out(Sink), Printer(Diagnostics), SummaryStream(Summary) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef) override {
    if (SummaryStream)
      CI.setVerboseOutputStream(*SummaryStream);
    Printer.attach(CI);
    return createKernelFinderConsumer(CI, Out, KernelDetail::Analyzed);
  }

private:
  std::vector<KernelSummary> &Out;
  CountingPrinter &Printer;
  llvm::raw_ostream *SummaryStream;
};

llvm::Expected<std::vector<KernelSummary>>
runFinder(llvm::StringRef File, const std::vector<std::string> &ClangArgs,
          llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS, llvm::raw_ostream &Diagnostics,
          llvm::raw_ostream *Summary, const std::vector<std::string> &ExtraArgs = {}) {
  std::vector<std::string> CommandLine = {"clang"};
  CommandLine.insert(CommandLine.end(), ClangArgs.begin(), ClangArgs.end());
  CommandLine.insert(CommandLine.end(), ExtraArgs.begin(), ExtraArgs.end());
  CommandLine.push_back(File.str());
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(
      new clang::FileManager(clang::FileSystemOptions(), std::move(FS)));
  std::vector<KernelSummary> Kernels;
  auto Options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  Options->ShowColors = Diagnostics.has_colors();
  CountingPrinter Printer(Diagnostics, Options.get());
  clang::tooling::ToolInvocation Invocation(
      CommandLine, std::make_unique<KernelFinderAction>(Kernels, Printer, Summary), Files.get());
  Invocation.setDiagnosticConsumer(&Printer);
  bool Parsed = Invocation.run();
  if (!Parsed && Printer.ClangErrors == 0 && Printer.getNumErrors() > 0)
    return llvm::make_error<PragmaErrors>(File.str());
  if (!Parsed)
    return llvm::createStringError("%s: cannot be parsed as CUDA (see the errors above)",
                                   File.str().c_str());
  return Kernels;
}
} // namespace

std::unique_ptr<clang::ASTConsumer> createKernelFinderConsumer(clang::CompilerInstance &CI,
                                                               std::vector<KernelSummary> &Sink,
                                                               KernelDetail Detail) {
  auto Collector = std::make_shared<PragmaCollector>();
  clang::Preprocessor &PP = CI.getPreprocessor();
  Collector->install(PP);
  IncludeDirectiveLog Includes;
  Includes.install(PP);
  const CommandLineMacroTests *Tests = nullptr;
  if (Detail == KernelDetail::Analyzed) { // Units are built only then.
    auto Recorder = std::make_unique<CommandLineMacroTests>(PP);
    Tests = Recorder.get();
    PP.addPPCallbacks(std::move(Recorder));
  }
  return std::make_unique<KernelFinderConsumer>(std::move(Collector), std::move(Includes), Sink, PP,
                                                Tests, Detail);
}

llvm::Expected<std::vector<KernelSummary>> findKernels(const std::string &File,
                                                       const CudaParseSetup &Setup) {
  return runFinder(File, Setup.clangArgs(), llvm::vfs::getRealFileSystem(), llvm::errs(), nullptr);
}

llvm::Expected<std::vector<KernelSummary>>
findKernelsInCode(llvm::StringRef Code, llvm::StringRef FileName,
                  const std::vector<std::string> &ClangArgs, llvm::raw_ostream &Diagnostics,
                  FileAccessLog *Accesses, HeaderParse Headers) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Disk = llvm::vfs::getRealFileSystem();
  if (Accesses)
    Disk = Accesses->wrap(std::move(Disk));
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(std::move(Disk));
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  Memory->addFile(FileName, 0, llvm::MemoryBuffer::getMemBufferCopy(Code));
  std::vector<std::string> Precompiled;
  if (Headers == HeaderParse::Precompiled && !Accesses)
    Precompiled = usePrecompiledCudaHeaders(ClangArgs, *Memory);
  return runFinder(FileName, ClangArgs, Overlay, Diagnostics, &Diagnostics, Precompiled);
}

char PragmaErrors::ID = 0;

void PragmaErrors::log(llvm::raw_ostream &OS) const {
  OS << File << ": error in a '#pragma kopt' (see the errors above)";
}

} // namespace kopt::frontend
