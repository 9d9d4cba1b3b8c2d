#include "driver/config/KoptOptions.h"
#include "driver/config/CacheConfig.h"
#include "driver/config/KoptConfigFile.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <map>
#include <set>

using namespace kopt::driver;

namespace {
GetEnvFn environment(std::map<std::string, std::string> Vars) {
  return [Vars = std::move(Vars)](const char *Name) -> std::optional<std::string> {
    auto It = Vars.find(Name);
    if (It == Vars.end())
      return std::nullopt;
    return It->second;
  };
}

std::string errorOf(llvm::Error E) { return E ? llvm::toString(std::move(E)) : "success"; }

KoptOptions resolve(const std::vector<std::string> &Args, std::map<std::string, std::string> Env,
                    KoptOptions Options = {}) {
  SplitCommandLine Split = llvm::cantFail(splitKoptFlags(Args));
  llvm::cantFail(applyEnvironmentAndFlags(Options, environment(std::move(Env)), Split));
  return Options;
}
} // namespace

TEST(KoptOptionTable, FlagEnvironmentAndFileNamesDeriveFromOneKey) {
  std::set<std::string> Flags, Vars;
  for (const OptionSpec &S : allOptions()) {
    std::string Dashed = S.Key.str();
    std::replace(Dashed.begin(), Dashed.end(), '_', '-');
    EXPECT_EQ(S.flag(), "--kopt-" + Dashed);
    EXPECT_EQ(S.envVar(), "KOPT_" + S.Key.upper());
    EXPECT_TRUE(Flags.insert(S.flag()).second) << "duplicate " << S.flag();
    EXPECT_TRUE(Vars.insert(S.envVar()).second) << "duplicate " << S.envVar();
    EXPECT_FALSE(S.Help.empty()) << S.Key.str();
    // Every default is itself a valid value.
    KoptOptions Options;
    if (!S.Default.empty()) {
      EXPECT_EQ(errorOf(Options.set(S.Key, S.Default, OptionSource::CommandLine, "test")),
                "success")
          << S.Key.str();
    }
  }
}

TEST(KoptOptionTable, HasTheDocumentedOptions) {
  for (const char *Key :
       {"mode",           "engine",          "budget",      "build_budget", "cache_dir",
        "cache_max_size", "project_cache",   "fast_math",   "remote_cache", "queue",
        "strict",         "verbose",         "keep",        "llm_provider", "llm_base_url",
        "llm_model",      "llm_api_key_env", "llm_timeout", "llm_retries",  "llm_token_budget",
        "devices"})
    EXPECT_NE(findOption(Key), nullptr) << Key;
}

TEST(KoptOptions, KoptFlagsNeverReachTheCompiler) {
  SplitCommandLine Split = llvm::cantFail(
      splitKoptFlags({"-c", "--kopt-mode=cache-only", "a.cu", "--kopt-verbose", "-o", "a.o"}));
  EXPECT_EQ(Split.CompilerArgs, (std::vector<std::string>{"-c", "a.cu", "-o", "a.o"}));
  ASSERT_EQ(Split.KoptFlags.size(), 2u);
  EXPECT_EQ(Split.KoptFlags[0], (std::pair<std::string, std::string>{"mode", "cache-only"}));
  EXPECT_EQ(Split.KoptFlags[1], (std::pair<std::string, std::string>{"verbose", "true"}));
}

TEST(KoptOptions, UnknownFlagIsAnErrorWithASuggestion) {
  llvm::Expected<SplitCommandLine> Split = splitKoptFlags({"--kopt-mdoe=off"});
  ASSERT_FALSE(Split);
  EXPECT_EQ(llvm::toString(Split.takeError()),
            "unknown option '--kopt-mdoe'; did you mean '--kopt-mode'?");
}

TEST(KoptOptions, ValueOptionWithoutValueIsAnError) {
  llvm::Expected<SplitCommandLine> Split = splitKoptFlags({"--kopt-engine"});
  ASSERT_FALSE(Split);
  EXPECT_EQ(llvm::toString(Split.takeError()),
            "option '--kopt-engine' needs a value: --kopt-engine=VALUE");
}

TEST(KoptOptions, FlagBeatsEnvironmentBeatsFileBeatsDefault) {
  KoptOptions FromFile;
  ASSERT_EQ(errorOf(FromFile.set("mode", "off", OptionSource::ConfigFile, "f:1:1")), "success");
  ASSERT_EQ(errorOf(FromFile.set("engine", "llm", OptionSource::ConfigFile, "f:2:1")), "success");
  ASSERT_EQ(errorOf(FromFile.set("budget", "10s", OptionSource::ConfigFile, "f:3:1")), "success");

  KoptOptions O = resolve({"--kopt-mode=cache-only"},
                          {{"KOPT_MODE", "optimize"}, {"KOPT_ENGINE", "auto"}}, FromFile);
  EXPECT_EQ(O.get("mode").Value, "cache-only");
  EXPECT_EQ(O.get("mode").Source, OptionSource::CommandLine);
  EXPECT_EQ(O.get("engine").Value, "auto");
  EXPECT_EQ(O.get("engine").Source, OptionSource::Environment);
  EXPECT_EQ(O.get("budget").Value, "10s");
  EXPECT_EQ(O.get("budget").Origin, "f:3:1");
  EXPECT_EQ(O.get("keep").Source, OptionSource::Default);
  EXPECT_FALSE(O.keep());
}

TEST(KoptOptions, BooleansAcceptCommonSpellings) {
  EXPECT_TRUE(resolve({}, {{"KOPT_STRICT", "yes"}}).strict());
  EXPECT_TRUE(resolve({}, {{"KOPT_STRICT", "1"}}).strict());
  EXPECT_FALSE(resolve({"--kopt-strict=off"}, {{"KOPT_STRICT", "1"}}).strict());
  EXPECT_TRUE(resolve({"--kopt-keep"}, {}).keep());
}

TEST(KoptOptions, InvalidValuesNameTheirOriginAndTheChoices) {
  KoptOptions O;
  SplitCommandLine Split = llvm::cantFail(splitKoptFlags({"--kopt-engine=gpt"}));
  EXPECT_EQ(errorOf(applyEnvironmentAndFlags(O, environment({}), Split)),
            "--kopt-engine: invalid value 'gpt' for engine; expected one of skills, llm, auto");
  EXPECT_EQ(errorOf(applyEnvironmentAndFlags(O, environment({{"KOPT_BUDGET", "soon"}}), {})),
            "KOPT_BUDGET: invalid value 'soon' for budget; expected a duration such as 90s, 2m "
            "or 500ms");
}

TEST(KoptOptions, LlmOptions) {
  KoptOptions O = resolve({"--kopt-llm-model=gpt-4o", "--kopt-llm-retries=5"},
                          {{"KOPT_LLM_PROVIDER", "anthropic"},
                           {"KOPT_LLM_BASE_URL", "http://gpu-box:8000/v1"},
                           {"KOPT_LLM_API_KEY_ENV", "TEAM_LLM_KEY"}});
  EXPECT_EQ(O.get("llm_provider").Value, "anthropic");
  EXPECT_EQ(O.get("llm_base_url").Value, "http://gpu-box:8000/v1");
  EXPECT_EQ(O.get("llm_model").Value, "gpt-4o");
  EXPECT_EQ(O.get("llm_api_key_env").Value, "TEAM_LLM_KEY");
  EXPECT_EQ(O.get("llm_retries").Value, "5");
  EXPECT_EQ(errorOf(O.set("llm_retries", "many", OptionSource::CommandLine, "f")),
            "invalid value 'many' for llm_retries; expected a whole number");
  EXPECT_EQ(errorOf(O.set("llm_model", "", OptionSource::CommandLine, "f")),
            "invalid value '' for llm_model; expected a value");
}

TEST(KoptOptions, AKeyWhereItsVariableNameBelongsIsNeverEchoed) {
  KoptOptions O;
  std::string Message =
      errorOf(O.set("llm_api_key_env", "sk-proj-Abc123", OptionSource::ConfigFile, "f:1:1"));
  EXPECT_EQ(Message.find("Abc123"), std::string::npos) << Message;
  EXPECT_EQ(Message, "invalid value for llm_api_key_env (not shown); expected the name of an "
                     "environment variable such as OPENAI_API_KEY, not the key itself");
  // No option holds the key itself, so .kopt.yaml cannot carry it.
  EXPECT_EQ(findOption("llm_api_key"), nullptr);
}

namespace {
class ConfigFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-config", Dir));
    Root = std::string(Dir);
    ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/project/src/deep"));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }
  std::string write(const std::string &Relative, const std::string &Text) {
    std::string Path = Root + "/" + Relative;
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
    return Path;
  }
  std::string Root;
};
} // namespace

TEST_F(ConfigFileTest, FoundByWalkingUpFromTheSource) {
  std::string Config = write("project/.kopt.yaml", "mode: cache-only\n");
  EXPECT_EQ(findConfigFile(Root + "/project/src/deep").value_or("none"), Config);
  EXPECT_FALSE(findConfigFile(Root).has_value());
}

TEST_F(ConfigFileTest, ValuesLoadAndRelativePathsResolveAgainstTheFile) {
  std::string Config =
      write("project/.kopt.yaml", "# project settings\nmode: cache-only\ncache_dir: kopt-cache\n");
  KoptOptions O;
  ASSERT_EQ(errorOf(loadConfigFile(Config, O)), "success");
  EXPECT_EQ(O.mode(), "cache-only");
  EXPECT_EQ(O.get("mode").Origin, Config + ":2:7");
  EXPECT_EQ(O.get("cache_dir").Value, Root + "/project/kopt-cache");
}

TEST_F(ConfigFileTest, UnknownKeyHasPositionAndSuggestion) {
  std::string Config = write("project/.kopt.yaml", "mode: off\nengnie: llm\n");
  KoptOptions O;
  EXPECT_EQ(errorOf(loadConfigFile(Config, O)),
            Config + ":2:1: error: unknown option 'engnie'; did you mean 'engine'?");
}

TEST_F(ConfigFileTest, BadValueAndBadSyntaxHavePositions) {
  std::string Bad = write("project/.kopt.yaml", "strict: maybe\n");
  KoptOptions O;
  EXPECT_EQ(errorOf(loadConfigFile(Bad, O)),
            Bad + ":1:9: error: invalid value 'maybe' for strict; expected true or false");
  std::string Broken = write("project/src/.kopt.yaml", "mode: [off\n");
  std::string Message = errorOf(loadConfigFile(Broken, O));
  EXPECT_EQ(Message.rfind(Broken + ":", 0), 0u) << Message;
  EXPECT_NE(Message.find(": error: "), std::string::npos) << Message;
}

// A malformed remote_cache is refused naming where it came from: the file and
// line of a .kopt.yaml, the variable or the flag (issue 32: a value from the
// file was blamed on KOPT_REMOTE_CACHE).
TEST_F(ConfigFileTest, MalformedRemoteCacheNamesItsOrigin) {
  std::string Config = write("project/.kopt.yaml", "mode: cache-only\nremote_cache: redis//h\n");
  KoptOptions O;
  ASSERT_EQ(errorOf(loadConfigFile(Config, O)), "success");
  llvm::Expected<std::vector<kopt::memory::RemoteSpec>> FromFile =
      remoteSpecsFrom(O, environment({}));
  EXPECT_EQ(errorOf(FromFile.takeError()),
            Config + ":2:15: remote cache 'redis//h': expected a URL such as redis://host:6379 "
                     "or http://host/path");
  KoptOptions FromEnv = resolve({}, {{"KOPT_REMOTE_CACHE", "ftp://h"}}, O);
  EXPECT_EQ(errorOf(remoteSpecsFrom(FromEnv, environment({})).takeError()),
            "KOPT_REMOTE_CACHE: remote cache 'ftp://h': unknown scheme 'ftp' (known: redis, "
            "rediss, http, https)");
  KoptOptions FromFlag = resolve({"--kopt-remote-cache=redis://:${KOPT_UNSET_PW}@h"}, {}, O);
  EXPECT_EQ(errorOf(remoteSpecsFrom(FromFlag, environment({})).takeError()),
            "--kopt-remote-cache: remote cache 'redis://:********@h': the environment variable "
            "KOPT_UNSET_PW that holds its password is not set");
  KoptOptions Valid = resolve({"--kopt-remote-cache=redis://h|read-only"}, {}, O);
  llvm::Expected<std::vector<kopt::memory::RemoteSpec>> Specs =
      remoteSpecsFrom(Valid, environment({}));
  ASSERT_TRUE(bool(Specs)) << errorOf(Specs.takeError());
  EXPECT_EQ(Specs->size(), 1u);
}

TEST(KoptOptions, DevicesByFlagEnvironmentAndFile) {
  const OptionSpec *Devices = findOption("devices");
  ASSERT_NE(Devices, nullptr);
  EXPECT_EQ(Devices->flag(), "--kopt-devices");
  EXPECT_EQ(Devices->envVar(), "KOPT_DEVICES");
  EXPECT_EQ(resolve({}, {}).get("devices").Value, ""); // Every GPU.
  EXPECT_EQ(resolve({}, {{"KOPT_DEVICES", "1, 0"}}).get("devices").Value, "1,0");
  KoptOptions Flag = resolve({"--kopt-devices=2", "-c"}, {{"KOPT_DEVICES", "0,1"}});
  EXPECT_EQ(Flag.get("devices").Value, "2");
  EXPECT_EQ(Flag.get("devices").Origin, "--kopt-devices");
  KoptOptions O;
  EXPECT_EQ(errorOf(O.set("devices", "0,zero", OptionSource::CommandLine, "t")),
            "invalid value for devices: 'zero' is not a GPU: expected an ordinal (0, 1, ...) or a "
            "UUID (GPU-...), separated by commas");
  EXPECT_EQ(errorOf(O.set("devices", "1,01", OptionSource::CommandLine, "t")),
            "invalid value for devices: GPU '01' is named twice");
  EXPECT_EQ(errorOf(O.set("devices", "GPU-8c1f7e0a-11d2-4c4e-9e0b-2f5a6b7c8d9e,3",
                          OptionSource::CommandLine, "t")),
            "success");
}

TEST_F(ConfigFileTest, DevicesAsAListOrAText) {
  std::string List = write("project/.kopt.yaml", "devices: [0, 2]\n");
  KoptOptions O;
  ASSERT_EQ(errorOf(loadConfigFile(List, O)), "success");
  EXPECT_EQ(O.get("devices").Value, "0,2");
  std::string Text = write("project/src/.kopt.yaml", "devices: 1,3\n");
  ASSERT_EQ(errorOf(loadConfigFile(Text, O)), "success");
  EXPECT_EQ(O.get("devices").Value, "1,3");
  std::string Bad = write("project/src/deep/.kopt.yaml", "devices: [0, first]\n");
  EXPECT_EQ(errorOf(loadConfigFile(Bad, O)),
            Bad + ":1:10: error: invalid value for devices: 'first' is not a GPU: expected an "
                  "ordinal (0, 1, ...) or a UUID (GPU-...), separated by commas");
}
