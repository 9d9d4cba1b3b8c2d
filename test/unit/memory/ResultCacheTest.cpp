#include "memory/cache/ResultCache.h"
#include "driver/config/CacheConfig.h"
#include "memory/cache/CacheEntry.h"
#include "memory/cache/FileLock.h"
#include "memory/cache/GpuLock.h"
#include "memory/cache/VariantJson.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <thread>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace kopt::memory;

namespace {
CacheKeyInputs inputs() {
  return {"sha256:abc", "launch(grid: 4; block: 256)", "sm_90",
          "13.0",       {"--maxrregcount=32"},         "0.1.0"};
}

CacheEntry sampleEntry(const std::string &Name = "saxpy") {
  CacheEntry E;
  E.KernelName = Name;
  kopt::frontend::KernelVariant V;
  V.KernelName = Name;
  V.Code = "__global__ void " + Name + "_v(int n) {}\n";
  V.VariantName = Name + "_v";
  kopt::frontend::LaunchMapping M;
  M.Block = {"128", "block_y", "block_z"};
  M.Grid = {"(grid_x * block_x + 127) / 128", "grid_y", "grid_z"};
  V.Launch = M;
  E.Variant = V;
  E.Speedup = 1.75;
  E.Verification = {{"max_abs_error", 0.0}, {"inputs", 3}};
  E.Timing = {{"original_us", 10.5}, {"variant_us", 6.0}};
  E.Trajectory = nlohmann::json::array({"block128"});
  E.Origin = {"skills", "", "NVIDIA H100 80GB HBM3", "2026-11-22", "0.1.0", {"block-size"}};
  return E;
}

// One key for each architecture, the other inputs alike.
std::vector<CacheKey> keysFor(std::initializer_list<const char *> Archs) {
  std::vector<CacheKey> Keys;
  for (const char *Arch : Archs) {
    CacheKeyInputs In = inputs();
    In.Arch = Arch;
    Keys.push_back(makeCacheKey(In));
  }
  return Keys;
}

std::string readFile(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : "";
}

void writeFile(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  OS << Text;
}

class ResultCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-cache-test", Dir));
    Root = std::string(Dir);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }
  ResultCache open(CacheConfig Config = {}) {
    if (Config.UserDir.empty())
      Config.UserDir = Root + "/user";
    return llvm::cantFail(ResultCache::open(Config));
  }
  std::string Root;
};
} // namespace

TEST(CacheKey, SameInputsSameKeyAndEveryInputCounts) {
  CacheKey Base = makeCacheKey(inputs());
  EXPECT_EQ(Base.Digest, makeCacheKey(inputs()).Digest);
  EXPECT_EQ(Base.Digest.size(), 64u);
  EXPECT_EQ(Base.Digest, digestOf(Base.Canonical));
  std::vector<CacheKeyInputs> Changed(9, inputs());
  Changed[0].UnitHash = "sha256:abd";
  Changed[1].Clauses = "launch(grid: 8; block: 256)";
  Changed[2].Arch = "sm_80";
  Changed[3].CudaVersion = "12.8";
  Changed[4].DeviceFlags = {"--maxrregcount=32", "--use_fast_math"};
  Changed[5].KoptVersion = "0.2.0";
  Changed[6].DeviceFlags = {};
  Changed[7].Environment = {"N=4"};
  Changed[8].DeviceModel = "NVIDIA H200"; // A model's key is not its architecture's.
  for (const CacheKeyInputs &In : Changed)
    EXPECT_NE(makeCacheKey(In).Digest, Base.Digest) << makeCacheKey(In).Canonical;
}

TEST(CacheKey, CanonicalTextListsTheInputsInOrderAndEscapesThem) {
  CacheKeyInputs In = inputs();
  In.Clauses = "a\",\"arch\":\"sm_80";
  EXPECT_EQ(makeCacheKey(In).Canonical,
            R"({"key_format":2,"unit":"sha256:abc","environment":[],)"
            R"("clauses":"a\",\"arch\":\"sm_80","arch":"sm_90","cuda":"13.0",)"
            R"("device_flags":["--maxrregcount=32"],"kopt":"0.1.0"})");
}

TEST(CacheEntryFormat, RoundTripsEveryField) {
  CacheKey Key = makeCacheKey(inputs());
  CacheEntry E = sampleEntry();
  StoredEntry S = llvm::cantFail(parseEntry(serializeEntry(Key, E)));
  EXPECT_EQ(S.Key.Digest, Key.Digest);
  EXPECT_EQ(S.Key.Canonical, Key.Canonical);
  EXPECT_EQ(S.Entry.KernelName, "saxpy");
  ASSERT_TRUE(S.Entry.Variant.has_value());
  EXPECT_EQ(S.Entry.Variant->Code, E.Variant->Code);
  EXPECT_EQ(S.Entry.Variant->VariantName, "saxpy_v");
  ASSERT_TRUE(S.Entry.Variant->Launch.has_value());
  EXPECT_EQ(S.Entry.Variant->Launch->Grid, E.Variant->Launch->Grid);
  EXPECT_EQ(S.Entry.Variant->Launch->Block, E.Variant->Launch->Block);
  EXPECT_EQ(S.Entry.Variant->Launch->SharedMem, "smem");
  EXPECT_EQ(S.Entry.Speedup, 1.75);
  EXPECT_EQ(S.Entry.Verification, E.Verification);
  EXPECT_EQ(S.Entry.Timing, E.Timing);
  EXPECT_EQ(S.Entry.Trajectory, E.Trajectory);
  EXPECT_EQ(S.Entry.Origin.Device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(S.Entry.Origin.Skills, std::vector<std::string>{"block-size"});

  CacheEntry NoVariant = sampleEntry();
  NoVariant.Variant.reset();
  NoVariant.Speedup = 1;
  EXPECT_FALSE(llvm::cantFail(parseEntry(serializeEntry(Key, NoVariant))).Entry.Variant);
}

TEST(CacheEntryFormat, CorruptTruncatedAndFutureEntriesAreRejected) {
  CacheKey Key = makeCacheKey(inputs());
  std::string Text = serializeEntry(Key, sampleEntry());
  std::string Flipped = Text;
  Flipped.replace(Flipped.find("saxpy_v(int"), 5, "saxpY");
  EXPECT_EQ(llvm::toString(parseEntry(Flipped).takeError()), "checksum mismatch");
  EXPECT_EQ(llvm::toString(parseEntry(llvm::StringRef(Text).drop_back(40)).takeError()),
            "not valid JSON (truncated?)");
  std::string Future = Text;
  Future.replace(Future.find("\"format\": 1"), 11, "\"format\": 2");
  EXPECT_EQ(llvm::toString(parseEntry(Future).takeError()), "unsupported entry format 2");
  EXPECT_FALSE(llvm::errorToBool(parseEntry(Text).takeError()));
}

TEST(VariantJson, MistypedLaunchMappingIsAnError) {
  nlohmann::json J = {{"grid", {"1", "1"}}, {"block", {"1", "1", "1"}}, {"smem", "0"}};
  llvm::Expected<kopt::frontend::LaunchMapping> M = launchMappingFromJson(J);
  ASSERT_FALSE(M);
  EXPECT_NE(llvm::toString(M.takeError()).find("bad launch mapping"), std::string::npos);
}

TEST_F(ResultCacheTest, StoreThenLookupHitsAndCounts) {
  ResultCache Cache = open();
  CacheKey Key = makeCacheKey(inputs());
  EXPECT_FALSE(llvm::cantFail(Cache.lookup(Key)).has_value());
  ASSERT_FALSE(llvm::errorToBool(Cache.store(Key, sampleEntry())));
  std::optional<CacheEntry> Hit = llvm::cantFail(Cache.lookup(Key));
  ASSERT_TRUE(Hit);
  EXPECT_EQ(Hit->Variant->Code, sampleEntry().Variant->Code);
  CacheCounters C = Cache.counters();
  EXPECT_EQ(C[Counter::Misses], 1u);
  EXPECT_EQ(C[Counter::UserHits], 1u);
  EXPECT_EQ(C[Counter::Stores], 1u);
  EXPECT_EQ(C[Counter::Errors], 0u);
  EXPECT_EQ(Cache.list().size(), 1u);
}

TEST_F(ResultCacheTest, CorruptOrTruncatedEntryIsReportedAndMisses) {
  ResultCache Cache = open();
  CacheKey Key = makeCacheKey(inputs());
  ASSERT_FALSE(llvm::errorToBool(Cache.store(Key, sampleEntry())));
  std::string Path = entryPath(Root + "/user", Key.Digest);
  std::string Text = readFile(Path);
  writeFile(Path, llvm::StringRef(Text).take_front(Text.size() / 2));
  std::string Warning;
  EXPECT_FALSE(llvm::cantFail(Cache.lookup(Key, &Warning)).has_value());
  EXPECT_NE(Warning.find("not valid JSON"), std::string::npos) << Warning;
  EXPECT_NE(Warning.find(Path), std::string::npos) << Warning;

  std::string Tampered = Text;
  Tampered.replace(Tampered.find("1.75"), 4, "9.75");
  writeFile(Path, Tampered);
  Warning.clear();
  EXPECT_FALSE(llvm::cantFail(Cache.lookup(Key, &Warning)).has_value());
  EXPECT_NE(Warning.find("checksum mismatch"), std::string::npos) << Warning;
  CacheCounters C = Cache.counters();
  EXPECT_EQ(C[Counter::Errors], 2u);
  EXPECT_EQ(C[Counter::Misses], 2u);
  EXPECT_EQ(C[Counter::UserHits], 0u);
}

TEST_F(ResultCacheTest, EntryUnderAnotherKeyIsRejected) {
  ResultCache Cache = open();
  CacheKey Key = makeCacheKey(inputs());
  CacheKeyInputs Other = inputs();
  Other.Arch = "sm_80";
  CacheKey OtherKey = makeCacheKey(Other);
  ASSERT_FALSE(llvm::errorToBool(Cache.store(OtherKey, sampleEntry())));
  ASSERT_FALSE(llvm::sys::fs::create_directories(
      llvm::sys::path::parent_path(entryPath(Root + "/user", Key.Digest))));
  ASSERT_FALSE(llvm::sys::fs::copy_file(entryPath(Root + "/user", OtherKey.Digest),
                                        entryPath(Root + "/user", Key.Digest)));
  std::string Warning;
  EXPECT_FALSE(llvm::cantFail(Cache.lookup(Key, &Warning)).has_value());
  EXPECT_NE(Warning.find("holds the entry of key " + OtherKey.Digest), std::string::npos);
}

TEST_F(ResultCacheTest, ProjectCacheIsReadFirstAndNeverWritten) {
  CacheKey Key = makeCacheKey(inputs());
  ResultCache Maker = open();
  ASSERT_FALSE(llvm::errorToBool(Maker.store(Key, sampleEntry("from_project"))));
  std::vector<std::string> Skipped;
  EXPECT_EQ(llvm::cantFail(Maker.exportTo(Root + "/project", Skipped)), 1u);
  EXPECT_TRUE(Skipped.empty());

  CacheConfig Config{Root + "/other-user", Root + "/project", 0, false, {}};
  ResultCache Cache = open(Config);
  ASSERT_FALSE(llvm::errorToBool(Cache.store(Key, sampleEntry("from_user"))));
  std::optional<CacheEntry> Hit = llvm::cantFail(Cache.lookup(Key));
  ASSERT_TRUE(Hit);
  EXPECT_EQ(Hit->KernelName, "from_project");
  EXPECT_EQ(Cache.counters()[Counter::ProjectHits], 1u);
  EXPECT_EQ(listEntryFiles(Root + "/project").size(), 1u);
  EXPECT_EQ(llvm::cantFail(parseEntry(readFile(entryPath(Root + "/project", Key.Digest))))
                .Entry.KernelName,
            "from_project");

  // A corrupt project entry falls through to the user cache.
  writeFile(entryPath(Root + "/project", Key.Digest), "{\"format\": 1, \"chec");
  std::string Warning;
  Hit = llvm::cantFail(Cache.lookup(Key, &Warning));
  ASSERT_TRUE(Hit);
  EXPECT_EQ(Hit->KernelName, "from_user");
  EXPECT_FALSE(Warning.empty());

  // import copies valid entries only.
  ResultCache Fresh = open({Root + "/fresh", std::nullopt, 0, false, {}});
  Skipped.clear();
  EXPECT_EQ(llvm::cantFail(Fresh.importFrom(Root + "/project", Skipped)), 0u);
  EXPECT_EQ(Skipped.size(), 1u);
}

TEST_F(ResultCacheTest, ReadOnlyCacheServesHitsAndRefusesStores) {
  CacheKey Key = makeCacheKey(inputs());
  ASSERT_FALSE(llvm::errorToBool(open().store(Key, sampleEntry())));
  ResultCache Cache = open({Root + "/user", std::nullopt, 0, /*ReadOnly=*/true, {}});
  EXPECT_TRUE(llvm::cantFail(Cache.lookup(Key)).has_value());
  llvm::Error E = Cache.store(makeCacheKey(CacheKeyInputs{}), sampleEntry());
  EXPECT_NE(llvm::toString(std::move(E)).find("read only"), std::string::npos);
  EXPECT_EQ(Cache.counters()[Counter::UserHits], 0u); // Counters are not written either.
}

// Root ignores permission bits, so as root the checks run in a child process
// that has become nobody.
TEST_F(ResultCacheTest, ReadOnlyDirectoryServesHitsAndStoreFails) {
  CacheKey Key = makeCacheKey(inputs());
  ASSERT_FALSE(llvm::errorToBool(open().store(Key, sampleEntry())));
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC))
    ::chmod(It->path().c_str(),
            It->type() == llvm::sys::fs::file_type::directory_file ? 0555 : 0444);
  ASSERT_EQ(::chmod(Root.c_str(), 0555), 0);
  auto Check = [&] {
    ResultCache Cache = open();
    CacheKeyInputs Other = inputs();
    Other.Arch = "sm_80";
    return llvm::cantFail(Cache.lookup(Key)).has_value() &&
           llvm::errorToBool(Cache.store(makeCacheKey(Other), sampleEntry())) &&
           listEntryFiles(Root + "/user").size() == 1;
  };
  if (::geteuid() != 0) {
    EXPECT_TRUE(Check());
  } else {
    pid_t Child = ::fork();
    if (Child == 0)
      _exit(::setgid(65534) == 0 && ::setuid(65534) == 0 && Check() ? 0 : 1);
    int Status = 0;
    ASSERT_EQ(::waitpid(Child, &Status, 0), Child);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  ::chmod(Root.c_str(), 0700);
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC))
    ::chmod(It->path().c_str(), 0700);
}

TEST_F(ResultCacheTest, UnwritableDirectoryStoreReturnsAnError) {
  writeFile(Root + "/a-file", "not a directory");
  ResultCache Cache = open({Root + "/a-file/cache", std::nullopt, 0, false, {}});
  CacheKey Key = makeCacheKey(inputs());
  llvm::Error E = Cache.store(Key, sampleEntry());
  ASSERT_TRUE(!!E);
  EXPECT_NE(llvm::toString(std::move(E)).find(Root + "/a-file/cache"), std::string::npos);
  EXPECT_FALSE(llvm::cantFail(Cache.lookup(Key)).has_value()); // A miss, not a crash.
  EXPECT_EQ(Cache.list().size(), 0u);
}

TEST_F(ResultCacheTest, LeastRecentlyUsedEntriesAreEvictedFirst) {
  std::vector<CacheKey> Keys = keysFor({"sm_70", "sm_80", "sm_86", "sm_90"});
  uint64_t One = serializeEntry(Keys[0], sampleEntry()).size();
  ResultCache Cache = open({Root + "/user", std::nullopt, One * 7 / 2, false, {}});
  for (int I = 0; I < 3; ++I)
    ASSERT_FALSE(llvm::errorToBool(Cache.store(Keys[I], sampleEntry())));
  // Stored long ago, oldest first; then a hit makes the oldest the most recent.
  for (int I = 0; I < 3; ++I) {
    int Fd;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(entryPath(Root + "/user", Keys[I].Digest), Fd,
                                                 llvm::sys::fs::CD_OpenExisting));
    llvm::sys::fs::setLastAccessAndModificationTime(Fd,
                                                    llvm::sys::toTimePoint(1000000000 + I * 1000));
    ::close(Fd);
  }
  ASSERT_TRUE(llvm::cantFail(Cache.lookup(Keys[0])).has_value());
  ASSERT_FALSE(llvm::errorToBool(Cache.store(Keys[3], sampleEntry())));
  EXPECT_TRUE(llvm::cantFail(Cache.lookup(Keys[0])).has_value());
  EXPECT_FALSE(llvm::cantFail(Cache.lookup(Keys[1])).has_value()); // The least recently used.
  EXPECT_TRUE(llvm::cantFail(Cache.lookup(Keys[2])).has_value());
  EXPECT_TRUE(llvm::cantFail(Cache.lookup(Keys[3])).has_value());
  EXPECT_EQ(Cache.counters()[Counter::Evictions], 1u);
  EXPECT_LE(Cache.userBytes(), One * 7 / 2);
}

TEST_F(ResultCacheTest, GcEnforcesALoweredLimitAndClearEmpties) {
  std::vector<CacheKey> Keys = keysFor({"sm_70", "sm_80", "sm_90"});
  for (const CacheKey &K : Keys)
    ASSERT_FALSE(llvm::errorToBool(open().store(K, sampleEntry())));
  uint64_t One = serializeEntry(Keys[0], sampleEntry()).size();
  ResultCache Small = open({Root + "/user", std::nullopt, One * 2, false, {}});
  GcResult Gc = llvm::cantFail(Small.gc());
  EXPECT_EQ(Gc.Evicted, 2u); // Down to 90% of two entries: one is left.
  EXPECT_EQ(Gc.BytesAfter, One);
  EXPECT_EQ(llvm::cantFail(Small.clear()).Entries, 1u);
  EXPECT_EQ(Small.list().size(), 0u);
  EXPECT_EQ(Small.counters()[Counter::Stores], 0u);
}

namespace {
void setLastUse(const std::string &Path, int64_t SecondsSinceEpoch) {
  int Fd;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(Path, Fd, llvm::sys::fs::CD_OpenExisting));
  llvm::sys::fs::setLastAccessAndModificationTime(Fd, llvm::sys::toTimePoint(SecondsSinceEpoch));
  ::close(Fd);
}

DirectManifest bigManifest(char Key, uint64_t Bytes) {
  DirectManifest M;
  M.Key = std::string(64, Key);
  M.Output = std::string(Bytes, 'x');
  return M;
}
} // namespace

// Issue 32: a limit below the working set evicted verified entries (only a GPU
// remakes one) to keep direct-mode manifests (a parse remakes one). Manifests
// go first, however recently used; entries only when no manifest is left.
TEST_F(ResultCacheTest, ManifestsAreEvictedBeforeVerifiedEntries) {
  std::vector<CacheKey> Keys = keysFor({"sm_70", "sm_80", "sm_90"});
  uint64_t One = serializeEntry(Keys[0], sampleEntry()).size();
  ResultCache Cache = open({Root + "/user", std::nullopt, One * 4, false, {}});
  for (int I = 0; I < 3; ++I) {
    ASSERT_FALSE(llvm::errorToBool(Cache.store(Keys[I], sampleEntry())));
    setLastUse(entryPath(Root + "/user", Keys[I].Digest), 1000000000 + I * 1000); // Long ago.
  }
  // Two manifests, each the size of an entry, used now: the cache is over its limit.
  for (char Key : {'a', 'b'})
    ASSERT_FALSE(llvm::errorToBool(Cache.storeManifest(bigManifest(Key, One))));
  EXPECT_EQ(listManifestFiles(Root + "/user").size(), 0u);
  for (const CacheKey &K : Keys)
    EXPECT_TRUE(llvm::cantFail(Cache.lookup(K)).has_value()) << K.Digest;
  EXPECT_EQ(Cache.counters()[Counter::Evictions], 2u);

  // Past the manifests, entries go least recently used first.
  for (int I = 0; I < 3; ++I)
    setLastUse(entryPath(Root + "/user", Keys[I].Digest), 1000000000 + I * 1000);
  ASSERT_FALSE(llvm::errorToBool(open().storeManifest(bigManifest('c', One)))); // No limit.
  ResultCache Small = open({Root + "/user", std::nullopt, One * 2, false, {}});
  GcResult Gc = llvm::cantFail(Small.gc());
  EXPECT_EQ(Gc.Evicted, 3u);
  EXPECT_EQ(Gc.EvictedEntries, 2u);
  EXPECT_EQ(listManifestFiles(Root + "/user").size(), 0u);
  EXPECT_FALSE(llvm::cantFail(Small.lookup(Keys[0])).has_value());
  EXPECT_FALSE(llvm::cantFail(Small.lookup(Keys[1])).has_value());
  EXPECT_TRUE(llvm::cantFail(Small.lookup(Keys[2])).has_value());
}

// A limit that cannot hold what this build has used since it began is said
// once a build, by the store that evicts.
TEST_F(ResultCacheTest, ALimitBelowTheBuildsWorkingSetWarnsOnce) {
  ::setenv("KOPT_BUILD_ID", ("working-set-" + llvm::sys::path::filename(Root)).str().c_str(), 1);
  std::vector<CacheKey> Keys = keysFor({"sm_70", "sm_75", "sm_80", "sm_86"});
  uint64_t One = serializeEntry(Keys[0], sampleEntry()).size();
  CacheConfig Config{Root + "/user", std::nullopt, One * 5 / 2, false, {}};
  Config.BuildStart =
      llvm::sys::TimePoint<>(std::chrono::system_clock::now()) - std::chrono::seconds(5);
  ResultCache Cache = open(Config);
  std::vector<std::string> Warnings(Keys.size());
  for (size_t I = 0; I < Keys.size(); ++I)
    ASSERT_FALSE(llvm::errorToBool(Cache.store(Keys[I], sampleEntry(), &Warnings[I])));
  EXPECT_EQ(Warnings[0] + Warnings[1], "");
  EXPECT_NE(Warnings[2].find("is below this build's working set"), std::string::npos)
      << Warnings[2];
  EXPECT_EQ(Warnings[3], ""); // Said once.

  // Where the evicted files are older than the build, nothing is said.
  ::setenv("KOPT_BUILD_ID", ("working-set-2-" + llvm::sys::path::filename(Root)).str().c_str(), 1);
  Config.BuildStart =
      llvm::sys::TimePoint<>(std::chrono::system_clock::now()) + std::chrono::seconds(60);
  ResultCache Later = open(Config);
  std::string Quiet;
  ASSERT_FALSE(llvm::errorToBool(Later.store(Keys[0], sampleEntry(), &Quiet)));
  EXPECT_EQ(Quiet, "");
  ::unsetenv("KOPT_BUILD_ID");
}

// `kopt cache verify`: every file a lookup would refuse, with why; gc removes
// the user cache's, and a valid entry is never touched.
TEST_F(ResultCacheTest, VerifyListsCorruptFilesAndGcRemovesThem) {
  std::vector<CacheKey> Keys = keysFor({"sm_70", "sm_80", "sm_86", "sm_90"});
  std::string User = Root + "/user", Project = Root + "/project";
  ResultCache Maker = open();
  for (const CacheKey &K : Keys)
    ASSERT_FALSE(llvm::errorToBool(Maker.store(K, sampleEntry())));
  ASSERT_FALSE(llvm::errorToBool(Maker.storeManifest(bigManifest('a', 100))));
  std::string Truncated = entryPath(User, Keys[0].Digest);
  std::string Text = readFile(Truncated);
  writeFile(Truncated, llvm::StringRef(Text).take_front(100));
  std::string Tampered = entryPath(User, Keys[1].Digest);
  std::string Changed = readFile(Tampered);
  writeFile(Tampered, Changed.replace(Changed.find("1.75"), 4, "9.75"));
  std::string Future = entryPath(User, Keys[2].Digest);
  writeFile(Future, R"({"format": 7, "checksum": "sha256:00", "payload": {}})");
  writeFile(manifestPath(User, std::string(64, 'a')), "kopt-manifest 1 00\n{}");
  ASSERT_FALSE(llvm::sys::fs::create_directories(
      llvm::sys::path::parent_path(entryPath(Project, Keys[1].Digest))));
  ASSERT_FALSE(llvm::sys::fs::copy_file(entryPath(User, Keys[3].Digest),
                                        entryPath(Project, Keys[1].Digest)));

  ResultCache Cache = open({User, Project, 0, false, {}});
  VerifyResult R = Cache.verify();
  EXPECT_EQ(R.Entries, 5u);
  EXPECT_EQ(R.Manifests, 1u);
  std::map<std::string, std::string> Why;
  for (const CorruptFile &F : R.Corrupt)
    Why[F.Path] = F.Why + (F.Project ? " (project)" : "");
  EXPECT_EQ(Why.size(), 5u);
  EXPECT_EQ(Why[Truncated], "not valid JSON (truncated?)");
  EXPECT_EQ(Why[Tampered], "checksum mismatch");
  EXPECT_EQ(Why[Future], "unsupported entry format 7");
  EXPECT_NE(Why[manifestPath(User, std::string(64, 'a'))], "");
  EXPECT_EQ(Why[entryPath(Project, Keys[1].Digest)],
            "holds the entry of key " + Keys[3].Digest + " (project)");

  GcResult Gc = llvm::cantFail(Cache.gc());
  EXPECT_EQ(Gc.Corrupt, 4u); // The user cache's; a project cache is verify --fix's to repair.
  R = Cache.verify();
  ASSERT_EQ(R.Corrupt.size(), 1u);
  EXPECT_TRUE(R.Corrupt[0].Project);
  EXPECT_TRUE(llvm::cantFail(Cache.removeCorrupt(R.Corrupt[0])));
  EXPECT_EQ(Cache.verify().Corrupt.size(), 0u);
  EXPECT_TRUE(llvm::cantFail(Cache.lookup(Keys[3])).has_value()); // The valid entry stays.
}

TEST_F(ResultCacheTest, LocksExcludeEachOther) {
  std::string Path = Root + "/gpu.lock";
  {
    GpuLock Held = llvm::cantFail(GpuLock::acquire(Path));
    EXPECT_FALSE(llvm::cantFail(FileLock::tryAcquire(Path)).has_value());
  }
  EXPECT_TRUE(llvm::cantFail(FileLock::tryAcquire(Path)).has_value());
}

TEST_F(ResultCacheTest, GpuLockSaysWhenItWaits) {
  std::string Path = Root + "/gpu.lock";
  bool CalledWhenFree = false;
  {
    GpuLock Free = llvm::cantFail(GpuLock::acquire(Path, [&] { CalledWhenFree = true; }));
  }
  EXPECT_FALSE(CalledWhenFree);

  std::optional<GpuLock> Held(llvm::cantFail(GpuLock::acquire(Path)));
  std::atomic<bool> Waiting = false, Got = false;
  std::thread Waiter([&] {
    GpuLock Mine = llvm::cantFail(GpuLock::acquire(Path, [&] { Waiting = true; }));
    Got = true;
  });
  while (!Waiting)
    std::this_thread::yield();
  EXPECT_FALSE(Got); // Still blocked behind the holder.
  Held.reset();
  Waiter.join();
  EXPECT_TRUE(Got);
}

TEST(CacheConfig, SizesAndDefaultDirectory) {
  using kopt::driver::parseSize;
  EXPECT_EQ(llvm::cantFail(parseSize("500M")), 500ull << 20);
  EXPECT_EQ(llvm::cantFail(parseSize("2G")), 2ull << 30);
  EXPECT_EQ(llvm::cantFail(parseSize("0")), 0u);
  EXPECT_TRUE(llvm::errorToBool(parseSize("1.5G").takeError()));
  auto Env = [](const char *Name) -> std::optional<std::string> {
    if (std::string(Name) == "HOME")
      return "/home/u";
    return std::nullopt;
  };
  EXPECT_EQ(llvm::cantFail(kopt::driver::defaultCacheDir(Env)), "/home/u/.cache/kopt");
}
