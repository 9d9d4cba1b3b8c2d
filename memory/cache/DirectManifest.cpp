#include "memory/cache/DirectManifest.h"

#include <nlohmann/json.hpp>

namespace kopt::memory {

namespace {
constexpr llvm::StringLiteral Magic = "kopt-manifest";

nlohmann::json observationToJson(const FileObservation &O) {
  nlohmann::json J = {{"path", O.Path}, {"type", kindName(O.Type).str()}};
  if (O.Content)
    J["content"] = *O.Content;
  if (O.Listing)
    J["listing"] = *O.Listing;
  if (O.Stamp)
    J["stamp"] = *O.Stamp;
  return J;
}

std::optional<std::string> optionalString(const nlohmann::json &J, const char *Name) {
  auto It = J.find(Name);
  if (It == J.end())
    return std::nullopt;
  return It->get<std::string>();
}

FileObservation observationFromJson(const nlohmann::json &J) {
  FileObservation O;
  O.Path = J.at("path").get<std::string>();
  std::optional<FileObservation::Kind> Kind = kindNamed(J.at("type").get<std::string>());
  if (!Kind)
    throw std::invalid_argument("unknown file type " + J.at("type").dump());
  O.Type = *Kind;
  O.Content = optionalString(J, "content");
  O.Listing = optionalString(J, "listing");
  O.Stamp = optionalString(J, "stamp");
  return O;
}

DirectManifest fromJson(const nlohmann::json &J) {
  DirectManifest M;
  M.Key = J.at("key").get<std::string>();
  for (const nlohmann::json &I : J.at("inputs"))
    M.Inputs.push_back(observationFromJson(I));
  for (const nlohmann::json &E : J.at("entries")) {
    std::string Cache = E.at("cache").get<std::string>();
    if (Cache != "project" && Cache != "user")
      throw std::invalid_argument("unknown cache " + Cache);
    M.Entries.push_back(
        {E.at("key").get<std::string>(), Cache == "project", observationFromJson(E.at("file"))});
  }
  for (const nlohmann::json &L : J.at("log"))
    M.Log.push_back({L.at("text").get<std::string>(), L.at("verbose").get<bool>()});
  M.Output = J.at("output").get<std::string>();
  return M;
}
} // namespace

CacheKey makeManifestKey(const ManifestKeyInputs &In) {
  // JSON escapes every value, so no input can forge another's field.
  nlohmann::ordered_json Key = {{"manifest_format", ManifestFormat},
                                {"source", In.SourcePath},
                                {"source_digest", In.SourceDigest},
                                {"cwd", In.WorkingDir},
                                {"flags", In.CompileFlags},
                                {"options", In.Options},
                                {"environment", In.Environment},
                                {"compiler", In.Compiler},
                                {"kopt", In.KoptVersion},
                                {"front_end", In.FrontEnd}};
  std::string Canonical = Key.dump();
  return {digestOf(Canonical), Canonical};
}

std::string serializeManifest(const DirectManifest &M) {
  nlohmann::json Inputs = nlohmann::json::array(), Entries = nlohmann::json::array(),
                 Log = nlohmann::json::array();
  for (const FileObservation &O : M.Inputs)
    Inputs.push_back(observationToJson(O));
  for (const ManifestEntry &E : M.Entries)
    Entries.push_back({{"key", E.Key},
                       {"cache", E.Project ? "project" : "user"},
                       {"file", observationToJson(E.File)}});
  for (const ManifestLine &L : M.Log)
    Log.push_back({{"text", L.Text}, {"verbose", L.VerboseOnly}});
  nlohmann::json Body = {{"key", M.Key},
                         {"inputs", std::move(Inputs)},
                         {"entries", std::move(Entries)},
                         {"log", std::move(Log)},
                         {"output", M.Output}};
  std::string Text = Body.dump() + "\n";
  return Magic.str() + " " + std::to_string(ManifestFormat) + " " + contentDigest(Text) + "\n" +
         Text;
}

llvm::Expected<DirectManifest> parseManifest(llvm::StringRef Text) {
  auto [Header, Body] = Text.split('\n');
  llvm::SmallVector<llvm::StringRef, 3> Fields;
  Header.split(Fields, ' ');
  if (Fields.size() != 3 || Fields[0] != Magic)
    return llvm::createStringError("not a kopt manifest");
  if (Fields[1] != std::to_string(ManifestFormat))
    return llvm::createStringError("unsupported manifest format %s", Fields[1].str().c_str());
  if (contentDigest(Body) != Fields[2])
    return llvm::createStringError("digest mismatch (truncated or corrupt)");
  nlohmann::json J = nlohmann::json::parse(Body.begin(), Body.end(), nullptr,
                                           /*allow_exceptions=*/false);
  if (J.is_discarded() || !J.is_object())
    return llvm::createStringError("not valid JSON");
  try {
    return fromJson(J);
  } catch (const std::exception &Ex) {
    return llvm::createStringError("bad manifest: %s", Ex.what());
  }
}

llvm::Error checkManifest(const DirectManifest &M) {
  // Entries first: a cleared or updated cache is the cheaper difference to find.
  for (const ManifestEntry &Entry : M.Entries)
    if (llvm::Error E = matchesNow(Entry.File))
      return llvm::createStringError("cache entry " + llvm::toString(std::move(E)));
  for (const FileObservation &O : M.Inputs)
    if (llvm::Error E = matchesNow(O))
      return E;
  return llvm::Error::success();
}

} // namespace kopt::memory
