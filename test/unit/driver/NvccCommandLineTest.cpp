// The model of nvcc's command line. Files live in memory (the environment's
// reader), so only the nvcc --help test touches the disk.
#include "driver/nvcc/NvccCommandLine.h"
#include "driver/nvcc/NvccLocator.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

using namespace kopt::driver;
using Strings = std::vector<std::string>;

namespace {

// An environment whose files live in a map, under the working directory /proj.
struct FakeEnvironment {
  std::map<std::string, std::string> Files; // Absolute path -> contents.
  std::optional<std::string> Prepend, Append;
  mutable Strings Reads;

  NvccParseEnvironment get() const {
    NvccParseEnvironment Env;
    Env.PrependFlags = Prepend;
    Env.AppendFlags = Append;
    Env.WorkingDirectory = "/proj";
    Env.ReadFile = [this](const std::string &Path) -> llvm::Expected<std::string> {
      Reads.push_back(Path);
      auto It = Files.find(Path);
      if (It == Files.end())
        return llvm::createStringError("No such file or directory");
      return It->second;
    };
    return Env;
  }
};

NvccCommandLine parse(const Strings &Args, const FakeEnvironment &Env = {}) {
  llvm::Expected<NvccCommandLine> CL = parseNvccCommandLine(Args, Env.get());
  if (!CL) {
    ADD_FAILURE() << "unexpected error: " << llvm::toString(CL.takeError());
    return {};
  }
  return std::move(*CL);
}

std::string parseError(const Strings &Args, const FakeEnvironment &Env = {}) {
  llvm::Expected<NvccCommandLine> CL = parseNvccCommandLine(Args, Env.get());
  if (CL)
    return "(no error)";
  return llvm::toString(CL.takeError());
}

#define EXPECT_CONTAINS(Haystack, Needle)                                                          \
  EXPECT_NE(std::string(Haystack).find(Needle), std::string::npos) << (Haystack)

Strings values(const std::vector<NvccValue> &Values) {
  Strings Out;
  for (const NvccValue &V : Values)
    Out.push_back(V.Value);
  return Out;
}

Strings inputPaths(const NvccCommandLine &CL) {
  Strings Out;
  for (const NvccInputFile &Input : CL.Inputs)
    Out.push_back(Input.Path);
  return Out;
}

Strings unknownArgs(const NvccCommandLine &CL) {
  Strings Out;
  for (const NvccUnknownOption &U : CL.Unknown)
    Out.push_back(U.Arg);
  return Out;
}

NvccInputKind kindOf(const Strings &Args) {
  NvccCommandLine CL = parse(Args);
  EXPECT_EQ(CL.Inputs.size(), 1u);
  return CL.Inputs.empty() ? NvccInputKind::Other : CL.Inputs.front().Kind;
}

// ---------------------------------------------------------------------------
// Expansion: the environment, options files, response files.

TEST(NvccExpansion, ArgsAreTheCommandLineWhenNothingExpands) {
  Strings Args = {"-c", "a.cu", "-o", "a.o"};
  EXPECT_EQ(parse(Args).Args, Args);
}

TEST(NvccExpansion, PrependFlagsComeBeforeAndAppendFlagsAfterTheCommandLine) {
  FakeEnvironment Env;
  Env.Prepend = "-DFIRST  -I/pre";
  Env.Append = "\t-DLAST\n";
  NvccCommandLine CL = parse({"-c", "a.cu"}, Env);
  EXPECT_EQ(CL.Args, (Strings{"-DFIRST", "-I/pre", "-c", "a.cu", "-DLAST"}));
  ASSERT_EQ(CL.Inputs.size(), 1u);
  EXPECT_EQ(CL.Inputs[0].ArgIndex, 3u);
}

TEST(NvccExpansion, EnvironmentFlagsGroupDoubleQuotedBlanksAndKeepTheQuotesLikeNvcc) {
  FakeEnvironment Env;
  Env.Prepend = R"(-I"/opt/my inc" -DMSG="hi there" -DQ='x)";
  NvccCommandLine CL = parse({"a.cu"}, Env);
  EXPECT_EQ(CL.Args, (Strings{R"(-I"/opt/my inc")", R"(-DMSG="hi there")", "-DQ='x", "a.cu"}));
  EXPECT_EQ(values(CL.IncludeDirs), (Strings{"/opt/my inc"})); // Paths lose their quotes.
  ASSERT_EQ(CL.Macros.size(), 2u);
  EXPECT_EQ(CL.Macros[0].Text, R"(MSG="hi there")"); // Macros keep them.
  EXPECT_EQ(CL.Macros[1].Text, "Q='x");
}

TEST(NvccExpansion, EmptyEnvironmentFlagsAddNothing) {
  FakeEnvironment Env;
  Env.Prepend = "";
  Env.Append = "   ";
  EXPECT_EQ(parse({"a.cu"}, Env).Args, (Strings{"a.cu"}));
}

TEST(NvccExpansion, PrependedOptionTakesItsValueFromTheCommandLine) {
  FakeEnvironment Env;
  Env.Prepend = "-I";
  NvccCommandLine CL = parse({"inc", "a.cu"}, Env);
  EXPECT_EQ(values(CL.IncludeDirs), (Strings{"inc"}));
  EXPECT_EQ(inputPaths(CL), (Strings{"a.cu"}));
}

TEST(NvccExpansion, OptionsFileIsExpandedInPlace) {
  FakeEnvironment Env;
  Env.Files["/proj/flags.txt"] = "-DA\n-I inc\n";
  NvccCommandLine CL = parse({"-c", "-optf", "flags.txt", "a.cu"}, Env);
  EXPECT_EQ(CL.Args, (Strings{"-c", "-DA", "-I", "inc", "a.cu"}));
  ASSERT_EQ(CL.Inputs.size(), 1u);
  EXPECT_EQ(CL.Inputs[0].ArgIndex, 4u);
  EXPECT_EQ(values(CL.IncludeDirs), (Strings{"inc"}));
}

TEST(NvccExpansion, OptionsFileInEverySpelling) {
  FakeEnvironment Env;
  Env.Files["/proj/a.txt"] = "-DA";
  Env.Files["/proj/b.txt"] = "-DB";
  Env.Files["/abs/c.txt"] = "-DC";
  NvccCommandLine CL = parse({"--options-file", "a.txt", "--options-file=b.txt", "-optf=/abs/c.txt",
                              "-optf", "a.txt,b.txt", "x.cu"},
                             Env);
  EXPECT_EQ(CL.Args, (Strings{"-DA", "-DB", "-DC", "-DA", "-DB", "x.cu"}));
}

TEST(NvccExpansion, ResponseFileIsExpandedInPlace) {
  FakeEnvironment Env;
  Env.Files["/proj/build/args.rsp"] = "-c\r\n-o a.o";
  NvccCommandLine CL = parse({"-DX", "@build/args.rsp", "a.cu"}, Env);
  EXPECT_EQ(CL.Args, (Strings{"-DX", "-c", "-o", "a.o", "a.cu"}));
  ASSERT_TRUE(CL.Output);
  EXPECT_EQ(CL.Output->Value, "a.o");
  EXPECT_EQ(CL.Output->ArgIndex, 2u);
}

TEST(NvccExpansion, NestedFilesExpandRecursivelyRelativeToTheWorkingDirectory) {
  FakeEnvironment Env;
  // nvcc resolves a name inside an options file against the working
  // directory, not against the file that names it.
  Env.Files["/proj/sub/outer.txt"] = "-DOUTER -optf inner.txt @sub/more.rsp";
  Env.Files["/proj/inner.txt"] = "-DINNER";
  Env.Files["/proj/sub/more.rsp"] = "-DMORE";
  NvccCommandLine CL = parse({"-optf", "sub/outer.txt", "-DAFTER"}, Env);
  EXPECT_EQ(CL.Args, (Strings{"-DOUTER", "-DINNER", "-DMORE", "-DAFTER"}));
}

TEST(NvccExpansion, AppendFlagsMayNameAnOptionsFile) {
  FakeEnvironment Env;
  Env.Append = "-optf late.txt";
  Env.Files["/proj/late.txt"] = "-DLATE";
  EXPECT_EQ(parse({"a.cu"}, Env).Args, (Strings{"a.cu", "-DLATE"}));
}

TEST(NvccExpansion, OptionsFileQuotesGroupAndBackslashesEscapeLikeNvcc) {
  FakeEnvironment Env;
  Env.Files["/proj/o.txt"] = R"("-DA=a b" -I'x -DB=c\ d "" -DC="q\"t")";
  NvccCommandLine CL = parse({"-optf", "o.txt"}, Env);
  // Single quotes are ordinary characters for nvcc.
  EXPECT_EQ(CL.Args, (Strings{"-DA=a b", "-I'x", "-DB=c d", "", R"(-DC=q"t)"}));
}

TEST(NvccExpansion, ResponseFileQuotesLikeAShell) {
  FakeEnvironment Env;
  Env.Files["/proj/r.rsp"] = R"('-DA=a b' "-DB=c d" -DC=e\ f -I'/x y')";
  EXPECT_EQ(parse({"@r.rsp"}, Env).Args, (Strings{"-DA=a b", "-DB=c d", "-DC=e f", "-I/x y"}));
}

TEST(NvccExpansion, ValueIsNeverExpanded) {
  FakeEnvironment Env;
  NvccCommandLine CL = parse({"-I", "-optf", "o7.txt", "-o", "@out", "-MF=@dep"}, Env);
  EXPECT_TRUE(Env.Reads.empty());
  EXPECT_EQ(values(CL.IncludeDirs), (Strings{"-optf"}));
  EXPECT_EQ(inputPaths(CL), (Strings{"o7.txt"}));
  ASSERT_TRUE(CL.Output);
  EXPECT_EQ(CL.Output->Value, "@out");
}

TEST(NvccExpansion, MissingOptionsFileIsAnError) {
  std::string Error = parseError({"-optf", "nope.txt", "a.cu"});
  EXPECT_CONTAINS(Error, "could not open options file 'nope.txt'");
  EXPECT_CONTAINS(Error, "No such file or directory");
  EXPECT_CONTAINS(parseError({"@gone.rsp"}), "could not open response file 'gone.rsp'");
}

TEST(NvccExpansion, OptionsFileWithoutANameIsAnError) {
  EXPECT_CONTAINS(parseError({"a.cu", "-optf"}), "argument expected after '-optf'");
}

TEST(NvccExpansion, FileThatIncludesItselfIsAnError) {
  FakeEnvironment Env;
  Env.Files["/proj/a.txt"] = "-DA -optf b.txt";
  Env.Files["/proj/b.txt"] = "-DB @./a.txt";
  std::string Error = parseError({"-optf", "a.txt"}, Env);
  EXPECT_CONTAINS(Error, "includes itself");
  EXPECT_CONTAINS(Error, "'a.txt' -> 'b.txt' -> './a.txt'");
}

TEST(NvccExpansion, SameFileTwiceSideBySideIsNoCycle) {
  FakeEnvironment Env;
  Env.Files["/proj/a.txt"] = "-DA";
  EXPECT_EQ(parse({"-optf", "a.txt", "-optf", "a.txt"}, Env).Args, (Strings{"-DA", "-DA"}));
}

FakeEnvironment chainOfFiles(unsigned Count) {
  FakeEnvironment Env;
  for (unsigned I = 1; I <= Count; ++I)
    Env.Files["/proj/d" + std::to_string(I) + ".txt"] =
        "-DL" + std::to_string(I) +
        (I < Count ? " -optf d" + std::to_string(I + 1) + ".txt" : std::string());
  return Env;
}

TEST(NvccExpansion, FilesNestFifteenDeepLikeNvcc) {
  EXPECT_EQ(parse({"-optf", "d1.txt"}, chainOfFiles(MaxNvccFileNesting)).Args.size(),
            MaxNvccFileNesting);
  std::string Error = parseError({"-optf", "d1.txt"}, chainOfFiles(MaxNvccFileNesting + 1));
  EXPECT_CONTAINS(Error, "options file 'd16.txt' is nested more than 15 files deep");
}

TEST(NvccExpansion, OptionAtTheEndOfAnOptionsFileTakesNoValueFromOutside) {
  FakeEnvironment Env;
  Env.Files["/proj/o8.txt"] = "-DX -I";
  EXPECT_CONTAINS(parseError({"-optf", "o8.txt", "foo"}, Env),
                  "argument expected after '-I' at the end of options file 'o8.txt'");
}

TEST(NvccExpansion, CurrentEnvironmentReadsTheProcessEnvironmentAndDisk) {
  ::setenv("NVCC_PREPEND_FLAGS", "-DFROM_ENV", 1);
  ::unsetenv("NVCC_APPEND_FLAGS");
  NvccParseEnvironment Env = NvccParseEnvironment::current();
  ::unsetenv("NVCC_PREPEND_FLAGS");
  EXPECT_EQ(Env.PrependFlags, "-DFROM_ENV");
  EXPECT_FALSE(Env.AppendFlags);
  EXPECT_FALSE(Env.WorkingDirectory.empty());

  llvm::SmallString<128> Path;
  int FD = -1;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("kopt-optf", "txt", FD, Path));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << "-DFROM_FILE";
  }
  llvm::Expected<NvccCommandLine> CL = parseNvccCommandLine({"-optf", std::string(Path)}, Env);
  llvm::sys::fs::remove(Path);
  ASSERT_TRUE(bool(CL)) << llvm::toString(CL.takeError());
  EXPECT_EQ(CL->Args, (Strings{"-DFROM_ENV", "-DFROM_FILE"}));
  std::string Error = llvm::toString(Env.ReadFile("/nonexistent/kopt.optf").takeError());
  EXPECT_CONTAINS(Error, "o such file");
}

TEST(NvccExpansion, SplittersHandleEdgeCases) {
  EXPECT_EQ(splitNvccEnvironmentFlags(R"(  a\b  "c d"e  )"), (Strings{"a\\b", R"("c d"e)"}));
  EXPECT_EQ(splitNvccOptionsFile("a\\\\b tail\\"), (Strings{"a\\b", "tail"}));
  EXPECT_EQ(splitResponseFile(""), Strings{});
}

// ---------------------------------------------------------------------------
// The option table.

// The options `nvcc --help` prints: "--long <value>,...   (-short)".
struct HelpOption {
  std::string Long, Short, ValueSpec;
};

std::vector<HelpOption> parseNvccHelp(llvm::StringRef Help) {
  std::vector<HelpOption> Options;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Help.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    if (!Line.starts_with("--"))
      continue;
    std::istringstream Words(Line.str());
    std::vector<std::string> Tokens;
    for (std::string W; Words >> W;)
      Tokens.push_back(W);
    HelpOption O;
    O.Long = Tokens.front();
    if (Tokens.size() > 1 && Tokens.back().starts_with("(-") && Tokens.back().ends_with(")"))
      O.Short = Tokens.back().substr(1, Tokens.back().size() - 2);
    for (size_t I = 1; I + 1 < Tokens.size(); ++I)
      O.ValueSpec += (O.ValueSpec.empty() ? "" : " ") + Tokens[I];
    Options.push_back(O);
  }
  return Options;
}

std::optional<std::string> nvccHelpText() {
  llvm::Expected<std::string> Nvcc = locateRealNvcc(NvccSearchEnvironment::current());
  if (!Nvcc) {
    llvm::consumeError(Nvcc.takeError());
    return std::nullopt;
  }
  llvm::SmallString<128> OutPath;
  if (llvm::sys::fs::createTemporaryFile("kopt-nvcc-help", "txt", OutPath))
    return std::nullopt;
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(OutPath),
                                                std::nullopt};
  llvm::StringRef Argv[] = {*Nvcc, "--help"};
  int Status = llvm::sys::ExecuteAndWait(*Nvcc, Argv, std::nullopt, Redirects);
  auto Buffer = llvm::MemoryBuffer::getFile(OutPath);
  llvm::sys::fs::remove(OutPath);
  if (Status != 0 || !Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

TEST(NvccOptionTable, KnowsEveryOptionNvccHelpPrints) {
  std::optional<std::string> Help = nvccHelpText();
  if (!Help)
    GTEST_SKIP() << "no nvcc to ask for --help";
  std::vector<HelpOption> Printed = parseNvccHelp(*Help);
  ASSERT_GT(Printed.size(), 100u) << "nvcc --help no longer looks as expected";

  for (const HelpOption &H : Printed) {
    SCOPED_TRACE(H.Long + " " + H.ValueSpec + " (" + H.Short + ")");
    const NvccOption *O = findNvccOption(H.Long);
    ASSERT_NE(O, nullptr) << "not in the table";
    EXPECT_TRUE(O->Documented);
    if (!H.Short.empty())
      EXPECT_EQ(findNvccOption(H.Short), O) << "short name";
    else
      EXPECT_TRUE(O->Short.empty());
    // nvcc asks for a value after these although its help shows none.
    bool TakesValue =
        !H.ValueSpec.empty() || H.Long == "--qpp-config" || H.Long == "--dependency-output";
    EXPECT_EQ(O->takesValue(), TakesValue);
    EXPECT_EQ(O->Value == NvccValueKind::List, llvm::StringRef(H.ValueSpec).ends_with(",..."));
  }
  // And the table claims no documented option that the help does not print.
  for (const NvccOption &O : nvccOptions()) {
    if (!O.Documented)
      continue;
    bool Found = std::any_of(Printed.begin(), Printed.end(),
                             [&](const HelpOption &H) { return H.Long == "--" + O.Long.str(); });
    EXPECT_TRUE(Found) << "--" << O.Long.str() << " is marked documented";
  }
}

TEST(NvccOptionTable, NoSpellingIsListedTwice) {
  std::set<std::string> Seen;
  for (const NvccOption &O : nvccOptions()) {
    for (std::string Spelling :
         {(llvm::Twine("--") + O.Long).str(), (llvm::Twine("-") + O.Short).str()}) {
      if (Spelling != "--" && Spelling != "-") {
        EXPECT_TRUE(Seen.insert(Spelling).second) << Spelling;
      }
    }
    EXPECT_TRUE(!O.Joined || O.Short.size() == 1) << O.Short.str();
  }
}

TEST(NvccOptionTable, LongNamesTakeTwoDashesAndShortNamesOne) {
  EXPECT_TRUE(matchNvccOption("--include-path"));
  EXPECT_TRUE(matchNvccOption("-I"));
  EXPECT_FALSE(matchNvccOption("-include-path"));
  EXPECT_FALSE(matchNvccOption("--I"));
  EXPECT_FALSE(matchNvccOption("--output")); // No abbreviations.
  EXPECT_FALSE(matchNvccOption("--"));
  EXPECT_FALSE(matchNvccOption("-"));
  // Where the short name is the long one, both spellings work.
  EXPECT_EQ(matchNvccOption("-cubin")->Option, matchNvccOption("--cubin")->Option);
}

TEST(NvccOptionTable, OnlyOneLetterOptionsTakeJoinedValues) {
  for (const char *Arg : {"-Iinc", "-DX=1", "-UX", "-Llib", "-lm", "-O3", "-t4"}) {
    std::optional<NvccOptionMatch> M = matchNvccOption(Arg);
    ASSERT_TRUE(M) << Arg;
    EXPECT_EQ(M->InlineValue, llvm::StringRef(Arg).drop_front(2)) << Arg;
  }
  for (const char *Arg :
       {"-ofoo.o", "-xcu", "-isystemfoo", "-includefoo.h", "-MFx.d", "-archsm_90"})
    EXPECT_FALSE(matchNvccOption(Arg)) << Arg;
}

TEST(NvccOptionTable, ExactNamesWinOverJoinedValues) {
  EXPECT_EQ(matchNvccOption("-lineinfo")->Option->Id, NvccOptionId::GenerateLineInfo);
  EXPECT_EQ(matchNvccOption("-lib")->Option->Id, NvccOptionId::Lib);
  EXPECT_EQ(matchNvccOption("-Ofc=max")->Option->Long, "Ofast-compile");
  std::optional<NvccOptionMatch> Joined = matchNvccOption("-Ofcmax"); // nvcc: -O "fcmax".
  EXPECT_EQ(Joined->Option->Id, NvccOptionId::Optimize);
  EXPECT_EQ(Joined->InlineValue, "fcmax");
}

TEST(NvccOptionTable, EqualsSeparatesTheValueOfAnyOption) {
  std::optional<NvccOptionMatch> M = matchNvccOption("-I=inc");
  EXPECT_EQ(M->InlineValue, "inc");
  M = matchNvccOption("--generate-code=arch=compute_90,code=sm_90");
  EXPECT_EQ(M->Option->Id, NvccOptionId::GenerateCode);
  EXPECT_EQ(M->InlineValue, "arch=compute_90,code=sm_90");
}

// ---------------------------------------------------------------------------
// Values and inputs.

TEST(NvccCommandLine, EveryOptionThatTakesAValueConsumesTheNextArgument) {
  for (const NvccOption &O : nvccOptions()) {
    if (!O.takesValue() || O.Id == NvccOptionId::OptionsFile)
      continue;
    std::string Value = O.Id == NvccOptionId::GenerateCode            ? "arch=compute_90,code=sm_90"
                        : O.Id == NvccOptionId::RelocatableDeviceCode ? "true"
                                                                      : "value.cu";
    for (auto [Dashes, Name] : {std::pair{"--", O.Long}, std::pair{"-", O.Short}}) {
      if (Name.empty())
        continue;
      std::string Spelling = Dashes + Name.str();
      for (const Strings &Args :
           {Strings{Spelling, Value, "a.cu"}, Strings{Spelling + "=" + Value, "a.cu"}}) {
        NvccCommandLine CL = parse(Args);
        EXPECT_EQ(inputPaths(CL), (Strings{"a.cu"})) << Args[0];
        EXPECT_TRUE(CL.Unknown.empty()) << Args[0];
        ASSERT_EQ(CL.Options.size(), 1u) << Args[0];
        EXPECT_EQ(CL.Options[0].Value, Value) << Args[0];
        EXPECT_EQ(CL.Options[0].ArgCount, Args.size() - 1) << Args[0];
      }
    }
  }
}

TEST(NvccCommandLine, ValuesAreNeverMistakenForInputs) {
  NvccCommandLine CL = parse({"-o",
                              "out.cu",
                              "-I",
                              "inc.cu",
                              "-isystem",
                              "sys.cu",
                              "-include",
                              "pre.cu",
                              "-ccbin",
                              "g++.cu",
                              "-arch",
                              "sm_90",
                              "-code",
                              "sm_90",
                              "-gencode",
                              "arch=compute_90,code=sm_90",
                              "-Xcompiler",
                              "-fPIC",
                              "-Xptxas",
                              "-v",
                              "-MF",
                              "dep.cu",
                              "-MT",
                              "t.cu",
                              "-keep-dir",
                              "kd.cu",
                              "-maxrregcount",
                              "32",
                              "-std",
                              "c++17",
                              "-x",
                              "cu",
                              "-rdc",
                              "true",
                              "-odir",
                              "d.cu",
                              "-Xcudafe",
                              "x.cu",
                              "-O",
                              "3",
                              "-D",
                              "M.cu",
                              "real.cu"});
  EXPECT_EQ(inputPaths(CL), (Strings{"real.cu"}));
  EXPECT_EQ(unknownArgs(CL), Strings{});
}

TEST(NvccCommandLine, SeparateValueIsTakenEvenWhenItLooksLikeAnOption) {
  NvccCommandLine CL = parse({"-o", "-c", "-Xcompiler", "-O2", "a.cu"});
  ASSERT_TRUE(CL.Output);
  EXPECT_EQ(CL.Output->Value, "-c");
  EXPECT_EQ(CL.Mode, NvccMode::Link);
  EXPECT_EQ(CL.CompilerOptions.at(0).Raw, "-O2");
}

TEST(NvccCommandLine, OptionalValueIsTakenOnlyWhenItIsNoOption) {
  NvccCommandLine CL = parse({"-Ofc", "-c", "a.cu", "--Ofast-compile", "max", "-hls"});
  ASSERT_EQ(CL.Options.size(), 4u);
  EXPECT_EQ(CL.Options[0].Value, "");
  EXPECT_EQ(CL.Options[0].ArgCount, 1u);
  EXPECT_EQ(CL.Mode, NvccMode::Compile);
  EXPECT_EQ(CL.Options[2].Value, "max");
  EXPECT_EQ(CL.Options[2].ArgCount, 2u);
  EXPECT_EQ(CL.Options[3].Option->Long, "host-linker-script");
  EXPECT_EQ(inputPaths(CL), (Strings{"a.cu"}));
  // Like nvcc ("Value 'a.cu' is not defined for option 'Ofast-compile'").
  EXPECT_EQ(parse({"-Ofc", "a.cu"}).Inputs.size(), 0u);
}

TEST(NvccCommandLine, MissingValueAtTheEndIsAnError) {
  EXPECT_CONTAINS(parseError({"a.cu", "-o"}), "argument expected after '-o'");
  EXPECT_CONTAINS(parseError({"a.cu", "--output-file"}), "argument expected after '--output-file'");
  EXPECT_CONTAINS(parseError({"-Xcompiler"}), "argument expected after '-Xcompiler'");
}

TEST(NvccCommandLine, FlagGivenAValueIsAnError) {
  EXPECT_CONTAINS(parseError({"--verbose=1"}), "no argument expected after '--verbose'");
  EXPECT_CONTAINS(parseError({"-dc=true"}), "no argument expected after '-dc'");
}

TEST(NvccCommandLine, UnknownOptionsAreKeptInOrderAndTakeNoValue) {
  NvccCommandLine CL = parse({"-fPIC", "-foo", "bar.cu", "--weird=1", "-Wall", "--", "-c"});
  EXPECT_EQ(unknownArgs(CL), (Strings{"-fPIC", "-foo", "--weird=1", "-Wall", "--"}));
  std::vector<size_t> Indices;
  for (const NvccUnknownOption &U : CL.Unknown)
    Indices.push_back(U.ArgIndex);
  EXPECT_EQ(Indices, (std::vector<size_t>{0, 1, 3, 4, 5}));
  // "-foo bar.cu": an unknown option takes no value, so bar.cu is an input.
  EXPECT_EQ(inputPaths(CL), (Strings{"bar.cu"}));
  EXPECT_EQ(CL.Mode, NvccMode::Compile);
}

TEST(NvccCommandLine, InputKindsFollowTheExtension) {
  const std::pair<const char *, NvccInputKind> Cases[] = {
      {"k.cu", NvccInputKind::CudaSource},   {"k.cup", NvccInputKind::CudaSource},
      {"m.c", NvccInputKind::CSource},       {"m.i", NvccInputKind::CSource},
      {"m.cpp", NvccInputKind::CxxSource},   {"m.cc", NvccInputKind::CxxSource},
      {"m.cxx", NvccInputKind::CxxSource},   {"m.C", NvccInputKind::CxxSource},
      {"m.ii", NvccInputKind::CxxSource},    {"m.o", NvccInputKind::Object},
      {"m.obj", NvccInputKind::Object},      {"libm.a", NvccInputKind::Archive},
      {"m.lib", NvccInputKind::Archive},     {"libm.so", NvccInputKind::SharedLibrary},
      {"k.ptx", NvccInputKind::Ptx},         {"k.cubin", NvccInputKind::Cubin},
      {"k.fatbin", NvccInputKind::Fatbin},   {"k.CU", NvccInputKind::Other},
      {"libm.so.1", NvccInputKind::Other},   {"noext", NvccInputKind::Other},
      {"dir.cu/file", NvccInputKind::Other},
  };
  for (const auto &[Path, Kind] : Cases)
    EXPECT_EQ(kindOf({"-c", Path}), Kind) << Path;
}

TEST(NvccCommandLine, XCuMakesEveryInputACudaSourceWhereverItStands) {
  // nvcc applies -x to all inputs, those before it included, even objects.
  NvccCommandLine CL = parse({"b.cpp", "-x", "cu", "c.c", "d.o"});
  ASSERT_EQ(CL.Inputs.size(), 3u);
  for (const NvccInputFile &Input : CL.Inputs)
    EXPECT_EQ(Input.Kind, NvccInputKind::CudaSource) << Input.Path;
  EXPECT_EQ(kindOf({"--x=cu", "m.cpp"}), NvccInputKind::CudaSource);
  EXPECT_EQ(kindOf({"-x=c++", "k.cu"}), NvccInputKind::CxxSource);
  EXPECT_EQ(kindOf({"-x", "c", "k.cu"}), NvccInputKind::CSource);
}

TEST(NvccCommandLine, LastXWins) {
  NvccCommandLine CL = parse({"-x", "cu", "a.cpp", "-x", "c++", "b.cu"});
  EXPECT_EQ(CL.Inputs.at(0).Kind, NvccInputKind::CxxSource);
  EXPECT_EQ(CL.Inputs.at(1).Kind, NvccInputKind::CxxSource);
  ASSERT_TRUE(CL.Language);
  EXPECT_EQ(CL.Language->Value, "c++");
}

TEST(NvccCommandLine, XNoneGoesBackToExtensions) {
  NvccCommandLine CL = parse({"-x", "cu", "a.cpp", "-x", "none", "b.cu"});
  EXPECT_EQ(CL.Inputs.at(0).Kind, NvccInputKind::CxxSource);
  EXPECT_EQ(CL.Inputs.at(1).Kind, NvccInputKind::CudaSource);
  EXPECT_FALSE(CL.Language);
}

TEST(NvccCommandLine, DashAloneIsAnInput) {
  NvccCommandLine CL = parse({"-x", "cu", "-c", "-"});
  EXPECT_EQ(inputPaths(CL), (Strings{"-"}));
  EXPECT_TRUE(CL.Unknown.empty());
}

// ---------------------------------------------------------------------------
// Modes.

TEST(NvccCommandLine, ModeIsLinkByDefault) { EXPECT_EQ(parse({"a.cu"}).Mode, NvccMode::Link); }

TEST(NvccCommandLine, EachPhaseOptionSelectsItsMode) {
  const std::pair<const char *, NvccMode> Cases[] = {
      {"-c", NvccMode::Compile},
      {"--compile", NvccMode::Compile},
      {"-dc", NvccMode::DeviceCompile},
      {"--device-c", NvccMode::DeviceCompile},
      {"-dw", NvccMode::DeviceWholeProgram},
      {"--device-w", NvccMode::DeviceWholeProgram},
      {"-dlink", NvccMode::DeviceLink},
      {"--device-link", NvccMode::DeviceLink},
      {"-E", NvccMode::Preprocess},
      {"--preprocess", NvccMode::Preprocess},
      {"-M", NvccMode::GenerateDependencies},
      {"--generate-dependencies", NvccMode::GenerateDependencies},
      {"-MM", NvccMode::GenerateDependencies},
      {"--generate-nonsystem-dependencies", NvccMode::GenerateDependencies},
      {"-ptx", NvccMode::Ptx},
      {"--ptx", NvccMode::Ptx},
      {"-cubin", NvccMode::Cubin},
      {"-fatbin", NvccMode::Fatbin},
      {"-cuda", NvccMode::Cuda},
      {"-ltoir", NvccMode::LtoIr},
      {"-optix-ir", NvccMode::OptixIr},
      {"-lib", NvccMode::Lib},
      {"--lib", NvccMode::Lib},
      {"-run", NvccMode::Run},
      {"-link", NvccMode::Link},
  };
  for (const auto &[Flag, Mode] : Cases)
    EXPECT_EQ(parse({Flag, "a.cu"}).Mode, Mode) << Flag;
}

TEST(NvccCommandLine, PhaseThatStopsEarliestWinsWhateverTheOrder) {
  EXPECT_EQ(parse({"-c", "-E", "a.cu"}).Mode, NvccMode::Preprocess);
  EXPECT_EQ(parse({"-E", "-c", "a.cu"}).Mode, NvccMode::Preprocess);
  EXPECT_EQ(parse({"-E", "-M", "a.cu"}).Mode, NvccMode::GenerateDependencies);
  EXPECT_EQ(parse({"-c", "-ptx", "a.cu"}).Mode, NvccMode::Ptx);
  EXPECT_EQ(parse({"-cubin", "-ptx", "a.cu"}).Mode, NvccMode::Ptx);
  EXPECT_EQ(parse({"-c", "-dc", "a.cu"}).Mode, NvccMode::DeviceCompile);
  EXPECT_EQ(parse({"-dlink", "-c", "a.cu"}).Mode, NvccMode::Compile);
  EXPECT_EQ(parse({"-run", "-c", "a.cu"}).Mode, NvccMode::Compile);
}

// ---------------------------------------------------------------------------
// The modeled options.

TEST(NvccCommandLine, OutputInEverySpellingAndTheLastWins) {
  for (const Strings &Args : {Strings{"-o", "x.o"}, Strings{"-o=x.o"},
                              Strings{"--output-file", "x.o"}, Strings{"--output-file=x.o"}}) {
    NvccCommandLine CL = parse(Args);
    ASSERT_TRUE(CL.Output) << Args[0];
    EXPECT_EQ(CL.Output->Value, "x.o");
    EXPECT_EQ(CL.Output->ArgIndex, 0u);
  }
  NvccCommandLine CL = parse({"-o", "first.o", "a.cu", "-o", "last.o"});
  EXPECT_EQ(CL.Output->Value, "last.o");
  EXPECT_EQ(CL.Output->ArgIndex, 3u);
}

TEST(NvccCommandLine, IncludeDirsInEverySpellingAndCommaList) {
  NvccCommandLine CL = parse({"-I", "a", "-Ib", "-I=c", "--include-path", "d,e", "--include-path=f",
                              "-isystem", "s1,s2", "--system-include=s3", "-I", R"("g,h")"});
  EXPECT_EQ(values(CL.IncludeDirs), (Strings{"a", "b", "c", "d", "e", "f", "g,h"}));
  EXPECT_EQ(values(CL.SystemIncludeDirs), (Strings{"s1", "s2", "s3"}));
  EXPECT_EQ(CL.IncludeDirs[3].ArgIndex, 4u);
}

TEST(NvccCommandLine, DefinesAndUndefinesKeepTheirOrder) {
  NvccCommandLine CL =
      parse({"-DA=1", "-U", "A", "--define-macro", "B,C=2", "--undefine-macro=B", "-D", "A=(1,2)"});
  Strings Seen;
  for (const NvccMacro &M : CL.Macros)
    Seen.push_back((M.Define ? "D " : "U ") + M.Text);
  // nvcc splits -D values at commas, parentheses or not.
  EXPECT_EQ(Seen, (Strings{"D A=1", "U A", "D B", "D C=2", "U B", "D A=(1", "D 2)"}));
}

TEST(NvccCommandLine, CommaListsSplitLikeNvcc) {
  EXPECT_EQ(splitNvccList("a,b", false), (Strings{"a", "b"}));
  EXPECT_EQ(splitNvccList(R"(A="x,y")", false), (Strings{R"(A="x,y")"}));
  EXPECT_EQ(splitNvccList(R"(-Wl\,-rpath\,/x,-fPIC)", false), (Strings{"-Wl,-rpath,/x", "-fPIC"}));
  EXPECT_EQ(splitNvccList(",a,,b,", false), (Strings{"a", "b"}));
  EXPECT_EQ(splitNvccList(R"("my dir",other)", true), (Strings{"my dir", "other"}));
  EXPECT_EQ(splitNvccList("", false), Strings{});
}

TEST(NvccCommandLine, PreIncludesAndStd) {
  NvccCommandLine CL =
      parse({"-include", "a.h,b.h", "--pre-include=c.h", "-std", "c++14", "--std=c++20", "x.cu"});
  EXPECT_EQ(values(CL.PreIncludes), (Strings{"a.h", "b.h", "c.h"}));
  ASSERT_TRUE(CL.Std);
  EXPECT_EQ(CL.Std->Value, "c++20");
  EXPECT_EQ(inputPaths(CL), (Strings{"x.cu"}));
}

TEST(NvccCommandLine, XcompilerKeepsTheRawValueAndSplitsCommaLists) {
  NvccCommandLine CL =
      parse({"-Xcompiler", "-fPIC,-Wall", "-Xcompiler=-O2", "--compiler-options", "-fopenmp",
             R"(--compiler-options=-Wl\,-rpath\,/x,-g)", "-Xcompiler", R"(-DX="a,b")"});
  ASSERT_EQ(CL.CompilerOptions.size(), 5u);
  EXPECT_EQ(CL.CompilerOptions[0].Raw, "-fPIC,-Wall");
  EXPECT_EQ(CL.CompilerOptions[0].Items, (Strings{"-fPIC", "-Wall"}));
  EXPECT_EQ(CL.CompilerOptions[0].ArgIndex, 0u);
  EXPECT_EQ(CL.CompilerOptions[1].Items, (Strings{"-O2"}));
  EXPECT_EQ(CL.CompilerOptions[1].ArgIndex, 2u);
  EXPECT_EQ(CL.CompilerOptions[2].Items, (Strings{"-fopenmp"}));
  EXPECT_EQ(CL.CompilerOptions[3].Items, (Strings{"-Wl,-rpath,/x", "-g"}));
  EXPECT_EQ(CL.CompilerOptions[4].Items, (Strings{R"(-DX="a,b")"}));
  EXPECT_TRUE(CL.Inputs.empty());
}

TEST(NvccCommandLine, PtxasLinkerAndNvlinkOptions) {
  NvccCommandLine CL = parse({"-Xptxas", "-v", "--ptxas-options=-O3,-warn-spills", "-Xlinker",
                              "-rpath,/opt/lib", "-Xnvlink", "--verbose", "--nvlink-options=-w"});
  ASSERT_EQ(CL.PtxasOptions.size(), 2u);
  EXPECT_EQ(CL.PtxasOptions[0].Items, (Strings{"-v"}));
  EXPECT_EQ(CL.PtxasOptions[1].Items, (Strings{"-O3", "-warn-spills"}));
  ASSERT_EQ(CL.LinkerOptions.size(), 1u);
  EXPECT_EQ(CL.LinkerOptions[0].Items, (Strings{"-rpath", "/opt/lib"}));
  ASSERT_EQ(CL.NvlinkOptions.size(), 2u);
  EXPECT_EQ(CL.NvlinkOptions[0].Raw, "--verbose");
  EXPECT_EQ(CL.NvlinkOptions[1].Raw, "-w");
  EXPECT_TRUE(CL.Inputs.empty());
}

TEST(NvccCommandLine, GpuArchitectureAndCodeInEverySpelling) {
  NvccCommandLine CL =
      parse({"-arch", "sm_90", "-arch=sm_90a", "--gpu-architecture", "compute_90",
             "--gpu-architecture=native", "-code", "sm_90,compute_90", "--gpu-code=sm_100f"});
  EXPECT_EQ(values(CL.GpuArchitectures), (Strings{"sm_90", "sm_90a", "compute_90", "native"}));
  EXPECT_EQ(values(CL.GpuCodes), (Strings{"sm_90", "compute_90", "sm_100f"}));
}

TEST(NvccCommandLine, GenerateCodeInEverySpelling) {
  NvccCommandLine CL =
      parse({"-gencode", "arch=compute_80,code=sm_80", "-gencode=arch=compute_86,code=sm_86",
             "--generate-code", "arch=compute_90,code=[sm_90,compute_90]",
             "--generate-code=arch=compute_100,code=\"sm_100,compute_100\"", "-gencode",
             " code = sm_120 , , arch = compute_120 ", "a.cu"});
  ASSERT_EQ(CL.GenerateCodes.size(), 5u);
  EXPECT_EQ(CL.GenerateCodes[0].Arch, "compute_80");
  EXPECT_EQ(CL.GenerateCodes[0].Codes, (Strings{"sm_80"}));
  EXPECT_EQ(CL.GenerateCodes[1].Codes, (Strings{"sm_86"}));
  EXPECT_EQ(CL.GenerateCodes[1].ArgIndex, 2u);
  EXPECT_EQ(CL.GenerateCodes[2].Codes, (Strings{"sm_90", "compute_90"}));
  EXPECT_EQ(CL.GenerateCodes[3].Arch, "compute_100");
  EXPECT_EQ(CL.GenerateCodes[3].Codes, (Strings{"sm_100", "compute_100"}));
  EXPECT_EQ(CL.GenerateCodes[4].Arch, "compute_120");
  EXPECT_EQ(CL.GenerateCodes[4].Codes, (Strings{"sm_120"}));
  EXPECT_EQ(inputPaths(CL), (Strings{"a.cu"}));
}

TEST(NvccCommandLine, MalformedGenerateCodeIsAnError) {
  const std::pair<const char *, const char *> Cases[] = {
      {"foo", "'foo' is not in 'keyword=value' format"},
      {"arch=compute_90", "missing code"},
      {"code=sm_90", "missing architecture"},
      {"arch=compute_90,code=sm_90,arch=compute_80", "redefinition of keyword 'arch'"},
      {"arch=compute_90,code=sm_90,foo=bar", "keyword 'foo' is not defined"},
      {"arch=compute_90,code=sm_90,compute_90", "'compute_90' is not in 'keyword=value' format"},
      {"arch=compute_90,code=[sm_90", "stray '[' character"},
      {"arch=compute_90,code=", "keyword 'code' has an empty value"},
      {"arch=[compute_80,compute_90],code=sm_90", "arch takes one architecture"},
  };
  for (const auto &[Value, Message] : Cases) {
    std::string Error = parseError({"-gencode", Value, "a.cu"});
    EXPECT_CONTAINS(Error, Message);
    EXPECT_CONTAINS(Error, std::string("malformed '-gencode ") + Value + "'");
  }
}

TEST(NvccCommandLine, RelocatableDeviceCodeTakesTrueOrFalse) {
  EXPECT_EQ(parse({"-rdc", "true"}).RelocatableDeviceCode, true);
  EXPECT_EQ(parse({"-rdc=false"}).RelocatableDeviceCode, false);
  EXPECT_EQ(parse({"--relocatable-device-code=true", "-rdc=false"}).RelocatableDeviceCode, false);
  EXPECT_FALSE(parse({"a.cu"}).RelocatableDeviceCode);
  EXPECT_CONTAINS(parseError({"-rdc=1"}), "'1': expected true or false after '-rdc=1'");
}

TEST(NvccCommandLine, DependencyOptions) {
  NvccCommandLine CL = parse({"-c", "-MD", "-MF", "a.d", "-MT", "obj/a.o", "-MP", "a.cu"});
  EXPECT_EQ(CL.Mode, NvccMode::Compile);
  EXPECT_TRUE(CL.DependenciesWithCompile);
  EXPECT_FALSE(CL.NonsystemDependencies);
  EXPECT_TRUE(CL.DependencyTargets);
  ASSERT_TRUE(CL.DependencyOutput);
  EXPECT_EQ(CL.DependencyOutput->Value, "a.d");
  EXPECT_EQ(values(CL.DependencyTargetNames), (Strings{"obj/a.o"}));
  EXPECT_EQ(inputPaths(CL), (Strings{"a.cu"}));

  CL = parse({"--generate-nonsystem-dependencies-with-compile", "--dependency-output=b.d",
              "--dependency-target-name", "t", "--generate-dependency-targets", "b.cu"});
  EXPECT_TRUE(CL.DependenciesWithCompile);
  EXPECT_TRUE(CL.NonsystemDependencies);
  EXPECT_TRUE(CL.DependencyTargets);
  EXPECT_EQ(CL.DependencyOutput->Value, "b.d");
  EXPECT_EQ(CL.Mode, NvccMode::Link);

  CL = parse({"-MM", "c.cu"});
  EXPECT_EQ(CL.Mode, NvccMode::GenerateDependencies);
  EXPECT_TRUE(CL.NonsystemDependencies);
  EXPECT_FALSE(CL.DependenciesWithCompile);
}

TEST(NvccCommandLine, DriverAndCodeGenerationFlags) {
  NvccCommandLine CL =
      parse({"-v", "-dryrun", "-keep", "--keep-dir", "kd", "-G", "-lineinfo", "-O3",
             "-use_fast_math", "--expt-relaxed-constexpr", "--expt-extended-lambda",
             "-maxrregcount=32", "-ccbin", "g++-12", "-forward-unknown-to-host-compiler", "a.cu"});
  EXPECT_TRUE(CL.Verbose);
  EXPECT_TRUE(CL.DryRun);
  EXPECT_TRUE(CL.Keep);
  EXPECT_EQ(CL.KeepDir->Value, "kd");
  EXPECT_TRUE(CL.DeviceDebug);
  EXPECT_TRUE(CL.LineInfo);
  EXPECT_EQ(CL.Optimize->Value, "3");
  EXPECT_TRUE(CL.UseFastMath);
  EXPECT_TRUE(CL.RelaxedConstexpr);
  EXPECT_TRUE(CL.ExtendedLambda);
  EXPECT_EQ(CL.MaxRegCount->Value, "32");
  EXPECT_EQ(CL.CompilerBindir->Value, "g++-12");
  EXPECT_TRUE(CL.ForwardUnknownToHostCompiler);
  EXPECT_FALSE(CL.ForwardUnknownToHostLinker);
  EXPECT_FALSE(CL.Version);
  EXPECT_EQ(inputPaths(CL), (Strings{"a.cu"}));

  CL = parse({"--verbose", "--dryrun", "--save-temps", "--device-debug", "--generate-line-info",
              "--optimize", "2", "--use_fast_math", "--extended-lambda", "--compiler-bindir=/cc",
              "--forward-unknown-opts", "--version"});
  EXPECT_TRUE(CL.Verbose && CL.DryRun && CL.Keep && CL.DeviceDebug && CL.LineInfo);
  EXPECT_EQ(CL.Optimize->Value, "2");
  EXPECT_TRUE(CL.UseFastMath && CL.ExtendedLambda);
  EXPECT_EQ(CL.CompilerBindir->Value, "/cc");
  EXPECT_TRUE(CL.ForwardUnknownToHostCompiler && CL.ForwardUnknownToHostLinker);
  EXPECT_TRUE(CL.Version);
  EXPECT_TRUE(parse({"-V"}).Version);
  EXPECT_TRUE(parse({"-h"}).Help);
}

TEST(NvccCommandLine, EveryRecognizedOptionIsListedWithItsPlace) {
  NvccCommandLine CL = parse({"-lineinfo", "a.cu", "-o", "a.o", "-ftz=true", "-Xcudafe", "--x"});
  ASSERT_EQ(CL.Options.size(), 4u);
  EXPECT_EQ(CL.Options[1].Option->Id, NvccOptionId::OutputFile);
  EXPECT_EQ(CL.Options[1].ArgIndex, 2u);
  EXPECT_EQ(CL.Options[1].ArgCount, 2u);
  EXPECT_EQ(CL.Options[2].Option->Long, "ftz");
  EXPECT_EQ(CL.Options[2].Value, "true");
  EXPECT_EQ(CL.Options[3].Option->Short, "Xcudafe");
  EXPECT_TRUE(CL.has(NvccOptionId::GenerateLineInfo));
  EXPECT_FALSE(CL.has(NvccOptionId::Compile));
}

TEST(NvccCommandLine, CMakeCompileLine) {
  // As CMake 3.2x writes it for a CUDA object with -MD dependencies.
  NvccCommandLine CL = parse({"-forward-unknown-to-host-compiler",
                              "-DKOPT_DEMO",
                              "-I/src/include",
                              "-isystem",
                              "/opt/dep/include",
                              "-O3",
                              "-DNDEBUG",
                              "-std=c++17",
                              "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                              "-Xcompiler=-fPIC",
                              "-MD",
                              "-MT",
                              "CMakeFiles/demo.dir/k.cu.o",
                              "-MF",
                              "CMakeFiles/demo.dir/k.cu.o.d",
                              "-x",
                              "cu",
                              "-c",
                              "/src/k.cu",
                              "-o",
                              "CMakeFiles/demo.dir/k.cu.o"});
  EXPECT_EQ(CL.Mode, NvccMode::Compile);
  EXPECT_EQ(inputPaths(CL), (Strings{"/src/k.cu"}));
  EXPECT_EQ(CL.Output->Value, "CMakeFiles/demo.dir/k.cu.o");
  EXPECT_EQ(CL.targetArchitectures(), (Strings{"sm_90"}));
  EXPECT_EQ(CL.preprocessorFlags(), (Strings{"-DKOPT_DEMO", "-I/src/include", "-isystem",
                                             "/opt/dep/include", "-DNDEBUG", "-std=c++17"}));
  EXPECT_TRUE(CL.compilesDeviceCode());
  EXPECT_TRUE(CL.Unknown.empty());
}

TEST(NvccCommandLine, CMakeDeviceLinkLineWithOptionsFiles) {
  FakeEnvironment Env;
  Env.Files["/proj/CMakeFiles/demo.dir/deviceObjects1.rsp"] = "\"CMakeFiles/demo.dir/k.cu.o\"\n";
  Env.Files["/proj/CMakeFiles/demo.dir/deviceLinkLibs.rsp"] = "-lcudadevrt -lcudart_static -lrt";
  NvccCommandLine CL = parse({"-forward-unknown-to-host-compiler", "-O3", "-Xcompiler=-fPIC",
                              "-Wno-deprecated-gpu-targets", "-shared", "-dlink", "--options-file",
                              "CMakeFiles/demo.dir/deviceObjects1.rsp", "-o",
                              "CMakeFiles/demo.dir/cmake_device_link.o", "--options-file",
                              "CMakeFiles/demo.dir/deviceLinkLibs.rsp"},
                             Env);
  EXPECT_EQ(CL.Mode, NvccMode::DeviceLink);
  ASSERT_EQ(CL.Inputs.size(), 1u);
  EXPECT_EQ(CL.Inputs[0].Path, "CMakeFiles/demo.dir/k.cu.o");
  EXPECT_EQ(CL.Inputs[0].Kind, NvccInputKind::Object);
  EXPECT_EQ(CL.Args.back(), "-lrt");
  EXPECT_FALSE(CL.compilesDeviceCode());
}

// ---------------------------------------------------------------------------
// The helpers kcc uses.

TEST(NvccCommandLine, CudaSourcesAreTheInputsCompiledAsCuda) {
  NvccCommandLine CL = parse({"a.cu", "b.cpp", "c.o", "d.cu"});
  std::vector<const NvccInputFile *> Sources = CL.cudaSources();
  ASSERT_EQ(Sources.size(), 2u);
  EXPECT_EQ(Sources[0]->Path, "a.cu");
  EXPECT_EQ(Sources[1]->Path, "d.cu");
  EXPECT_EQ(Sources[1]->ArgIndex, 3u);
  EXPECT_EQ(parse({"-x", "cu", "b.cpp"}).cudaSources().size(), 1u);
}

TEST(NvccCommandLine, PreprocessorFlagsUseClangSpellingInTheOriginalOrder) {
  NvccCommandLine CL = parse({"-I",
                              "a,b",
                              "-O2",
                              "--include-path=c",
                              "-isystem",
                              "s",
                              "-DX=1",
                              "-UY",
                              "--define-macro=Z",
                              "-include",
                              "p.h",
                              "-std=c++17",
                              "--system-include=t",
                              "--pre-include",
                              "q.h",
                              "-I",
                              R"("my dir")",
                              "-Dlast",
                              "-o",
                              "x.o",
                              "k.cu"});
  EXPECT_EQ(CL.preprocessorFlags(),
            (Strings{"-Ia", "-Ib", "-Ic", "-isystem", "s", "-DX=1", "-UY", "-DZ", "-include", "p.h",
                     "-std=c++17", "-isystem", "t", "-include", "q.h", "-Imy dir", "-Dlast"}));
  EXPECT_TRUE(parse({"-c", "a.cu"}).preprocessorFlags().empty());
}

TEST(NvccCommandLine, TargetArchitecturesAreTheRealOnesFromArchCodeAndGencode) {
  EXPECT_EQ(parse({"a.cu"}).targetArchitectures(), Strings{});
  EXPECT_EQ(parse({"-arch=sm_90a"}).targetArchitectures(), (Strings{"sm_90a"}));
  EXPECT_EQ(parse({"-arch=sm_80", "-arch=sm_90"}).targetArchitectures(), (Strings{"sm_90"}));
  EXPECT_EQ(parse({"-arch=compute_90"}).targetArchitectures(), Strings{});
  EXPECT_EQ(parse({"-arch=native"}).targetArchitectures(), Strings{});
  EXPECT_EQ(parse({"-arch=compute_80", "-code=sm_80,sm_86,compute_80"}).targetArchitectures(),
            (Strings{"sm_80", "sm_86"}));
  EXPECT_EQ(parse({"-arch=sm_80", "-gencode", "arch=compute_90,code=[sm_90,compute_90]", "-gencode",
                   "arch=compute_90,code=sm_90", "-gencode=arch=compute_80,code=sm_80",
                   "--generate-code=arch=compute_100,code=sm_100f"})
                .targetArchitectures(),
            (Strings{"sm_80", "sm_90", "sm_100f"}));
}

TEST(NvccCommandLine, CompilesDeviceCodeOnlyWhenCompilingACudaSource) {
  EXPECT_TRUE(parse({"-c", "a.cu"}).compilesDeviceCode());
  EXPECT_TRUE(parse({"a.cu", "-o", "app"}).compilesDeviceCode());
  EXPECT_TRUE(parse({"-dc", "a.cu"}).compilesDeviceCode());
  EXPECT_TRUE(parse({"-ptx", "a.cu"}).compilesDeviceCode());
  EXPECT_TRUE(parse({"-c", "-x", "cu", "a.cpp"}).compilesDeviceCode());
  EXPECT_TRUE(parse({"-c", "-MD", "a.cu"}).compilesDeviceCode());
  EXPECT_FALSE(parse({"-c", "a.cpp"}).compilesDeviceCode());
  EXPECT_FALSE(parse({"a.o", "b.o", "-o", "app"}).compilesDeviceCode());
  EXPECT_FALSE(parse({"-dlink", "a.o", "-o", "link.o"}).compilesDeviceCode());
  EXPECT_FALSE(parse({"-E", "a.cu"}).compilesDeviceCode());
  EXPECT_FALSE(parse({"-M", "a.cu"}).compilesDeviceCode());
  EXPECT_FALSE(parse({"--version", "-c", "a.cu"}).compilesDeviceCode());
  EXPECT_FALSE(parse({"--help", "-c", "a.cu"}).compilesDeviceCode());
  EXPECT_FALSE(parse({"--list-gpu-arch", "-c", "a.cu"}).compilesDeviceCode());
}

TEST(NvccCommandLine, RelocatableDeviceCodeFromDcOrRdc) {
  EXPECT_TRUE(parse({"-dc", "a.cu"}).relocatableDeviceCode());
  EXPECT_TRUE(parse({"-c", "-rdc=true", "a.cu"}).relocatableDeviceCode());
  EXPECT_FALSE(parse({"-c", "a.cu"}).relocatableDeviceCode());
  EXPECT_FALSE(parse({"-dw", "a.cu"}).relocatableDeviceCode());
}

} // namespace
