// kcc's and kopt's own messages, "<tool>: error|warning|note: ...", like
// clang's driver, through one reporter; and how a kopt subcommand fails: it
// returns an llvm::Error, and exitStatusOf() alone turns that into the message
// and the exit status.
#pragma once

#include <llvm/ADT/Twine.h>
#include <llvm/Support/Error.h>

#include <string>

namespace kopt::driver {

enum class Severity { Note, Warning, Error };

// Writes Text to stderr as it is. A closed stderr (`kcc ... 2>&1 | head -1`)
// loses it but fails nothing: a compile's outcome never hangs on kopt's notes.
void writeToStderr(llvm::StringRef Text);

class Reporter {
public:
  // Tool: "kcc", "kopt", "kopt eval". Verbose: verboseNote() prints too.
  explicit Reporter(std::string Tool, bool Verbose = false)
      : Name(std::move(Tool)), IsVerbose(Verbose) {}

  // "<tool>: note: <Message>\n"
  std::string line(Severity S, const llvm::Twine &Message) const;
  void report(Severity S, const llvm::Twine &Message) const { writeToStderr(line(S, Message)); }

  void note(const llvm::Twine &Message) const { report(Severity::Note, Message); }
  void verboseNote(const llvm::Twine &Message) const {
    if (IsVerbose)
      note(Message);
  }
  void warning(const llvm::Twine &Message) const { report(Severity::Warning, Message); }
  void error(const llvm::Twine &Message) const { report(Severity::Error, Message); }
  void error(llvm::Error E) const { error(llvm::toString(std::move(E))); }

  const std::string &tool() const { return Name; }
  bool verbose() const { return IsVerbose; }

private:
  std::string Name;
  bool IsVerbose;
};

// A subcommand's failure with the exit status it asks for; an empty message
// where the command has said all already (`kopt check`'s diagnostics).
class CommandFailure : public llvm::ErrorInfo<CommandFailure> {
public:
  static char ID;
  CommandFailure(int Status, std::string Message) : ExitStatus(Status), Text(std::move(Message)) {}
  int status() const { return ExitStatus; }
  const std::string &text() const { return Text; }
  void log(llvm::raw_ostream &OS) const override { OS << Text; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

private:
  int ExitStatus;
  std::string Text;
};

inline llvm::Error failWithStatus(int Status, const llvm::Twine &Message = "") {
  return llvm::make_error<CommandFailure>(Status, Message.str());
}

// A command that has said all already and returns an exit status: success for
// 0, else that status without another message.
inline llvm::Error exitStatusError(int Status) {
  return Status ? failWithStatus(Status) : llvm::Error::success();
}

// 0 for success; else the error's message as Voice's error (nothing for a
// CommandFailure without one) and its status: a CommandFailure's, else 1.
int exitStatusOf(const Reporter &Voice, llvm::Error E);

} // namespace kopt::driver
