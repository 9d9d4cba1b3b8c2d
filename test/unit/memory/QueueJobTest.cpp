// The work queue's URL (a Redis server and a queue name) and its job format:
// what they accept, what they reject (naming the problem, never echoing a
// password), and that a job comes back as it was sent.
#include "memory/queue/QueueJob.h"
#include "memory/queue/QueueSpec.h"

#include <gtest/gtest.h>

using namespace kopt::memory;

namespace {

std::optional<std::string> noEnvironment(const char *Name) {
  if (llvm::StringRef(Name) == "QUEUE_PASSWORD")
    return std::string("s3cret");
  return std::nullopt;
}

std::string error(llvm::StringRef Text) {
  llvm::Expected<QueueSpec> Spec = parseQueueSpec(Text, noEnvironment);
  return Spec ? "(accepted)" : llvm::toString(Spec.takeError());
}

QueueJob sampleJob() {
  QueueJob Job;
  Job.Kernel = "ns::scale";
  Job.Origin = "src/k.cu:12";
  Job.Unit = "#define N 64\n\nnamespace ns {\n__global__ void scale(float *x) { x[0] *= 2; }\n\n"
             "} // ns\n";
  Job.PragmaAt = Job.Unit.find("__global__");
  Job.Pragma = "#pragma kopt optimize launch(grid: 1; block: N) buffers(x[N] inout)";
  Job.Flags = {"-O3", "-arch=sm_90", "-c", "src/k.cu", "-o", "k.o"};
  Job.Arch = "sm_90";
  Job.Key = {digestOf("{\"key_format\":2}"), "{\"key_format\":2}"};
  Job.Engine = "skills";
  Job.Budget = "120s";
  Job.Submitted = "2026-11-28T12:00:00Z";
  Job.Submitter = "ci-runner-7";
  return Job;
}

} // namespace

TEST(QueueSpec, NameWhereARemoteCacheHasItsDatabase) {
  llvm::Expected<QueueSpec> S = parseQueueSpec("redis://gpu.example:7000/nightly", noEnvironment);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Name, "nightly");
  EXPECT_EQ(S->Server.Host, "gpu.example");
  EXPECT_EQ(S->Server.Port, 7000u);
  EXPECT_EQ(S->Server.Database, 0u);
  EXPECT_EQ(S->display(), "redis://gpu.example:7000/nightly");
  // The server is the remote cache of builds and workers without remote_cache.
  EXPECT_EQ(S->cacheServer().display(), "redis://gpu.example:7000/0");

  llvm::Expected<QueueSpec> Default = parseQueueSpec("redis://gpu.example", noEnvironment);
  ASSERT_TRUE(bool(Default));
  EXPECT_EQ(Default->display(), "redis://gpu.example:6379/kopt");
}

TEST(QueueSpec, PasswordsAndTimeoutsAsForRemoteCaches) {
  llvm::Expected<QueueSpec> S = parseQueueSpec(
      "redis://ci:${QUEUE_PASSWORD}@gpu.example/kopt|connect-timeout=500", noEnvironment);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Server.Password, "s3cret");
  EXPECT_EQ(S->Server.ConnectTimeoutMs, 500u);
  EXPECT_EQ(S->display(), "redis://ci:********@gpu.example:6379/kopt");
}

TEST(QueueSpec, RejectsWhatIsNoQueue) {
  EXPECT_EQ(error("http://gpu.example/kopt"),
            "queue 'http://gpu.example/kopt': expected redis://host[:port]/NAME");
  EXPECT_EQ(error("redis://gpu.example/a/b"),
            "queue 'redis://gpu.example/a/b': the queue's name 'a/b' must be 1 to 64 letters, "
            "digits, '_', '.' or '-'");
  EXPECT_EQ(error("redis://gpu.example/kopt|read-only"),
            "queue 'redis://gpu.example/kopt': a queue cannot be read-only");
  EXPECT_EQ(error("redis://u:hunter2@gpu.example:99999/kopt"),
            "queue 'redis://u:********@gpu.example:99999': invalid port '99999'");
  EXPECT_EQ(error("redis://gpu.example/kopt|lease=5"),
            "queue 'redis://gpu.example': unknown attribute 'lease' (known: read-only, "
            "connect-timeout, operation-timeout)");
}

TEST(QueueJob, ComesBackAsSent) {
  QueueJob Sent = sampleJob();
  llvm::Expected<QueueJob> Got = parseJob(serializeJob(Sent));
  ASSERT_TRUE(bool(Got)) << llvm::toString(Got.takeError());
  EXPECT_EQ(Got->Kernel, Sent.Kernel);
  EXPECT_EQ(Got->Origin, Sent.Origin);
  EXPECT_EQ(Got->Unit, Sent.Unit);
  EXPECT_EQ(Got->Pragma, Sent.Pragma);
  EXPECT_EQ(Got->PragmaAt, Sent.PragmaAt);
  EXPECT_EQ(Got->Flags, Sent.Flags);
  EXPECT_EQ(Got->Arch, Sent.Arch);
  EXPECT_EQ(Got->Key.Digest, Sent.Key.Digest);
  EXPECT_EQ(Got->Key.Canonical, Sent.Key.Canonical);
  EXPECT_EQ(Got->Engine, Sent.Engine);
  EXPECT_EQ(Got->Budget, Sent.Budget);
  EXPECT_EQ(Got->Submitted, Sent.Submitted);
  EXPECT_EQ(Got->Submitter, Sent.Submitter);
}

TEST(QueueJob, TheWorkerParsesTheUnitWithThePragmaBeforeTheKernel) {
  EXPECT_EQ(sampleJob().workerSource(),
            "#define N 64\n\nnamespace ns {\n"
            "#pragma kopt optimize launch(grid: 1; block: N) buffers(x[N] inout)\n"
            "__global__ void scale(float *x) { x[0] *= 2; }\n\n} // ns\n");
}

TEST(QueueJob, RejectsBrokenJobs) {
  auto Error = [](const std::string &Text) {
    llvm::Expected<QueueJob> J = parseJob(Text);
    return J ? "(accepted)" : llvm::toString(J.takeError());
  };
  EXPECT_EQ(Error("{\"format\": \"kopt-job-1\""), "a job is not JSON");
  EXPECT_EQ(Error("{\"format\": \"kopt-job-9\"}"), "a job of format 'kopt-job-9', not kopt-job-1");
  EXPECT_EQ(Error("{\"format\": \"kopt-job-1\", \"kernel\": \"k\"}").substr(0, 15),
            "a malformed job");
  QueueJob Tampered = sampleJob();
  Tampered.Key.Canonical += " ";
  EXPECT_EQ(Error(serializeJob(Tampered)),
            "job of ns::scale: its key text does not hash to its key");
  QueueJob Outside = sampleJob();
  Outside.PragmaAt = Outside.Unit.size() + 1;
  EXPECT_EQ(Error(serializeJob(Outside)),
            "job of ns::scale: the pragma's place is outside the unit");
}
