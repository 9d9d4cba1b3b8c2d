#include "driver/optimize/EngineSelection.h"

#include <cstdlib>

namespace kopt::driver {

std::optional<std::string> processEnvironment(const char *Name) {
  const char *Value = std::getenv(Name);
  if (!Value || !*Value)
    return std::nullopt;
  return std::string(Value);
}

llvm::Expected<EngineChoice> chooseEngine(const frontend::KernelSummary &K, llvm::StringRef File,
                                          const KoptOptions &Options,
                                          const agents::EnvLookup &GetEnv) {
  // Where the choice came from, where it is the pragma's. (kcc passes its
  // options to kopt as flags, so an option's own origin is lost by here.)
  std::string Engine = Options.get("engine").Value, Origin;
  if (K.Pragma && K.Pragma->Engine) {
    Engine = frontend::spelling(*K.Pragma->Engine).str();
    Origin = " (the pragma's engine(" + Engine + ") at " + File.str() + ":" +
             std::to_string(K.Pragma->Line) + ":" + std::to_string(K.Pragma->Column) + ")";
  }
  if (Engine == "skills")
    return EngineChoice{"skills", std::nullopt};

  llvm::Expected<agents::LlmConfig> Config =
      agents::llmConfigFrom([&](llvm::StringRef Key) { return Options.get(Key).Value; }, GetEnv);
  if (Config)
    return EngineChoice{"llm", std::move(*Config)};
  if (Engine == "auto") { // Not configured: the engine that needs nothing.
    llvm::consumeError(Config.takeError());
    return EngineChoice{"skills", std::nullopt};
  }
  return llvm::createStringError("engine llm" + Origin +
                                 " is not configured: " + llvm::toString(Config.takeError()));
}

} // namespace kopt::driver
