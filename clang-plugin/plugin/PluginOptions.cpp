#include "clang-plugin/plugin/PluginOptions.h"

#include "support/Spelling.h"

namespace kopt::plugin {

llvm::Expected<PluginOptions> parsePluginArgs(llvm::ArrayRef<std::string> Args) {
  static constexpr llvm::StringRef Usage = "out=PATH";
  PluginOptions Options;
  for (llvm::StringRef Arg : Args) {
    auto [Key, Value] = Arg.split('=');
    if (Key == "out") {
      if (Value.empty())
        return llvm::createStringError("argument '%s' needs a path: %s", Arg.str().c_str(),
                                       Usage.data());
      Options.ManifestPath = Value.str();
      continue;
    }
    std::string Message = "unknown argument '" + Arg.str() + "'";
    std::string Hint = didYouMean(closestSpelling(Key, {"out"}, 2), "=");
    Message += Hint.empty() ? "; expected " + Usage.str() : Hint;
    return llvm::createStringError(Message);
  }
  return Options;
}

} // namespace kopt::plugin
