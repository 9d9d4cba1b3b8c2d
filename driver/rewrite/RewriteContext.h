// kopt's rewrite of one translation unit, which `kopt rewrite-tu` (kcc's front
// end) and `kopt apply` share: stages over one context, each returning
// llvm::Expected (RewriteStages.h):
//   prepare   options, the source's text, the parse's setup, device passes, providers
//   parse     clang's parse: the kernels and their pragmas
//   look up   each kernel's variant for each architecture, from the providers
//             (the result cache optimizes on a miss where the mode allows)
//   splice    the variants into the text; a header's kernels into inlined copies
//   write     the output, and kcc's direct-mode manifest
// A mistake in a pragma is frontend::PragmaErrors (clang's diagnostics printed);
// any other error is kopt's side failing.
#pragma once

#include "clang-plugin/parse/FileAccessLog.h"
#include "driver/config/KoptOptions.h"
#include "driver/nvcc/NvccDevicePasses.h"
#include "driver/optimize/CacheVariantProvider.h"
#include "driver/optimize/FrontEndLog.h"
#include "driver/optimize/VariantProvider.h"

#include <memory>
#include <string>
#include <vector>

namespace kopt::driver {

// What the command line asks for.
struct RewriteRequest {
  std::string Source, Output;
  std::vector<std::string> VariantFiles;
  std::string ManifestKey; // kcc's direct mode: record a manifest under this key.
  SplitCommandLine Kopt;   // --kopt- flags.
  std::vector<std::string> NvccFlags;
};

// Where kcc's rewrite and `kopt apply` differ, each said on its own.
struct RewriteOptions {
  std::string Voice = "kcc"; // Whose notes and warnings: "kcc: note: ...".
  // Only kernels with a `#pragma kopt` take a variant (kcc); else every kernel
  // a variant file names (apply).
  bool AnnotatedOnly = true;
  // After the variant files, the result cache (kcc), unless the mode is off.
  bool ResultCache = true;
  // Each architecture's variant goes into the compile's device passes that can
  // take it (NvccDevicePasses.h; kcc); else every variant into all device code
  // of the parse's architecture (apply).
  bool DevicePassesOfFlags = true;
};

struct RewriteContext {
  RewriteRequest Request;
  RewriteOptions Options;
  TuContext Tu;
  std::unique_ptr<FrontEndLog> Log;
  std::string Text; // The source, as read once.
  std::vector<NvccDevicePass> Passes;
  std::unique_ptr<FileVariantProvider> Files;
  std::unique_ptr<CacheVariantProvider> Cached; // Null without a result cache.
  frontend::FileAccessLog Accesses;             // Filled by the parse for a manifest.

  // The variant files first, then the cache.
  std::vector<VariantProvider *> providers() const;
};

} // namespace kopt::driver
