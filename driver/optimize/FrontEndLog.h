// What kopt's front end tells the build on stderr (kcc's notes and warnings
// about each kernel's variant), kept in order so that a direct-mode manifest
// can replay it: a direct hit tells the user what the full rewrite told them.
#pragma once

#include "memory/cache/DirectManifest.h"

#include <llvm/ADT/Twine.h>

#include <string>
#include <vector>

namespace kopt::driver {

class FrontEndLog {
public:
  FrontEndLog(std::string Note, std::string Warn, bool IsVerbose)
      : NotePrefix(std::move(Note)), WarnPrefix(std::move(Warn)), Verbose(IsVerbose) {}

  void note(const llvm::Twine &Message) { add(NotePrefix + Message + "\n", false); }
  // Shown under --kopt-verbose, recorded either way (a later run may be verbose).
  void verboseNote(const llvm::Twine &Message) { add(NotePrefix + Message + "\n", true); }
  void verboseText(llvm::StringRef Text) { add(Text, true); }
  // A run that warned records no manifest: the next compile should look again.
  void warning(const llvm::Twine &Message) {
    Warned = true;
    add(WarnPrefix + Message + "\n", false);
  }

  bool warned() const { return Warned; }
  bool verbose() const { return Verbose; }
  const std::vector<memory::ManifestLine> &lines() const { return Lines; }

private:
  void add(const llvm::Twine &Text, bool VerboseOnly);

  std::string NotePrefix, WarnPrefix;
  bool Verbose;
  bool Warned = false;
  std::vector<memory::ManifestLine> Lines;
};

} // namespace kopt::driver
