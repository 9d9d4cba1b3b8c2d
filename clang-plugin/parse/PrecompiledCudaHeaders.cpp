#include "clang-plugin/parse/PrecompiledCudaHeaders.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <map>
#include <memory>
#include <mutex>

namespace kopt::frontend {

namespace {
// The PCH records the unit it was built from as an input file and checks it
// on load, so every parse that uses it sees this empty file too.
constexpr llvm::StringLiteral HeaderUnitName = "/kopt-precompiled/cuda-headers.cu";
// Each parse has a file system of its own, so one name serves every PCH.
constexpr llvm::StringLiteral PchName = "/kopt-precompiled/cuda-headers.pch";

// Runs clang's PCH generation on the invocation the driver made, into a file
// of our choosing (the driver drops -o under -fsyntax-only).
class GeneratePch : public clang::tooling::ToolAction {
public:
  explicit GeneratePch(std::string Output) : OutputFile(std::move(Output)) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                     clang::FileManager *Files,
                     std::shared_ptr<clang::PCHContainerOperations> Operations,
                     clang::DiagnosticConsumer *Diagnostics) override {
    Invocation->getFrontendOpts().OutputFile = OutputFile;
    clang::CompilerInstance Compiler(std::move(Operations));
    Compiler.setInvocation(std::move(Invocation));
    Compiler.setFileManager(Files);
    Compiler.createDiagnostics(Diagnostics, /*ShouldOwnClient=*/false);
    Compiler.createSourceManager(*Files);
    clang::GeneratePCHAction Action;
    return Compiler.ExecuteAction(Action) && !Compiler.getDiagnostics().hasErrorOccurred();
  }

private:
  std::string OutputFile;
};

std::unique_ptr<llvm::MemoryBuffer> buildPch(const std::vector<std::string> &ClangArgs) {
  llvm::SmallString<128> Output;
  if (llvm::sys::fs::createTemporaryFile("kopt-cuda-headers", "pch", Output))
    return nullptr;
  auto Overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  Memory->addFile(HeaderUnitName, 0, llvm::MemoryBuffer::getMemBuffer(""));
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(
      new clang::FileManager(clang::FileSystemOptions(), Overlay));
  std::vector<std::string> CommandLine = {"clang"};
  CommandLine.insert(CommandLine.end(), ClangArgs.begin(), ClangArgs.end());
  CommandLine.push_back(HeaderUnitName.str());
  std::string Ignored; // A failure only means parsing without the PCH.
  llvm::raw_string_ostream Sink(Ignored);
  auto Options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter Printer(Sink, Options.get());
  GeneratePch Action(Output.str().str());
  clang::tooling::ToolInvocation Invocation(CommandLine, &Action, Files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Printer);
  bool Built = Invocation.run();
  auto Pch = Built ? llvm::MemoryBuffer::getFile(Output, /*IsText=*/false,
                                                 /*RequiresNullTerminator=*/false)
                   : llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>(
                         std::make_error_code(std::errc::io_error));
  llvm::sys::fs::remove(Output);
  return Pch ? std::move(*Pch) : nullptr;
}

struct PchRegistry {
  std::mutex Lock;
  // By command line; null where building failed.
  std::map<std::vector<std::string>, std::unique_ptr<llvm::MemoryBuffer>> Built;
  PrecompiledHeaderUse Use;
  bool Enabled = true;
};

PchRegistry &registry() {
  static PchRegistry R;
  return R;
}
} // namespace

std::vector<std::string> usePrecompiledCudaHeaders(const std::vector<std::string> &ClangArgs,
                                                   llvm::vfs::InMemoryFileSystem &Files) {
  PchRegistry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  if (!R.Enabled)
    return {};
  auto It = R.Built.find(ClangArgs);
  if (It == R.Built.end()) {
    It = R.Built.emplace(ClangArgs, buildPch(ClangArgs)).first;
    ++(It->second ? R.Use.Built : R.Use.Failed);
  }
  if (!It->second)
    return {};
  Files.addFile(HeaderUnitName, 0, llvm::MemoryBuffer::getMemBuffer(""));
  Files.addFile(PchName, 0,
                llvm::MemoryBuffer::getMemBuffer(It->second->getMemBufferRef(),
                                                 /*RequiresNullTerminator=*/false));
  ++R.Use.Used;
  return {"-include-pch", PchName.str()};
}

void traverseParsedDeclsOnly(clang::ASTContext &Ctx, const clang::Preprocessor &PP) {
  if (PP.getPreprocessorOpts().ImplicitPCHInclude != PchName)
    return;
  std::vector<clang::Decl *> Parsed;
  for (clang::Decl *D : Ctx.getTranslationUnitDecl()->noload_decls())
    if (!D->isFromASTFile())
      Parsed.push_back(D);
  Ctx.setTraversalScope(Parsed);
}

void enablePrecompiledCudaHeaders(bool Enabled) {
  PchRegistry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Enabled = Enabled;
}

PrecompiledHeaderUse precompiledHeaderUse() {
  PchRegistry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  return R.Use;
}

} // namespace kopt::frontend
