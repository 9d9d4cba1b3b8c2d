#include "memory/queue/QueueJob.h"

#include <nlohmann/json.hpp>

namespace kopt::memory {

namespace {
constexpr const char *Format = "kopt-job-1";
} // namespace

std::string QueueJob::workerSource() const {
  return Unit.substr(0, PragmaAt) + Pragma + "\n" + Unit.substr(PragmaAt);
}

std::string serializeJob(const QueueJob &Job) {
  nlohmann::ordered_json J = {
      {"format", Format},           {"kernel", Job.Kernel},      {"origin", Job.Origin},
      {"arch", Job.Arch},           {"key", Job.Key.Digest},     {"key_text", Job.Key.Canonical},
      {"pragma", Job.Pragma},       {"pragma_at", Job.PragmaAt}, {"flags", Job.Flags},
      {"engine", Job.Engine},       {"budget", Job.Budget},      {"submitted", Job.Submitted},
      {"submitter", Job.Submitter}, {"unit", Job.Unit}};
  return J.dump();
}

llvm::Expected<QueueJob> parseJob(llvm::StringRef Text) {
  nlohmann::json J = nlohmann::json::parse(Text.begin(), Text.end(), nullptr, false);
  if (J.is_discarded() || !J.is_object())
    return llvm::createStringError("a job is not JSON");
  if (J.value("format", "") != Format)
    return llvm::createStringError("a job of format '%s', not %s",
                                   J.value("format", "(none)").c_str(), Format);
  QueueJob Job;
  try {
    Job.Kernel = J.at("kernel").get<std::string>();
    Job.Origin = J.at("origin").get<std::string>();
    Job.Arch = J.at("arch").get<std::string>();
    Job.Key = {J.at("key").get<std::string>(), J.at("key_text").get<std::string>()};
    Job.Pragma = J.at("pragma").get<std::string>();
    Job.PragmaAt = J.at("pragma_at").get<size_t>();
    Job.Flags = J.at("flags").get<std::vector<std::string>>();
    Job.Engine = J.at("engine").get<std::string>();
    Job.Budget = J.at("budget").get<std::string>();
    Job.Submitted = J.at("submitted").get<std::string>();
    Job.Submitter = J.at("submitter").get<std::string>();
    Job.Unit = J.at("unit").get<std::string>();
  } catch (const nlohmann::json::exception &E) {
    return llvm::createStringError("a malformed job: %s", E.what());
  }
  if (digestOf(Job.Key.Canonical) != Job.Key.Digest)
    return llvm::createStringError("job of %s: its key text does not hash to its key",
                                   Job.Kernel.c_str());
  if (Job.PragmaAt > Job.Unit.size())
    return llvm::createStringError("job of %s: the pragma's place is outside the unit",
                                   Job.Kernel.c_str());
  return Job;
}

} // namespace kopt::memory
