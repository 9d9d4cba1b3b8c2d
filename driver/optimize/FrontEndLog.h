// What kopt's front end tells the build on stderr (kcc's notes and warnings
// about each kernel's variant), kept in order so that a direct-mode manifest
// can replay it: a direct hit tells the user what the full rewrite told them.
#pragma once

#include "driver/Diagnostics.h"
#include "memory/cache/DirectManifest.h"

#include <llvm/ADT/Twine.h>

#include <string>
#include <vector>

namespace kopt::driver {

class FrontEndLog {
public:
  // Voice: whose notes these are ("kcc" for kcc's front end) and whether verbose.
  explicit FrontEndLog(Reporter Speaker) : Voice(std::move(Speaker)) {}

  void note(const llvm::Twine &Message) { add(Voice.line(Severity::Note, Message), false); }
  // Shown under --kopt-verbose, recorded either way (a later run may be verbose).
  void verboseNote(const llvm::Twine &Message) { add(Voice.line(Severity::Note, Message), true); }
  void verboseText(llvm::StringRef Text) { add(Text, true); }
  // A run that warned records no manifest: the next compile should look again.
  void warning(const llvm::Twine &Message) {
    Warned = true;
    add(Voice.line(Severity::Warning, Message), false);
  }

  bool warned() const { return Warned; }
  bool verbose() const { return Voice.verbose(); }
  const Reporter &voice() const { return Voice; }
  const std::vector<memory::ManifestLine> &lines() const { return Lines; }

private:
  void add(const llvm::Twine &Text, bool VerboseOnly);

  Reporter Voice;
  bool Warned = false;
  std::vector<memory::ManifestLine> Lines;
};

} // namespace kopt::driver
