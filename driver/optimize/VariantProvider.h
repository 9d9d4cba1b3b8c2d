// Where a kernel's variant comes from when kopt rewrites a translation unit
// (`kopt rewrite-tu`, `kopt apply`): a list of providers asked in order, the
// first that has a variant wins. Files given with --variant now; the result
// cache and the optimizer later.
#pragma once

#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/model/KernelVariant.h"
#include "driver/config/KoptOptions.h"

#include <llvm/Support/Error.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kopt::driver {

// The translation unit being rewritten, as a provider may need it (the cache's
// key, the optimizer's compile).
struct TuContext {
  std::string SourcePath;             // As the compile names it.
  std::vector<std::string> ClangArgs; // How the front end parsed it.
  std::vector<std::string> NvccFlags; // The compile's flags, as given to nvcc.
  std::string Arch;                   // The real architecture (sm_XX) a variant is asked for.
  bool SeveralArchs = false;          // The compile builds several: notes name Arch.
  KoptOptions Options;

  // "main.cu:12: matmul: " (with "sm_90: " where the compile builds several);
  // a kernel defined in a header is named at the header's line.
  std::string where(const frontend::KernelSummary &Kernel) const {
    return (Kernel.HeaderFile.empty() ? SourcePath : Kernel.HeaderFile) + ":" +
           std::to_string(Kernel.Line) + ": " + Kernel.Name + ": " +
           (SeveralArchs ? Arch + ": " : "");
  }
};

struct ProvidedVariant {
  frontend::KernelVariant Variant;
  std::string Note; // One line for the build log: "verified variant, 1.9x faster on ... (cache)".
};

class VariantProvider {
public:
  virtual ~VariantProvider() = default;
  // The variant for Kernel, if this provider has one. An error means the
  // provider failed (the kernel stays as it is, with a warning).
  virtual llvm::Expected<std::optional<ProvidedVariant>>
  variantFor(const frontend::KernelSummary &Kernel, const TuContext &Tu) = 0;
};

// Variants read from KernelVariant JSON files (clang-plugin/units/KernelVariantJson.h),
// matched to kernels by qualified name. Fails on a file that cannot be read or
// parsed, and on two variants for one kernel.
class FileVariantProvider : public VariantProvider {
public:
  static llvm::Expected<std::unique_ptr<FileVariantProvider>>
  load(const std::vector<std::string> &Paths);

  llvm::Expected<std::optional<ProvidedVariant>> variantFor(const frontend::KernelSummary &Kernel,
                                                            const TuContext &Tu) override;

  // Kernel names of the variants that no variantFor call asked for.
  std::vector<std::string> unusedKernels() const;

private:
  struct Entry {
    frontend::KernelVariant Variant;
    std::string Path;
    bool Used = false;
  };
  std::vector<Entry> Entries;
};

} // namespace kopt::driver
