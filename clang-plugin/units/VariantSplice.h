// Splices variants into a translation unit's text (docs/kcc.md#variants), on
// the offsets the front end recorded: no parse at
// rewrite time, no clang.
//   - A variant without a new name replaces the kernel's definition in place.
//   - A variant of one instantiation of a kernel template: see Instantiation.
//   - A renamed variant is inserted after the original definition, which stays
//     for launches elsewhere, and each launch site of the kernel in this TU is
//     retargeted to it with the mapped launch (retargetLaunch).
//   - A variant with an ArchGuard goes into its device pass only (ArchSplice.h).
// Where the caller takes a Prelude (kcc), launches also switch at run time
// (VariantSwitch.h): the original stays (an in-place variant's as
// originalKernelName()), and each rewritten launch runs the variant or the
// original as kopt_variants_enabled() says.
// Line numbers stay exact: code after a splice keeps its line in the user's file.
#pragma once

#include "clang-plugin/model/KernelParam.h"
#include "clang-plugin/model/KernelUnit.h"
#include "clang-plugin/model/KernelVariant.h"
#include "clang-plugin/model/LaunchSite.h"
#include "clang-plugin/units/ArchSplice.h"
#include "clang-plugin/units/KernelRewrite.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::frontend {

// One kernel's variant with what the front end found about the kernel.
struct VariantSplice {
  KernelVariant Variant;
  SourceSpan Definition;           // The kernel's definition in the spliced text.
  std::vector<KernelParam> Params; // For the mapping's parameter names.
  std::vector<LaunchSite> Launches;
  // False for the text of a TU whose kernel is defined in a header (spliced
  // there): only its launches in this text are retargeted.
  bool DefinedHere = true;
  // For a kernel template used with several arguments: the instantiation the
  // variant is for ("float, 128"). The template stays; an unrenamed variant is
  // added as that instantiation's explicit specialization
  // (TemplateSpecialization.h), a renamed one is launched only where the launch
  // names these arguments.
  std::string Instantiation;
  std::optional<ArchGuard> Arch; // None: for all device code (a compile of one pass).
};

// OriginalText (read from PathAsWritten) with the variants spliced in, and the
// ranges of Others (original offsets, e.g. a header's #include) replaced as
// variants are. As replaceKernelDefinitions (KernelRewrite.h): no leading
// #line, `#pragma kopt` left in place. A launch site whose text is not a `<<<`
// call in the file (a launch inside a macro's expansion) keeps launching the
// original kernel. Where Prelude is given and there are splices, launches
// switch at run time and Prelude gets variantSwitchPrelude(), with
// dispatchPrelude() where launches dispatch between passes (Prelude must then
// be given), for the caller to put before its first #line.
llvm::Expected<std::string> spliceVariants(llvm::StringRef OriginalText,
                                           llvm::StringRef PathAsWritten,
                                           llvm::ArrayRef<VariantSplice> Splices,
                                           std::string *Prelude = nullptr,
                                           llvm::ArrayRef<KernelReplacement> Others = {});

// The text that replaces Site ([Site.Begin, Site.End) of Text): a call of
// Callee with the launch of Mapping, where each of the site's expressions is
// evaluated once, in the order grid, block, shared memory, stream, arguments:
//   ([&] { const dim3 kopt_grid_ = dim3(G); ...; Callee<<<dim3(...), dim3(...),
//   (size_t)(...), kopt_stream_>>>(kopt_arg0_, ...); }())
// It has as many newlines as the call had (at its end), so later lines keep
// their numbers. Fails when the mapping does not parse or names something other
// than a launch name or an integer parameter that the call passes.
llvm::Expected<std::string> retargetLaunch(llvm::StringRef Text, const LaunchSite &Site,
                                           llvm::StringRef Callee, const LaunchMapping &Mapping,
                                           llvm::ArrayRef<KernelParam> Params);

} // namespace kopt::frontend
