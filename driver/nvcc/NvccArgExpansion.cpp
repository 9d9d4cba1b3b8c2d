#include "driver/nvcc/NvccArgExpansion.h"

#include "driver/nvcc/NvccOptionTable.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/StringSaver.h>

#include <algorithm>
#include <cstdlib>

namespace kopt::driver {

namespace {
bool isBlank(char C) {
  return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\v' || C == '\f';
}

std::optional<std::string> environmentVariable(const char *Name) {
  if (const char *Value = std::getenv(Name))
    return std::string(Value);
  return std::nullopt;
}

// Replaces options files and response files in a sequence of arguments by
// their contents, recursively; everything else is copied to Out.
class Expander {
public:
  Expander(const NvccParseEnvironment &Environment, std::vector<std::string> &Output)
      : Env(Environment), Out(Output) {}

  // Where names the file the arguments come from; empty for the command line.
  llvm::Error expand(const std::vector<std::string> &Args, llvm::StringRef Where) {
    for (size_t I = 0; I < Args.size(); ++I) {
      const std::string &Arg = Args[I];
      if (Arg.size() > 1 && Arg[0] == '@') {
        if (llvm::Error E = include(llvm::StringRef(Arg).drop_front(), FileKind::Response))
          return E;
        continue;
      }
      std::optional<NvccOptionMatch> Match = matchNvccOption(Arg);
      const std::string *Next = I + 1 < Args.size() ? &Args[I + 1] : nullptr;
      if (!Match || !takesNextArgument(*Match, Next)) {
        if (Match && Match->Option->Id == NvccOptionId::OptionsFile && Match->InlineValue) {
          if (llvm::Error E = includeList(*Match->InlineValue))
            return E;
          continue;
        }
        Out.push_back(Arg);
        continue;
      }
      // The value is the next argument, taken as it is. An options file's
      // arguments stand alone; the command line's are checked by the parser.
      if (!Next) {
        if (Where.empty() && Match->Option->Id != NvccOptionId::OptionsFile) {
          Out.push_back(Arg);
          continue;
        }
        std::string Message = "argument expected after '" + Arg + "'";
        if (!Where.empty())
          Message += " at the end of " + Where.str();
        return llvm::createStringError(Message);
      }
      const std::string &Value = Args[++I];
      if (Match->Option->Id == NvccOptionId::OptionsFile) {
        if (llvm::Error E = includeList(Value))
          return E;
        continue;
      }
      Out.push_back(Arg);
      Out.push_back(Value);
    }
    return llvm::Error::success();
  }

private:
  enum class FileKind { Options, Response };
  struct OpenFile {
    std::string Path; // Absolute, for finding cycles.
    std::string Name; // As written, for messages.
  };

  // --options-file takes a comma-separated list of files.
  llvm::Error includeList(llvm::StringRef Names) {
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    Names.split(Parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Name : Parts)
      if (llvm::Error E = include(Name, FileKind::Options))
        return E;
    return llvm::Error::success();
  }

  llvm::Error include(llvm::StringRef Name, FileKind Kind) {
    const char *KindName = Kind == FileKind::Options ? "options file" : "response file";
    llvm::SmallString<256> Path(Name);
    if (!Env.WorkingDirectory.empty())
      llvm::sys::fs::make_absolute(Env.WorkingDirectory, Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);

    auto Same = [&](const OpenFile &F) { return F.Path == Path.str(); };
    if (auto It = std::find_if(Open.begin(), Open.end(), Same); It != Open.end()) {
      std::string Chain;
      for (auto F = It; F != Open.end(); ++F)
        Chain += "'" + F->Name + "' -> ";
      return llvm::createStringError("%s '%s' includes itself: %s'%s'", KindName,
                                     Name.str().c_str(), Chain.c_str(), Name.str().c_str());
    }
    if (Open.size() >= MaxNvccFileNesting)
      return llvm::createStringError("%s '%s' is nested more than %u files deep", KindName,
                                     Name.str().c_str(), MaxNvccFileNesting);
    if (!Env.ReadFile)
      return llvm::createStringError("could not open %s '%s': no file reader", KindName,
                                     Name.str().c_str());
    llvm::Expected<std::string> Text = Env.ReadFile(std::string(Path));
    if (!Text)
      return llvm::createStringError("could not open %s '%s': %s", KindName, Name.str().c_str(),
                                     llvm::toString(Text.takeError()).c_str());

    Open.push_back({std::string(Path), Name.str()});
    std::vector<std::string> Args =
        Kind == FileKind::Options ? splitNvccOptionsFile(*Text) : splitResponseFile(*Text);
    llvm::Error E = expand(Args, std::string(KindName) + " '" + Name.str() + "'");
    Open.pop_back();
    return E;
  }

  const NvccParseEnvironment &Env;
  std::vector<std::string> &Out;
  std::vector<OpenFile> Open;
};
} // namespace

NvccParseEnvironment NvccParseEnvironment::current() {
  NvccParseEnvironment Env;
  Env.PrependFlags = environmentVariable("NVCC_PREPEND_FLAGS");
  Env.AppendFlags = environmentVariable("NVCC_APPEND_FLAGS");
  Env.ReadFile = [](const std::string &Path) -> llvm::Expected<std::string> {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
        llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buffer)
      return llvm::errorCodeToError(Buffer.getError());
    return (*Buffer)->getBuffer().str();
  };
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd))
    Env.WorkingDirectory = std::string(Cwd);
  return Env;
}

llvm::Expected<std::vector<std::string>> expandNvccArguments(const std::vector<std::string> &Args,
                                                             const NvccParseEnvironment &Env) {
  std::vector<std::string> Joined;
  if (Env.PrependFlags)
    Joined = splitNvccEnvironmentFlags(*Env.PrependFlags);
  Joined.insert(Joined.end(), Args.begin(), Args.end());
  if (Env.AppendFlags) {
    std::vector<std::string> Append = splitNvccEnvironmentFlags(*Env.AppendFlags);
    Joined.insert(Joined.end(), Append.begin(), Append.end());
  }

  std::vector<std::string> Out;
  Expander E(Env, Out);
  if (llvm::Error Err = E.expand(Joined, /*Where=*/""))
    return Err;
  return Out;
}

std::vector<std::string> splitNvccEnvironmentFlags(llvm::StringRef Flags) {
  std::vector<std::string> Out;
  std::string Current;
  bool InQuotes = false, Started = false;
  for (char C : Flags) {
    if (!InQuotes && isBlank(C)) {
      if (Started)
        Out.push_back(std::move(Current));
      Current.clear();
      Started = false;
      continue;
    }
    if (C == '"')
      InQuotes = !InQuotes;
    Current += C; // nvcc keeps the quotes.
    Started = true;
  }
  if (Started)
    Out.push_back(std::move(Current));
  return Out;
}

std::vector<std::string> splitNvccOptionsFile(llvm::StringRef Text) {
  std::vector<std::string> Out;
  std::string Current;
  bool InQuotes = false, Started = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\') {
      if (I + 1 < Text.size())
        Current += Text[++I];
      Started = true;
    } else if (C == '"') {
      InQuotes = !InQuotes;
      Started = true;
    } else if (!InQuotes && isBlank(C)) {
      if (Started)
        Out.push_back(std::move(Current));
      Current.clear();
      Started = false;
    } else {
      Current += C;
      Started = true;
    }
  }
  if (Started)
    Out.push_back(std::move(Current));
  return Out;
}

std::vector<std::string> splitResponseFile(llvm::StringRef Text) {
  llvm::BumpPtrAllocator Allocator;
  llvm::StringSaver Saver(Allocator);
  llvm::SmallVector<const char *, 32> Args;
  llvm::cl::TokenizeGNUCommandLine(Text, Saver, Args);
  return std::vector<std::string>(Args.begin(), Args.end());
}

} // namespace kopt::driver
