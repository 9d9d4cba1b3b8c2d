#include "test/fuzz/PragmaMutator.h"

#include "clang-plugin/pragma/ClauseToken.h"

#include <llvm/ADT/StringExtras.h>

#include <utility>

namespace kopt::fuzz {

uint64_t Random::next() {
  uint64_t Z = (State += 0x9e3779b97f4a7c15ULL);
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
  return Z ^ (Z >> 31);
}

std::vector<frontend::KernelParam> fuzzKernelParams() {
  using frontend::ParamCategory;
  // As clang describes them (the front end's KernelParam).
  return {
      {"n", "int", ParamCategory::Integer, false},
      {"m", "int", ParamCategory::Integer, false},
      {"a", "float", ParamCategory::Floating, false},
      {"x", "const float *", ParamCategory::Pointer, true, ParamCategory::Floating, "const float"},
      {"y", "float *", ParamCategory::Pointer, false, ParamCategory::Floating, "float"}};
}

llvm::ArrayRef<std::string> seedPragmas() {
  static const std::vector<std::string> Seeds = {
      "optimize",
      "optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20, m = 1, a = 2.0f) "
      "buffers(x[n] in, y[n] inout)",
      "optimize launch(grid: n / 16, m / 16, 1; block: 16, 16; smem: 16 * 16 * 4) "
      "args(n = 1 << 12, m = n / 2, a = 1) buffers(x[n * m] in, y[n * m] out)",
      "optimize args(n = 1 << 20, m = 4, a = 2.0f) buffers(x[n] in, y[n] inout) "
      "launch(grid: (size_t)ceil(n / 256.0); block: 256)",
      "optimize buffers(x[n * m] in, y[n] out) args(n = 64, m = 3 | 5, a = -1.5) "
      "launch(grid: 1; block: n)",
      "optimize tol(rtol = 1e-5, atol = 1e-6) budget(time = 60s, evals = 200)",
      "optimize budget(time = 500ms, tokens = 1 << 16) engine(llm)",
      "optimize skills(+vectorize, -unroll, smem-tiling) noalias engine(skills)",
      "optimize noalias, engine(auto), tol(atol = 0)",
      "optimize launch(grid: -(-n) % 7 + (m >> 2); block: 0x100) args(n = 0b1010, m = 0777, "
      "a = 0) buffers(x[1] in, y[max(n, m)] out)",
      "optimize launch(grid: (n + 127) / 128, m; block: 128; smem: 0) args(n = 1 << 16, m = 2, "
      "a = 0.5) buffers(x[n * m] in, y[n * m] inout) tol(rtol = 1e-4) budget(time = 2m, "
      "evals = 50) skills(-smem-tiling) noalias engine(auto)",
      "optimize launch(grid: min(n / 64, 1024), (m + 1) / 2; block: 64, 2) "
      "args(n = 1 << 14 | 1 << 16, m = n > 1024 ? 4 : 2, a = (float)m) "
      "buffers(x[n * m] in range(-2, 2.5f), y[(size_t)n * m] out tol(rtol = 1e-3, atol = 0)) "
      "budget(tokens = 5000)",
      "optimize launch(grid: (int)floor(n / 32.0) + 1; block: 32 * sizeof(float4) / 16; "
      "smem: max(n, 128) * sizeof(float) / 64) args(n = 0x1000, m = -1, a = 1e-3f) "
      "buffers(x[n + 1], y[n + 1]) tol(atol = 1e-5)",
  };
  return Seeds;
}

namespace {

constexpr llvm::StringLiteral Punctuation[] = {
    "(", ")", "[", "]", ",", ";", ":",  "=", "+", "-", "*", "/", "%", "<<", ">>",  ".",
    "!", "?", "#", "@", "{", "}", "\"", "'", "<", ">", "&", "|", "^", "~",  "...", "::"};

constexpr llvm::StringLiteral Words[] = {"launch",   "args",   "buffers",
                                         "tol",      "budget", "skills",
                                         "noalias",  "engine", "grid",
                                         "block",    "smem",   "in",
                                         "out",      "inout",  "rtol",
                                         "atol",     "time",   "evals",
                                         "tokens",   "llm",    "auto",
                                         "n",        "m",      "a",
                                         "x",        "y",      "zz",
                                         "0",        "-1",     "1.5",
                                         "1e400",    "0x",     "60h",
                                         "10ms",     "08",     "99999999999999999999",
                                         "optimize", "int",    "9223372036854775807",
                                         "1e-5",     "2.0f",   "0b2",
                                         "1'0",      "range",  "instantiation",
                                         "ceil",     "floor",  "min",
                                         "max",      "sizeof", "float",
                                         "size_t",   "float4", "1ULL",
                                         "62",       "?",      "|"};

// Pieces of the grammar, inserted whole: clauses, items and values that the
// seeds lack or that reach the checks' limits.
constexpr llvm::StringLiteral Fragments[] = {"instantiation(float, 128)",
                                             "range(0, n)",
                                             "range(1, 0)",
                                             "tol(rtol = 1e-3)",
                                             "1ULL << 62",
                                             "1ULL << 40",
                                             "(size_t)1 << 38",
                                             "sizeof(double)",
                                             "n | 2 * n",
                                             "smem: 1 << 18",
                                             "grid: 1 << 31",
                                             "block: 33, 32",
                                             "x[1ULL << 62] in",
                                             "y[n] out range(0, 1)",
                                             "a = 1e40f",
                                             "n = 2147483647 + 1",
                                             "(n ? m : 0)",
                                             "ceil(a)",
                                             "budget(evals = 0)",
                                             "engine(llm)",
                                             "skills(+tiling)"};

// Numbers around the limits the checks know (launch dimensions, shared
// memory, buffer bytes, int64), put where the seeds have theirs.
constexpr llvm::StringLiteral Numbers[] = {
    "0",       "1",         "-1",      "2",          "31",         "32",     "33",
    "1024",    "1025",      "65535",   "65536",      "232448",     "232449", "2147483647",
    "1 << 20", "1 << 31",   "1 << 62", "1ULL << 38", "1ULL << 40", "0.5",    "1e-3",
    "1e300",   "n * n * n", "n * m",   "(int)a",     "(size_t)n",  "n / 0",  "max(n, m)"};

struct Piece {
  std::string Text;
  bool Space;
};

std::vector<Piece> split(llvm::StringRef Text) {
  std::vector<Piece> Pieces;
  for (const frontend::ClauseToken &T : frontend::lexPragmaText(Text))
    if (!T.is(frontend::ClauseToken::Kind::End))
      Pieces.push_back({T.Text, T.LeadingSpace});
  return Pieces;
}

std::string join(const std::vector<Piece> &Pieces) {
  std::string Out;
  for (const Piece &P : Pieces) {
    if (P.Space && !Out.empty())
      Out.push_back(' ');
    Out += P.Text;
  }
  return Out;
}

} // namespace

std::string mutatePragma(llvm::StringRef Seed, Random &R) {
  std::vector<Piece> Pieces = split(Seed);
  unsigned Mutations = 1 + unsigned(R.below(3));
  for (unsigned I = 0; I < Mutations; ++I) {
    size_t N = Pieces.size();
    size_t At = R.below(N);
    switch (R.below(11)) {
    case 0: // Delete a token.
      if (N)
        Pieces.erase(Pieces.begin() + At);
      break;
    case 1: // Duplicate a token.
      if (N)
        Pieces.insert(Pieces.begin() + At, Pieces[At]);
      break;
    case 2: // Swap two tokens.
      if (N)
        std::swap(Pieces[At], Pieces[R.below(N)]);
      break;
    case 3: // Insert punctuation.
      Pieces.insert(Pieces.begin() + R.below(N + 1),
                    {Punctuation[R.below(std::size(Punctuation))].str(), R.below(2) == 0});
      break;
    case 4: // Replace a token with another word.
      if (N)
        Pieces[At].Text = Words[R.below(std::size(Words))].str();
      break;
    case 5: // Truncate.
      Pieces.resize(At);
      break;
    case 9:
    case 10: { // Replace a number: the pragma mostly stays valid, its values move.
      std::vector<size_t> NumberAt;
      for (size_t P = 0; P < N; ++P)
        if (!Pieces[P].Text.empty() && llvm::isDigit(Pieces[P].Text.front()))
          NumberAt.push_back(P);
      if (!NumberAt.empty())
        Pieces[NumberAt[R.below(NumberAt.size())]].Text =
            Numbers[R.below(std::size(Numbers))].str();
      break;
    }
    case 6: // Insert a piece of the grammar.
      Pieces.insert(Pieces.begin() + R.below(N + 1),
                    {Fragments[R.below(std::size(Fragments))].str(), true});
      break;
    case 7: { // Delete a character.
      std::string Text = join(Pieces);
      if (!Text.empty())
        Text.erase(R.below(Text.size()), 1);
      Pieces = split(Text);
      break;
    }
    default: { // Insert a character.
      std::string Text = join(Pieces);
      llvm::StringRef P = Punctuation[R.below(std::size(Punctuation))];
      Text.insert(R.below(Text.size() + 1), 1, P.front());
      Pieces = split(Text);
      break;
    }
    }
  }
  return join(Pieces);
}

std::vector<std::string> generatePragmaCorpus(uint64_t Seed, size_t Count) {
  Random R(Seed);
  llvm::ArrayRef<std::string> Seeds = seedPragmas();
  std::vector<std::string> Cases;
  Cases.reserve(Count);
  for (size_t I = 0; I < Count; ++I)
    Cases.push_back(mutatePragma(Seeds[R.below(Seeds.size())], R));
  return Cases;
}

std::vector<std::string> snippetClangArgs() {
  return {"-xcuda",
          "--cuda-host-only",
          "-nocudainc",
          "-nocudalib",
          "--cuda-gpu-arch=sm_90",
          "-fsyntax-only",
          "-Wno-unknown-cuda-version",
          "-D__global__=__attribute__((global))",
          "-D__device__=__attribute__((device))",
          "-D__host__=__attribute__((host))"};
}

} // namespace kopt::fuzz
