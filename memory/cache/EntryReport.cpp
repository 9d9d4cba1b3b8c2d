#include "memory/cache/EntryReport.h"

#include <llvm/Support/FormatVariadic.h>

#include <algorithm>

namespace kopt::memory {

namespace {
using nlohmann::json;

void put(json &J, const char *Key, const std::optional<double> &V) {
  if (V)
    J[Key] = *V;
}

std::optional<double> numberAt(const json &J, const char *Key) {
  auto It = J.find(Key);
  if (It == J.end() || It->is_null())
    return std::nullopt;
  return It->get<double>();
}

std::string stringAt(const json &J, const char *Key) {
  auto It = J.find(Key);
  return It == J.end() || It->is_null() ? "" : It->get<std::string>();
}

json toJson(const RunFigures &F) {
  if (!F.recorded())
    return {{"not_recorded", F.NotRecorded}};
  json J = json::object();
  put(J, "dram_pct", F.DramPct);
  put(J, "sm_pct", F.SmPct);
  put(J, "dram_bytes", F.DramBytes);
  put(J, "duration_ms", F.DurationMs);
  put(J, "flops", F.Flops);
  put(J, "fp64_flops", F.Fp64Flops);
  return J;
}

RunFigures runFiguresFromJson(const json &J) {
  if (std::string Why = stringAt(J, "not_recorded"); !Why.empty())
    return RunFigures::notRecorded(Why);
  RunFigures F;
  F.DramPct = numberAt(J, "dram_pct");
  F.SmPct = numberAt(J, "sm_pct");
  F.DramBytes = numberAt(J, "dram_bytes");
  F.DurationMs = numberAt(J, "duration_ms");
  F.Flops = numberAt(J, "flops");
  F.Fp64Flops = numberAt(J, "fp64_flops");
  return F;
}

template <typename Fn> auto parsed(Fn Parse) -> llvm::Expected<decltype(Parse())> {
  try {
    return Parse();
  } catch (const json::exception &E) {
    return llvm::createStringError("bad report record: %s", E.what());
  }
}

std::string percent(double V) { return llvm::formatv("{0:f0}%", V).str(); }

// "34% -> 81%", "34%" without the variant's, "34% -> not recorded".
std::string shares(const std::optional<double> &Before, const RunFigures &Variant,
                   const std::optional<double> RunFigures::*Field, bool WithVariant) {
  std::string Text = Before ? percent(*Before) : "not recorded";
  if (!WithVariant)
    return Text;
  const std::optional<double> &After = Variant.*Field;
  return Text + " -> " + (After ? percent(*After) : "not recorded");
}
} // namespace

RunFigures RunFigures::notRecorded(llvm::StringRef Why) {
  RunFigures F;
  F.NotRecorded = Why.empty() ? "no reason given" : Why.str();
  return F;
}

std::optional<double> RunFigures::dramGBs() const {
  if (!DramBytes || !DurationMs || *DurationMs <= 0)
    return std::nullopt;
  return *DramBytes / (*DurationMs * 1e-3) / 1e9;
}

std::optional<double> RunFigures::gflops() const {
  if (!Flops || !DurationMs || *DurationMs <= 0)
    return std::nullopt;
  return *Flops / (*DurationMs * 1e-3) / 1e9;
}

std::optional<double> RunFigures::intensity() const {
  if (!Flops || !DramBytes || *DramBytes <= 0)
    return std::nullopt;
  return *Flops / *DramBytes;
}

bool RunFigures::memoryBound() const { return DramPct && (!SmPct || *DramPct >= *SmPct); }

json toJson(const EntryProfile &P) {
  json Device = {{"name", P.Device.Name}};
  put(Device, "dram_peak_gbs", P.Device.DramPeakGBs);
  put(Device, "copy_gbs", P.Device.CopyGBs);
  if (!P.Device.CopySource.empty())
    Device["copy_source"] = P.Device.CopySource;
  put(Device, "fp32_peak_gflops", P.Device.Fp32PeakGflops);
  put(Device, "fp64_peak_gflops", P.Device.Fp64PeakGflops);
  return {{"original", toJson(P.Original)}, {"variant", toJson(P.Variant)}, {"device", Device}};
}

llvm::Expected<EntryProfile> entryProfileFromJson(const json &J) {
  return parsed([&] {
    EntryProfile P;
    P.Original = runFiguresFromJson(J.at("original"));
    P.Variant = runFiguresFromJson(J.at("variant"));
    const json &D = J.at("device");
    P.Device.Name = stringAt(D, "name");
    P.Device.DramPeakGBs = numberAt(D, "dram_peak_gbs");
    P.Device.CopyGBs = numberAt(D, "copy_gbs");
    P.Device.CopySource = stringAt(D, "copy_source");
    P.Device.Fp32PeakGflops = numberAt(D, "fp32_peak_gflops");
    P.Device.Fp64PeakGflops = numberAt(D, "fp64_peak_gflops");
    return P;
  });
}

json toJson(const OriginalKernel &K) {
  return {{"file", K.File}, {"line", K.Line}, {"definition", K.Definition}};
}

llvm::Expected<OriginalKernel> originalKernelFromJson(const json &J) {
  return parsed([&] {
    return OriginalKernel{J.at("file").get<std::string>(), J.at("line").get<unsigned>(),
                          J.at("definition").get<std::string>()};
  });
}

json toJson(const std::vector<TransformNote> &Notes) {
  json J = json::array();
  for (const TransformNote &N : Notes) {
    json One = {{"id", N.Id}, {"status", N.Status}};
    if (!N.Why.empty())
      One["why"] = N.Why;
    J.push_back(std::move(One));
  }
  return J;
}

llvm::Expected<std::vector<TransformNote>> transformNotesFromJson(const json &J) {
  return parsed([&] {
    std::vector<TransformNote> Notes;
    for (const json &One : J)
      Notes.push_back({One.at("id").get<std::string>(), One.at("status").get<std::string>(),
                       stringAt(One, "why")});
    return Notes;
  });
}

std::string describePeakShares(const EntryProfile &P, bool WithVariant) {
  const RunFigures &O = P.Original;
  if (!O.recorded())
    return "% of peak not recorded (" + O.NotRecorded + ")";
  const bool Both = WithVariant && P.Variant.recorded();
  std::string Text =
      "DRAM " + shares(O.DramPct, P.Variant, &RunFigures::DramPct, WithVariant) + " of peak";
  // A memory-bound kernel's bandwidth against what a copy reaches on the device.
  if (O.memoryBound() && O.dramGBs()) {
    Text += llvm::formatv(" ({0:f0}", *O.dramGBs()).str();
    if (Both && P.Variant.dramGBs())
      Text += llvm::formatv(" -> {0:f0}", *P.Variant.dramGBs()).str();
    Text += " GB/s";
    // A copy timed on the device, or the peak the profile's share implies.
    if (P.Device.CopyGBs)
      Text += llvm::formatv(llvm::StringRef(P.Device.CopySource).starts_with("measured")
                                ? " of a {0:f0} GB/s copy"
                                : " of {0:f0} GB/s peak",
                            *P.Device.CopyGBs)
                  .str();
    Text += ")";
  }
  Text += ", SM " + shares(O.SmPct, P.Variant, &RunFigures::SmPct, WithVariant);
  if (WithVariant && !P.Variant.recorded())
    Text += " (the variant's profile not recorded: " + P.Variant.NotRecorded + ")";
  return Text;
}

std::string headroomReading(const RunFigures &O, llvm::StringRef Kind) {
  if (!O.recorded())
    return "% of peak not recorded (" + O.NotRecorded + ")";
  if (!O.DramPct && !O.SmPct)
    return "% of peak not recorded (the profile has no throughputs)";
  const double Dram = O.DramPct.value_or(0), Sm = O.SmPct.value_or(0);
  const bool Memory = O.memoryBound();
  const double Top = std::max(Dram, Sm);
  if (Top >= LittleHeadroomPct)
    return "at " + percent(Top) + " of " + (Memory ? "DRAM" : "SM") + " peak: little headroom";
  std::string What = Kind.empty() ? "of a kind not recorded"
                     : Kind == "other"
                         ? "of no kind kopt knows"
                         : (llvm::StringRef("aeiou").contains(Kind.front()) ? "an " : "a ") +
                               Kind.str() + " kernel";
  // Neither unit near its peak: the kernel waits (latency, occupancy, a serial part).
  return "at " + percent(Top) + " of peak: no transform fits; the kernel is " + What +
         ", limited by latency (DRAM " + (O.DramPct ? percent(Dram) : "not recorded") + ", SM " +
         (O.SmPct ? percent(Sm) : "not recorded") + ")";
}

} // namespace kopt::memory
