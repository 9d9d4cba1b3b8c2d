// kopt's front end as a clang plugin: `clang++ -fplugin=kopt-clang-plugin.so`.
// It installs the same '#pragma kopt' handler as `kopt inspect` (so mistakes
// are the same clang errors) and, with out=PATH, writes the manifest of the
// translation unit's annotated kernels once it parsed without errors.
#include "clang-plugin/analysis/KernelSummaryJson.h"
#include "clang-plugin/parse/KernelFinderConsumer.h"
#include "clang-plugin/plugin/PluginOptions.h"
#include "support/AtomicFile.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendPluginRegistry.h>

namespace kopt::plugin {

namespace {

void reportError(clang::DiagnosticsEngine &Diags, llvm::Error E) {
  unsigned ID = Diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "kopt plugin: %0");
  Diags.Report(ID) << llvm::toString(std::move(E));
}

class ManifestConsumer : public clang::ASTConsumer {
public:
  ManifestConsumer(clang::CompilerInstance &CI, std::string MainFile, std::string ManifestPath)
      : File(std::move(MainFile)), Path(std::move(ManifestPath)),
        Finder(frontend::createKernelFinderConsumer(CI, Kernels,
                                                    frontend::KernelDetail::Declaration)) {}

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    Finder->HandleTranslationUnit(Ctx);
    clang::DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    // A CUDA file is parsed once for the host and once for each GPU
    // architecture; the host side writes (it sees what `kopt inspect` sees).
    if (Path.empty() || Ctx.getLangOpts().CUDAIsDevice || Diags.hasErrorOccurred())
      return;
    std::string Text = frontend::kernelManifestToJson(File, Kernels).dump(2) + "\n";
    if (llvm::Error E = writeFileAtomically(Path, Text))
      reportError(Diags, std::move(E));
  }

private:
  std::string File, Path;
  std::vector<frontend::KernelSummary> Kernels;
  std::unique_ptr<clang::ASTConsumer> Finder; // Fills Kernels.
};

class KoptPluginAction : public clang::PluginASTAction {
protected:
  bool ParseArgs(const clang::CompilerInstance &CI, const std::vector<std::string> &Args) override {
    llvm::Expected<PluginOptions> Parsed = parsePluginArgs(Args);
    if (!Parsed) {
      reportError(CI.getDiagnostics(), Parsed.takeError());
      return false;
    }
    Options = std::move(*Parsed);
    return true;
  }

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef InFile) override {
    return std::make_unique<ManifestConsumer>(CI, InFile.str(), Options.ManifestPath);
  }

  // Beside the compile (-c, -fsyntax-only, ...), not in place of it.
  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  PluginOptions Options;
};

} // namespace

} // namespace kopt::plugin

static clang::FrontendPluginRegistry::Add<kopt::plugin::KoptPluginAction>
    Registration("kopt", "checks #pragma kopt and writes a manifest of the annotated kernels");
