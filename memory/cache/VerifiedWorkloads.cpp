#include "memory/cache/VerifiedWorkloads.h"

#include "memory/cache/CacheKey.h"

#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <cstdio>

namespace kopt::memory {

namespace {
// As the evaluator names a recorded launch's values (RecordedLaunch::describe).
std::string number(double V) {
  char Text[32];
  std::snprintf(Text, sizeof(Text), "%.17g", V);
  return Text;
}

std::string scalarName(const std::vector<std::string> &Names, size_t I) {
  return I < Names.size() ? Names[I] : "scalar " + std::to_string(I);
}

std::string geometryText(const LaunchDescription &L) {
  return llvm::formatv("grid({0},{1},{2}) block({3},{4},{5})", L.Grid[0], L.Grid[1], L.Grid[2],
                       L.Block[0], L.Block[1], L.Block[2])
             .str() +
         (L.SharedBytes ? " smem " + std::to_string(L.SharedBytes) : "");
}

bool knownGeometry(const std::vector<LaunchDescription> &Known, const LaunchDescription &L) {
  return std::any_of(Known.begin(), Known.end(),
                     [&](const LaunchDescription &G) { return G.sameGeometry(L); });
}

// Why L is beyond V, or "" where it is covered.
std::string beyond(const VerifiedWorkloads &V, const LaunchDescription &L) {
  for (size_t I = 0; I < L.Scalars.size(); ++I) {
    if (I >= V.Scalars.size())
      return "its scalars differ from those verified";
    const ScalarRange &R = V.Scalars[I];
    if (L.Scalars[I] < R.Min || L.Scalars[I] > R.Max)
      return R.Name + " = " + number(L.Scalars[I]) + " is outside the verified " + number(R.Min) +
             ".." + number(R.Max);
  }
  if (!knownGeometry(V.Geometries, L))
    return geometryText(L) + " was not verified";
  return "";
}
} // namespace

std::string LaunchDescription::describe(const std::vector<std::string> &Names) const {
  std::string Values;
  for (size_t I = 0; I < Scalars.size(); ++I)
    Values += scalarName(Names, I) + " = " + number(Scalars[I]) + "; ";
  std::string Text = "#";
  return Text.append(std::to_string(Id))
      .append(" (")
      .append(Values)
      .append(geometryText(*this))
      .append(")");
}

std::string recordingDigest(const std::vector<LaunchDescription> &Recording) {
  std::vector<std::string> Lines;
  for (const LaunchDescription &L : Recording) {
    std::string Line = geometryText(L);
    for (double S : L.Scalars)
      Line.append(" ").append(number(S)); // Not " " + ...: gcc 12's -Wrestrict misfires.
    Lines.push_back(std::move(Line));
  }
  std::sort(Lines.begin(), Lines.end());
  std::string Text;
  for (const std::string &Line : Lines)
    Text += Line + "\n";
  return digestOf(Text);
}

VerifiedWorkloads describeWorkloads(const std::vector<std::string> &Names,
                                    const std::vector<LaunchDescription> &Recording,
                                    std::vector<uint32_t> VerifiedIds) {
  return widened(std::nullopt, Names, Recording, std::move(VerifiedIds));
}

VerifiedWorkloads widened(const std::optional<VerifiedWorkloads> &Verified,
                          const std::vector<std::string> &Names,
                          const std::vector<LaunchDescription> &Recording,
                          std::vector<uint32_t> Ids) {
  VerifiedWorkloads W = Verified.value_or(VerifiedWorkloads());
  for (const LaunchDescription &L : Recording) {
    for (size_t I = 0; I < L.Scalars.size(); ++I) {
      double V = L.Scalars[I];
      if (I >= W.Scalars.size()) {
        W.Scalars.push_back({scalarName(Names, I), V, V});
        continue;
      }
      W.Scalars[I].Min = std::min(W.Scalars[I].Min, V);
      W.Scalars[I].Max = std::max(W.Scalars[I].Max, V);
    }
    if (!knownGeometry(W.Geometries, L)) {
      LaunchDescription G = L;
      G.Id = 0;
      G.Scalars.clear();
      W.Geometries.push_back(std::move(G));
    }
  }
  W.Digest = recordingDigest(Recording);
  W.VerifiedIds = std::move(Ids);
  W.Launches = Recording.size();
  return W;
}

Coverage coverageOf(const std::optional<VerifiedWorkloads> &Verified,
                    const std::vector<std::string> &Names,
                    const std::vector<LaunchDescription> &Recording) {
  Coverage C;
  if (Verified && Verified->Digest == recordingDigest(Recording))
    return C;
  for (size_t I = 0; I < Recording.size(); ++I) {
    std::string Why = Verified ? beyond(*Verified, Recording[I])
                               : "the cached variant was verified without a recording";
    if (Why.empty())
      continue;
    if (C.Uncovered.empty())
      C.Why = "recorded launch " + Recording[I].describe(Names) + ": " + Why;
    C.Uncovered.push_back(I);
  }
  return C;
}

nlohmann::json workloadsToJson(const VerifiedWorkloads &W) {
  nlohmann::json Scalars = nlohmann::json::array(), Geometries = nlohmann::json::array();
  for (const ScalarRange &R : W.Scalars)
    Scalars.push_back({{"name", R.Name}, {"min", R.Min}, {"max", R.Max}});
  for (const LaunchDescription &G : W.Geometries)
    Geometries.push_back({{"grid", G.Grid}, {"block", G.Block}, {"smem", G.SharedBytes}});
  return {{"digest", W.Digest},
          {"scalars", Scalars},
          {"geometries", Geometries},
          {"verified", W.VerifiedIds},
          {"launches", W.Launches}};
}

VerifiedWorkloads workloadsFromJson(const nlohmann::json &J) {
  VerifiedWorkloads W;
  W.Digest = J.at("digest").get<std::string>();
  for (const nlohmann::json &R : J.at("scalars"))
    W.Scalars.push_back(
        {R.at("name").get<std::string>(), R.at("min").get<double>(), R.at("max").get<double>()});
  for (const nlohmann::json &G : J.at("geometries")) {
    LaunchDescription L;
    G.at("grid").get_to(L.Grid);
    G.at("block").get_to(L.Block);
    L.SharedBytes = G.at("smem").get<uint32_t>();
    W.Geometries.push_back(std::move(L));
  }
  W.VerifiedIds = J.at("verified").get<std::vector<uint32_t>>();
  W.Launches = J.at("launches").get<uint64_t>();
  return W;
}

} // namespace kopt::memory
