#include "memory/cache/CacheEntry.h"

#include "memory/cache/VariantJson.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::memory {

namespace {
std::string checksumOf(const nlohmann::json &Payload) {
  return "sha256:" + digestOf(Payload.dump());
}

nlohmann::json provenanceToJson(const Provenance &P) {
  nlohmann::json J = {{"engine", P.Engine}, {"model", P.Model},      {"device", P.Device},
                      {"date", P.Date},     {"kopt", P.KoptVersion}, {"skills", P.Skills}};
  if (P.Usage) {
    J["tokens"] = {{"input", P.Usage->InputTokens}, {"output", P.Usage->OutputTokens}};
    J["cost_usd"] = P.Usage->CostUsd ? nlohmann::json(*P.Usage->CostUsd) : nlohmann::json();
  }
  return J;
}

Provenance provenanceFromJson(const nlohmann::json &J) {
  Provenance P{J.at("engine").get<std::string>(),
               J.at("model").get<std::string>(),
               J.at("device").get<std::string>(),
               J.at("date").get<std::string>(),
               J.at("kopt").get<std::string>(),
               J.at("skills").get<std::vector<std::string>>(),
               std::nullopt};
  if (auto Tokens = J.find("tokens"); Tokens != J.end()) {
    P.Usage.emplace();
    P.Usage->InputTokens = Tokens->at("input").get<int64_t>();
    P.Usage->OutputTokens = Tokens->at("output").get<int64_t>();
    if (auto Cost = J.find("cost_usd"); Cost != J.end() && !Cost->is_null())
      P.Usage->CostUsd = Cost->get<double>();
  }
  return P;
}

// The report's fields, each optional (EntryReport.h).
llvm::Error reportFieldsFromPayload(const nlohmann::json &P, CacheEntry &E) {
  if (auto J = P.find("profile"); J != P.end()) {
    llvm::Expected<EntryProfile> Profile = entryProfileFromJson(*J);
    if (!Profile)
      return Profile.takeError();
    E.Profile = std::move(*Profile);
  }
  if (auto J = P.find("original"); J != P.end()) {
    llvm::Expected<OriginalKernel> Original = originalKernelFromJson(*J);
    if (!Original)
      return Original.takeError();
    E.Original = std::move(*Original);
  }
  if (auto J = P.find("transforms"); J != P.end()) {
    llvm::Expected<std::vector<TransformNote>> Notes = transformNotesFromJson(*J);
    if (!Notes)
      return Notes.takeError();
    E.Transforms = std::move(*Notes);
  }
  return llvm::Error::success();
}

llvm::Expected<StoredEntry> fromPayload(const nlohmann::json &P) {
  StoredEntry Stored;
  CacheEntry &E = Stored.Entry;
  try {
    Stored.Key = {P.at("key").get<std::string>(), P.at("key_text").get<std::string>()};
    E.KernelName = P.at("kernel").get<std::string>();
    E.Speedup = P.at("speedup").get<double>();
    E.Verification = P.at("verification");
    E.Timing = P.at("timing");
    E.Trajectory = P.at("trajectory");
    E.Origin = provenanceFromJson(P.at("provenance"));
    if (auto R = P.find("rekeyed"); R != P.end())
      E.Rekeyed = *R;
    if (auto W = P.find("workloads"); W != P.end() && !W->is_null())
      E.Workloads = workloadsFromJson(*W);
    if (auto Kind = P.find("kernel_kind"); Kind != P.end())
      E.KernelKind = Kind->get<std::string>();
    if (auto R = P.find("rejected"); R != P.end() && !R->is_null())
      E.Rejected = Rejection{R->at("why").get<std::string>(), R->at("command").get<std::string>(),
                             R->at("date").get<std::string>()};
  } catch (const nlohmann::json::exception &Ex) {
    return llvm::createStringError("bad entry: %s", Ex.what());
  }
  if (digestOf(Stored.Key.Canonical) != Stored.Key.Digest)
    return llvm::createStringError("entry's key text does not hash to its key");
  auto Variant = P.find("variant");
  if (Variant != P.end() && !Variant->is_null()) {
    llvm::Expected<frontend::KernelVariant> V = variantFromJson(*Variant);
    if (!V)
      return V.takeError();
    E.Variant = std::move(*V);
  }
  if (llvm::Error Err = reportFieldsFromPayload(P, E))
    return Err;
  return Stored;
}
} // namespace

std::string serializeEntry(const CacheKey &Key, const CacheEntry &E) {
  nlohmann::json Payload = {{"key", Key.Digest},
                            {"key_text", Key.Canonical},
                            {"kernel", E.KernelName},
                            {"speedup", E.Speedup},
                            {"verification", E.Verification},
                            {"timing", E.Timing},
                            {"trajectory", E.Trajectory},
                            {"provenance", provenanceToJson(E.Origin)}};
  Payload["variant"] = E.Variant ? variantToJson(*E.Variant) : nlohmann::json();
  if (!E.Rekeyed.is_null())
    Payload["rekeyed"] = E.Rekeyed;
  if (E.Workloads)
    Payload["workloads"] = workloadsToJson(*E.Workloads);
  if (E.Profile)
    Payload["profile"] = toJson(*E.Profile);
  if (!E.KernelKind.empty())
    Payload["kernel_kind"] = E.KernelKind;
  if (E.Original)
    Payload["original"] = toJson(*E.Original);
  if (E.Transforms)
    Payload["transforms"] = toJson(*E.Transforms);
  if (E.Rejected)
    Payload["rejected"] = {
        {"why", E.Rejected->Why}, {"command", E.Rejected->Command}, {"date", E.Rejected->Date}};
  nlohmann::json File = {
      {"format", EntryFormat}, {"checksum", checksumOf(Payload)}, {"payload", Payload}};
  return File.dump(1) + "\n";
}

llvm::Expected<StoredEntry> parseEntry(llvm::StringRef Text) {
  nlohmann::json File = nlohmann::json::parse(Text.begin(), Text.end(), nullptr,
                                              /*allow_exceptions=*/false);
  if (File.is_discarded() || !File.is_object())
    return llvm::createStringError("not valid JSON (truncated?)");
  auto Format = File.find("format");
  if (Format == File.end() || !Format->is_number_integer())
    return llvm::createStringError("no format number");
  if (*Format != EntryFormat)
    return llvm::createStringError("unsupported entry format %s", Format->dump().c_str());
  auto Checksum = File.find("checksum");
  auto Payload = File.find("payload");
  if (Checksum == File.end() || Payload == File.end() || !Checksum->is_string())
    return llvm::createStringError("no checksum or payload");
  if (*Checksum != checksumOf(*Payload))
    return llvm::createStringError("checksum mismatch");
  return fromPayload(*Payload);
}

namespace {
// " (verified on 3 seeds, 20-launch chains)" where the entry's variant was
// verified over chains of launches (issue 31); else "".
std::string verifiedChain(const nlohmann::json &Verification) {
  if (!Verification.is_object())
    return "";
  auto Chain = Verification.find("chain");
  if (Chain == Verification.end() || !Chain->is_number_unsigned() || Chain->get<unsigned>() < 2)
    return "";
  return " (verified on " + std::to_string(Verification.value("seeds", 0u)) + " seeds, " +
         std::to_string(Chain->get<unsigned>()) + "-launch chains)";
}
} // namespace

std::string describeEntry(const CacheEntry &E) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  // A rejected variant is not used, so how close it came to the hardware is beside the point.
  if (E.Variant && E.Rejected) {
    OS << "variant (" << llvm::join(E.Origin.Skills, " + ") << ") " << E.Rejected->Why << " ("
       << E.Rejected->Command << ")";
    return Text;
  }
  if (E.Variant)
    OS << "verified variant (" << llvm::join(E.Origin.Skills, " + ") << "), "
       << llvm::format("%.2f", E.Speedup) << "x faster on " << E.Origin.Device
       << verifiedChain(E.Verification);
  else
    OS << "no variant beat the original on " << E.Origin.Device;
  // How close to the hardware: figures the entry has, else "not recorded".
  if (!E.Profile)
    OS << "; % of peak not recorded (the entry predates it)";
  else if (E.Variant)
    OS << "; " << describePeakShares(*E.Profile, /*WithVariant=*/true);
  else if (!E.Profile->Original.recorded())
    OS << ": " << headroomReading(E.Profile->Original, E.KernelKind);
  else
    OS << ": " << headroomReading(E.Profile->Original, E.KernelKind) << "; "
       << describePeakShares(*E.Profile, /*WithVariant=*/false);
  return Text;
}

} // namespace kopt::memory
