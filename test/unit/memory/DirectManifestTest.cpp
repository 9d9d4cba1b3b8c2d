// kcc's direct mode below the driver: the manifest's key, format and checks
// (memory/cache/DirectManifest.h), what a file looked like (support/FileObservation.h),
// manifests in the result cache, and what a parse's file system records
// (clang-plugin/parse/FileAccessLog.h).
#include "memory/cache/DirectManifest.h"
#include "clang-plugin/parse/FileAccessLog.h"
#include "memory/cache/ResultCache.h"
#include "support/FileObservation.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <sys/wait.h>
#include <unistd.h>

using namespace kopt;
using namespace kopt::memory;

namespace {
void writeFile(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  ASSERT_FALSE(EC) << Path;
  OS << Text;
}

std::string readFile(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : "";
}

ManifestKeyInputs keyInputs() {
  ManifestKeyInputs In;
  In.SourcePath = "src/main.cu";
  In.SourceDigest = contentDigest("__global__ void k() {}\n");
  In.WorkingDir = "/work/app";
  In.CompileFlags = {"-O3", "-arch=sm_90", "-c", "src/main.cu", "-o", "main.o"};
  In.Options = {{"mode", "cache-only"}, {"engine", "skills"}};
  In.Environment = {{"CPATH", "/opt/include"}};
  In.Compiler = "/usr/local/cuda/bin/nvcc";
  In.KoptVersion = "0.1.0";
  In.FrontEnd = "/opt/kopt/bin/kopt 53000000 1";
  return In;
}

class DirectManifestTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-direct-test", Dir));
    Root = std::string(Dir);
    ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/include"));
    writeFile(Root + "/include/a.h", "#define A 1\n");
    writeFile(Root + "/main.cu", "#include \"a.h\"\n");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  // What a parse of main.cu might have seen: the source and a.h read, b.h
  // looked for and absent, include/ listed.
  DirectManifest sample(llvm::StringRef Key = std::string(64, 'a')) {
    DirectManifest M;
    M.Key = Key.str();
    M.Inputs.push_back(observe(Root + "/main.cu"));
    M.Inputs.push_back(observe(Root + "/include/a.h"));
    M.Inputs.push_back({Root + "/include/b.h", FileObservation::Kind::Absent, {}, {}, {}});
    M.Inputs.push_back({Root + "/include", FileObservation::Kind::Directory, std::nullopt,
                        listingDigest({"a.h"}), std::nullopt});
    M.Log = {{"kcc: note: main.cu:3: k: verified variant (cache)\n", false},
             {"main.cu:1:9: warning: clang says so\n", true}};
    M.Output = "#line 1 \"main.cu\"\n#include \"a.h\"\n";
    return M;
  }
  FileObservation observe(const std::string &Path) {
    return {Path, FileObservation::Kind::File, contentDigest(readFile(Path)), {}, {}};
  }
  std::string Root;
};
} // namespace

TEST(ManifestKey, SameInputsSameKeyAndEveryInputCounts) {
  CacheKey Base = makeManifestKey(keyInputs());
  EXPECT_EQ(Base.Digest, makeManifestKey(keyInputs()).Digest);
  EXPECT_TRUE(isDigest(Base.Digest));
  std::vector<void (*)(ManifestKeyInputs &)> Changes = {
      [](ManifestKeyInputs &I) { I.SourcePath = "main.cu"; },
      [](ManifestKeyInputs &I) { I.SourceDigest = contentDigest("edited"); },
      [](ManifestKeyInputs &I) { I.WorkingDir = "/elsewhere"; },
      [](ManifestKeyInputs &I) { I.CompileFlags.push_back("-DN=2"); },
      [](ManifestKeyInputs &I) { I.Options[0].second = "optimize"; },
      [](ManifestKeyInputs &I) { I.Environment.clear(); },
      [](ManifestKeyInputs &I) { I.Compiler = "/opt/cuda-13.1/bin/nvcc"; },
      [](ManifestKeyInputs &I) { I.KoptVersion = "0.2.0"; },
      [](ManifestKeyInputs &I) { I.FrontEnd = "/opt/kopt/bin/kopt 53000000 2"; },
  };
  for (size_t I = 0; I < Changes.size(); ++I) {
    ManifestKeyInputs In = keyInputs();
    Changes[I](In);
    EXPECT_NE(makeManifestKey(In).Digest, Base.Digest) << "change " << I;
  }
  // No field can stand in for another: flags are a list, not a joined string.
  ManifestKeyInputs Joined = keyInputs();
  Joined.CompileFlags = {"-O3 -arch=sm_90", "-c", "src/main.cu", "-o", "main.o"};
  EXPECT_NE(makeManifestKey(Joined).Digest, Base.Digest);
}

TEST_F(DirectManifestTest, RoundTripsEveryField) {
  DirectManifest M = sample();
  M.Inputs.push_back(
      {"/usr/lib/libnvrtc.so", FileObservation::Kind::File, std::nullopt, std::nullopt, "123 456"});
  M.Entries.push_back({std::string(64, 'e'),
                       true,
                       {"p/entries/ee/x.json", FileObservation::Kind::Absent, {}, {}, {}}});
  M.Entries.push_back({std::string(64, 'e'),
                       false,
                       {"u/entries/ee/x.json", FileObservation::Kind::File, "d1", {}, {}}});
  std::string Text = serializeManifest(M);
  EXPECT_TRUE(llvm::StringRef(Text).starts_with("kopt-manifest 1 "));
  llvm::Expected<DirectManifest> Back = parseManifest(Text);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->Key, M.Key);
  ASSERT_EQ(Back->Inputs.size(), M.Inputs.size());
  for (size_t I = 0; I < M.Inputs.size(); ++I) {
    EXPECT_EQ(Back->Inputs[I].Path, M.Inputs[I].Path);
    EXPECT_EQ(Back->Inputs[I].Type, M.Inputs[I].Type);
    EXPECT_EQ(Back->Inputs[I].Content, M.Inputs[I].Content);
    EXPECT_EQ(Back->Inputs[I].Listing, M.Inputs[I].Listing);
    EXPECT_EQ(Back->Inputs[I].Stamp, M.Inputs[I].Stamp);
  }
  ASSERT_EQ(Back->Entries.size(), 2u);
  EXPECT_TRUE(Back->Entries[0].Project);
  EXPECT_EQ(Back->Entries[0].File.Type, FileObservation::Kind::Absent);
  EXPECT_FALSE(Back->Entries[1].Project);
  EXPECT_EQ(Back->Entries[1].File.Content, std::optional<std::string>("d1"));
  ASSERT_EQ(Back->Log.size(), 2u);
  EXPECT_EQ(Back->Log[0].Text, M.Log[0].Text);
  EXPECT_FALSE(Back->Log[0].VerboseOnly);
  EXPECT_TRUE(Back->Log[1].VerboseOnly);
  EXPECT_EQ(Back->Output, M.Output);
  // The same manifest serializes to the same bytes (parallel writers agree).
  EXPECT_EQ(serializeManifest(*Back), Text);
}

TEST_F(DirectManifestTest, RefusesTruncatedCorruptAndForeignFiles) {
  std::string Text = serializeManifest(sample());
  auto Why = [](llvm::StringRef T) {
    llvm::Expected<DirectManifest> M = parseManifest(T);
    return M ? std::string("parsed") : llvm::toString(M.takeError());
  };
  EXPECT_EQ(Why(llvm::StringRef(Text).drop_back(10)), "digest mismatch (truncated or corrupt)");
  EXPECT_EQ(Why(llvm::StringRef(Text).take_front(12)), "not a kopt manifest");
  EXPECT_EQ(Why(llvm::StringRef(Text).take_front(90)), "digest mismatch (truncated or corrupt)");
  std::string Flipped = Text;
  Flipped[Flipped.size() / 2] ^= 1;
  EXPECT_EQ(Why(Flipped), "digest mismatch (truncated or corrupt)");
  std::string Newer = Text;
  Newer.replace(0, strlen("kopt-manifest 1"), "kopt-manifest 2");
  EXPECT_EQ(Why(Newer), "unsupported manifest format 2");
  EXPECT_EQ(Why(""), "not a kopt manifest");
  // A body with a valid digest that is no manifest.
  std::string Body = "{\"key\": 1}\n";
  EXPECT_NE(Why("kopt-manifest 1 " + contentDigest(Body) + "\n" + Body).find("bad manifest"),
            std::string::npos);
}

TEST_F(DirectManifestTest, ChecksEveryKindOfInput) {
  EXPECT_FALSE(bool(checkManifest(sample())));

  // An edited header.
  DirectManifest M = sample();
  writeFile(Root + "/include/a.h", "#define A 3\n");
  EXPECT_EQ(llvm::toString(checkManifest(M)), Root + "/include/a.h: content changed");
  writeFile(Root + "/include/a.h", "#define A 1\n"); // Back as it was: matches again.
  EXPECT_FALSE(bool(checkManifest(M)));

  // A header created where the parse found none (earlier on the include path).
  writeFile(Root + "/include/b.h", "");
  EXPECT_EQ(llvm::toString(checkManifest(M)), Root + "/include/b.h: was absent, is file");
  ASSERT_FALSE(llvm::sys::fs::remove(Root + "/include/b.h"));
  EXPECT_FALSE(bool(checkManifest(M)));

  // A listed directory with a new name in it.
  writeFile(Root + "/include/c.h", "");
  EXPECT_EQ(llvm::toString(checkManifest(M)), Root + "/include: directory listing changed");
  ASSERT_FALSE(llvm::sys::fs::remove(Root + "/include/c.h"));

  // A removed source.
  ASSERT_FALSE(llvm::sys::fs::remove(Root + "/main.cu"));
  EXPECT_EQ(llvm::toString(checkManifest(M)), Root + "/main.cu: was file, is absent");
}

TEST_F(DirectManifestTest, StampsCompareSizeAndTime) {
  std::string Lib = Root + "/libnvrtc.so";
  writeFile(Lib, "v1");
  llvm::sys::fs::file_status Status;
  ASSERT_FALSE(llvm::sys::fs::status(Lib, Status));
  DirectManifest M = sample();
  M.Inputs.push_back(
      {Lib, FileObservation::Kind::File, std::nullopt, std::nullopt, stampOf(Status)});
  EXPECT_FALSE(bool(checkManifest(M)));
  writeFile(Lib, "v2 is longer");
  EXPECT_EQ(llvm::toString(checkManifest(M)), Lib + ": size or modification time changed");
}

TEST_F(DirectManifestTest, EntriesAreCheckedFirstAndNamedAsSuch) {
  DirectManifest M = sample();
  M.Entries.push_back({std::string(64, 'e'), false, observe(Root + "/main.cu")});
  M.Entries.back().File.Path = Root + "/gone.json";
  EXPECT_EQ(llvm::toString(checkManifest(M)),
            "cache entry " + Root + "/gone.json: was file, is absent");
}

TEST_F(DirectManifestTest, ResultCacheStoresLooksUpCountsAndClears) {
  CacheConfig Config;
  Config.UserDir = Root + "/user";
  ResultCache Cache = llvm::cantFail(ResultCache::open(Config));
  std::string Key = makeManifestKey(keyInputs()).Digest;

  DirectLookup None = Cache.lookupDirect(Key);
  EXPECT_FALSE(None.Manifest);
  EXPECT_EQ(None.Miss, "no manifest");

  ASSERT_FALSE(bool(Cache.storeManifest(sample(Key))));
  EXPECT_TRUE(llvm::sys::fs::exists(manifestPath(Config.UserDir, Key)));
  DirectLookup Hit = Cache.lookupDirect(Key);
  ASSERT_TRUE(Hit.Manifest) << Hit.Miss;
  EXPECT_EQ(Hit.Manifest->Output, sample().Output);

  // Stale inputs: a miss that says why.
  writeFile(Root + "/include/b.h", "");
  DirectLookup Stale = Cache.lookupDirect(Key);
  EXPECT_FALSE(Stale.Manifest);
  EXPECT_EQ(Stale.Miss, Root + "/include/b.h: was absent, is file");
  ASSERT_FALSE(llvm::sys::fs::remove(Root + "/include/b.h"));

  // A truncated manifest: a miss and an error, never a hit.
  std::string Path = manifestPath(Config.UserDir, Key);
  std::string Text = readFile(Path);
  writeFile(Path, llvm::StringRef(Text).drop_back(5));
  DirectLookup Corrupt = Cache.lookupDirect(Key);
  EXPECT_FALSE(Corrupt.Manifest);
  EXPECT_NE(Corrupt.Miss.find("digest mismatch"), std::string::npos) << Corrupt.Miss;

  // Another key's manifest in this key's place.
  std::string Other = std::string(64, 'b');
  writeFile(Path, serializeManifest(sample(Other)));
  DirectLookup Misplaced = Cache.lookupDirect(Key);
  EXPECT_FALSE(Misplaced.Manifest);
  EXPECT_NE(Misplaced.Miss.find("holds the manifest of key bbbb"), std::string::npos);

  CacheCounters C = Cache.counters();
  EXPECT_EQ(C[Counter::DirectHits], 1u);
  EXPECT_EQ(C[Counter::DirectMisses], 4u);
  EXPECT_EQ(C[Counter::Errors], 2u);
  EXPECT_EQ(C[Counter::ProjectHits] + C[Counter::UserHits] + C[Counter::Misses], 0u);

  // Manifests count in the cache's size and go with `kopt cache clear`.
  EXPECT_EQ(listManifestFiles(Config.UserDir).size(), 1u);
  EXPECT_GT(Cache.userBytes(), 0u);
  ClearResult Cleared = llvm::cantFail(Cache.clear());
  EXPECT_EQ(Cleared.Manifests, 1u);
  EXPECT_EQ(Cleared.Entries, 0u);
  EXPECT_TRUE(listManifestFiles(Config.UserDir).empty());
  EXPECT_EQ(Cache.counters()[Counter::DirectHits], 0u);
}

TEST_F(DirectManifestTest, ReadOnlyCacheStoresNoManifest) {
  CacheConfig Config;
  Config.UserDir = Root + "/user";
  Config.ReadOnly = true;
  ResultCache Cache = llvm::cantFail(ResultCache::open(Config));
  EXPECT_TRUE(bool(Cache.storeManifest(sample()))) << "a read-only cache refuses";
  EXPECT_TRUE(listManifestFiles(Config.UserDir).empty());
}

TEST_F(DirectManifestTest, LookupReportsTheEntryFilesItRead) {
  CacheConfig Config;
  Config.UserDir = Root + "/user";
  Config.ProjectDir = Root + "/project";
  ResultCache Cache = llvm::cantFail(ResultCache::open(Config));
  CacheKey Key = makeCacheKey({"sha256:u", "", "sm_90", "13.0", {}, "0.1.0"});
  CacheEntry Entry;
  Entry.KernelName = "k";
  ASSERT_FALSE(bool(Cache.store(Key, Entry)));
  std::vector<ManifestEntry> Read;
  auto Hit = Cache.lookup(Key, nullptr, &Read);
  ASSERT_TRUE(Hit && *Hit);
  // The project cache was looked at first and had none; then the user's entry.
  ASSERT_EQ(Read.size(), 2u);
  EXPECT_TRUE(Read[0].Project);
  EXPECT_EQ(Read[0].File.Type, FileObservation::Kind::Absent);
  EXPECT_EQ(Read[0].File.Path, entryPath(*Config.ProjectDir, Key.Digest));
  EXPECT_FALSE(Read[1].Project);
  EXPECT_EQ(Read[1].Key, Key.Digest);
  EXPECT_EQ(Read[1].File.Content, std::optional<std::string>(contentDigest(
                                      readFile(entryPath(Config.UserDir, Key.Digest)))));
}

TEST_F(DirectManifestTest, ParseFileSystemRecordsWhatItSaw) {
  frontend::FileAccessLog Log;
  auto FS = Log.wrap(llvm::vfs::getRealFileSystem());
  EXPECT_FALSE(FS->exists(Root + "/include/b.h"));
  auto File = FS->openFileForRead(Root + "/include/a.h");
  ASSERT_TRUE(bool(File));
  auto Buffer = (*File)->getBuffer(Root + "/include/a.h");
  ASSERT_TRUE(bool(Buffer));
  EXPECT_EQ((*Buffer)->getBuffer(), "#define A 1\n");
  std::error_code EC;
  std::vector<std::string> Listed;
  for (llvm::vfs::directory_iterator It = FS->dir_begin(Root + "/include", EC), End;
       !EC && It != End; It.increment(EC))
    Listed.push_back(It->path().str());
  EXPECT_EQ(Listed, std::vector<std::string>{Root + "/include/a.h"});
  ASSERT_TRUE(bool(FS->status(Root + "/main.cu")));

  std::vector<FileObservation> Seen = Log.observations(); // Sorted by path.
  ASSERT_EQ(Seen.size(), 4u);
  EXPECT_EQ(Seen[0].Path, Root + "/include");
  EXPECT_EQ(Seen[0].Type, FileObservation::Kind::Directory);
  EXPECT_EQ(Seen[0].Listing, std::optional<std::string>(listingDigest({"a.h"})));
  EXPECT_EQ(Seen[1].Path, Root + "/include/a.h");
  EXPECT_EQ(Seen[1].Content, std::optional<std::string>(contentDigest("#define A 1\n")));
  EXPECT_EQ(Seen[2].Type, FileObservation::Kind::Absent);
  EXPECT_EQ(Seen[3].Type, FileObservation::Kind::File);
  EXPECT_FALSE(Seen[3].Content) << "stat only: its content never mattered";

  // What it saw is what the checks find now.
  DirectManifest M = sample();
  M.Inputs = Seen;
  EXPECT_FALSE(bool(checkManifest(M)));
  writeFile(Root + "/main.cu", "edited, but only its existence was seen\n");
  EXPECT_FALSE(bool(checkManifest(M)));
}

TEST_F(DirectManifestTest, ManifestsAgeOutByLastUseWithTheEntries) {
  CacheConfig Config;
  Config.UserDir = Root + "/user";
  std::string Old = std::string(64, '1'), Used = std::string(64, '2');
  uint64_t One = serializeManifest(sample(Old)).size();
  Config.MaxBytes = One * 3 / 2;
  ResultCache Cache = llvm::cantFail(ResultCache::open(Config));
  Config.MaxBytes = 0; // No limit while setting up.
  for (const std::string &Key : {Old, Used}) {
    ASSERT_FALSE(bool(llvm::cantFail(ResultCache::open(Config)).storeManifest(sample(Key))));
    int Fd;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(manifestPath(Config.UserDir, Key), Fd,
                                                 llvm::sys::fs::CD_OpenExisting));
    llvm::sys::fs::setLastAccessAndModificationTime(Fd, llvm::sys::toTimePoint(1000000000));
    ::close(Fd);
  }
  ASSERT_TRUE(Cache.lookupDirect(Used).Manifest); // A direct hit is a use.
  GcResult Gc = llvm::cantFail(Cache.gc());
  EXPECT_EQ(Gc.BytesBefore, 2 * One);
  EXPECT_EQ(Gc.Evicted, 1u);
  EXPECT_FALSE(llvm::sys::fs::exists(manifestPath(Config.UserDir, Old)));
  EXPECT_TRUE(llvm::sys::fs::exists(manifestPath(Config.UserDir, Used)));
  // A store that takes the cache over its limit evicts too (cache-only builds store
  // no entries).
  ASSERT_FALSE(bool(Cache.storeManifest(sample(Old))));
  EXPECT_EQ(listManifestFiles(Config.UserDir).size(), 1u);
  EXPECT_EQ(Cache.counters()[Counter::Evictions], 2u);
}

TEST_F(DirectManifestTest, ParallelWritersAndReadersNeverSeeAPart) {
  CacheConfig Config;
  Config.UserDir = Root + "/user";
  std::string Key = std::string(64, 'c');
  constexpr int Processes = 8, Rounds = 25;
  std::vector<pid_t> Children;
  for (int P = 0; P < Processes; ++P) {
    pid_t Child = ::fork();
    if (Child == 0) {
      ResultCache Cache = llvm::cantFail(ResultCache::open(Config));
      bool Ok = true;
      for (int R = 0; R < Rounds && Ok; ++R) {
        Ok = !llvm::errorToBool(Cache.storeManifest(sample(Key)));
        DirectLookup Found = Cache.lookupDirect(Key);
        Ok = Ok && Found.Manifest && Found.Manifest->Output == sample().Output;
      }
      _exit(Ok ? 0 : 1);
    }
    Children.push_back(Child);
  }
  for (pid_t Child : Children) {
    int Status = 0;
    ASSERT_EQ(::waitpid(Child, &Status, 0), Child);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  CacheCounters C = llvm::cantFail(ResultCache::open(Config)).counters();
  EXPECT_EQ(C[Counter::DirectHits], uint64_t(Processes * Rounds));
  EXPECT_EQ(C[Counter::DirectMisses], 0u);
  EXPECT_EQ(C[Counter::Errors], 0u);
}
