#include "driver/config/KoptConfigFile.h"

#include "support/Spelling.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <yaml-cpp/yaml.h>

namespace kopt::driver {

namespace {
std::string position(const std::string &Path, const YAML::Mark &Mark) {
  return Path + ":" + std::to_string(Mark.line + 1) + ":" + std::to_string(Mark.column + 1);
}
} // namespace

std::optional<std::string> findConfigFile(llvm::StringRef StartDir) {
  llvm::SmallString<256> Dir(StartDir);
  if (llvm::sys::fs::make_absolute(Dir))
    return std::nullopt;
  while (!Dir.empty()) {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, ".kopt.yaml");
    if (llvm::sys::fs::is_regular_file(Candidate))
      return std::string(Candidate);
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  return std::nullopt;
}

llvm::Error loadConfigFile(const std::string &Path, KoptOptions &Options) {
  YAML::Node Root;
  try {
    Root = YAML::LoadFile(Path);
  } catch (const YAML::ParserException &E) {
    return llvm::createStringError("%s: error: %s", position(Path, E.mark).c_str(), E.msg.c_str());
  } catch (const YAML::Exception &E) {
    return llvm::createStringError("%s: error: %s", Path.c_str(), E.what());
  }
  if (Root.IsNull())
    return llvm::Error::success(); // An empty file sets nothing.
  if (!Root.IsMap())
    return llvm::createStringError("%s: error: expected a mapping of option: value",
                                   position(Path, Root.Mark()).c_str());
  for (const auto &Entry : Root) {
    std::string Key = Entry.first.as<std::string>();
    std::string Where = position(Path, Entry.first.Mark());
    if (!findOption(Key)) {
      std::string Message = Where + ": error: unknown option '" + Key + "'";
      Message += didYouMean(suggestOption(Key));
      return llvm::createStringError(Message);
    }
    OptionKind Kind = findOption(Key)->Kind;
    // `project_cache:` with nothing after it turns off what another layer set.
    bool MayBeEmpty =
        Kind == OptionKind::PathOrNone || Kind == OptionKind::Urls || Kind == OptionKind::Devices;
    // `devices: [0, 1]` as well as `devices: 0,1`.
    bool IsList = Kind == OptionKind::Devices && Entry.second.IsSequence();
    if (!Entry.second.IsScalar() && !IsList && !(MayBeEmpty && Entry.second.IsNull()))
      return llvm::createStringError("%s: error: option '%s' needs a single value",
                                     position(Path, Entry.second.Mark()).c_str(), Key.c_str());
    std::string Value = Entry.second.IsNull() ? "" : IsList ? "" : Entry.second.Scalar();
    if (IsList)
      for (const YAML::Node &Item : Entry.second) {
        if (!Item.IsScalar())
          return llvm::createStringError("%s: error: option '%s' lists GPUs: ordinals or UUIDs",
                                         position(Path, Item.Mark()).c_str(), Key.c_str());
        Value += (Value.empty() ? "" : ",") + Item.Scalar();
      }
    bool IsPath = Kind == OptionKind::Path || (Kind == OptionKind::PathOrNone && !Value.empty());
    if (IsPath && !llvm::sys::path::is_absolute(Value)) {
      // Paths in the file are relative to the file, so a committed config works anywhere.
      llvm::SmallString<256> Resolved(llvm::sys::path::parent_path(Path));
      llvm::sys::path::append(Resolved, Value);
      Value = std::string(Resolved);
    }
    std::string ValueWhere = position(Path, Entry.second.Mark());
    if (llvm::Error E = Options.set(Key, Value, OptionSource::ConfigFile, ValueWhere))
      return llvm::createStringError(ValueWhere + ": error: " + llvm::toString(std::move(E)));
  }
  return llvm::Error::success();
}

} // namespace kopt::driver
