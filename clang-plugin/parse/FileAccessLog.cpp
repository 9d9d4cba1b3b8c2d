#include "clang-plugin/parse/FileAccessLog.h"

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

namespace kopt::frontend {

namespace {
namespace vfs = llvm::vfs;

// A file whose bytes are recorded when read: the digest is of what clang got,
// so a header edited during the parse is never recorded with its new content.
class RecordingFile : public vfs::File {
public:
  RecordingFile(std::unique_ptr<vfs::File> Opened, std::string Name, FileAccessLog &Into)
      : Inner(std::move(Opened)), Path(std::move(Name)), Log(Into) {}
  llvm::ErrorOr<vfs::Status> status() override { return Inner->status(); }
  llvm::ErrorOr<std::string> getName() override { return Inner->getName(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &Name,
                                                               int64_t FileSize,
                                                               bool RequiresNullTerminator,
                                                               bool IsVolatile) override {
    auto Buffer = Inner->getBuffer(Name, FileSize, RequiresNullTerminator, IsVolatile);
    if (Buffer)
      Log.sawContent(Path, (*Buffer)->getBuffer());
    return Buffer;
  }
  std::error_code close() override { return Inner->close(); }

private:
  std::unique_ptr<vfs::File> Inner;
  std::string Path;
  FileAccessLog &Log;
};

// A listing read whole when asked for, so that the log has all of it whether or
// not clang iterates to the end.
class ListedDirectory : public vfs::detail::DirIterImpl {
public:
  explicit ListedDirectory(std::vector<vfs::directory_entry> All) : Entries(std::move(All)) {
    increment();
  }
  std::error_code increment() override {
    CurrentEntry = Next < Entries.size() ? Entries[Next++] : vfs::directory_entry();
    return {};
  }

private:
  std::vector<vfs::directory_entry> Entries;
  size_t Next = 0;
};

class RecordingFileSystem : public vfs::ProxyFileSystem {
public:
  RecordingFileSystem(llvm::IntrusiveRefCntPtr<vfs::FileSystem> Base, FileAccessLog &Into)
      : ProxyFileSystem(std::move(Base)), Log(Into) {}

  llvm::ErrorOr<vfs::Status> status(const llvm::Twine &Path) override {
    llvm::ErrorOr<vfs::Status> S = ProxyFileSystem::status(Path);
    Log.sawStatus(Path.str(), S);
    return S;
  }
  bool exists(const llvm::Twine &Path) override { return bool(status(Path)); }

  llvm::ErrorOr<std::unique_ptr<vfs::File>> openFileForRead(const llvm::Twine &Path) override {
    std::string P = Path.str();
    llvm::ErrorOr<std::unique_ptr<vfs::File>> F = ProxyFileSystem::openFileForRead(P);
    if (!F) {
      Log.sawStatus(P, F.getError());
      return F;
    }
    Log.sawStatus(P, (*F)->status());
    return std::unique_ptr<vfs::File>(std::make_unique<RecordingFile>(std::move(*F), P, Log));
  }

  vfs::directory_iterator dir_begin(const llvm::Twine &Dir, std::error_code &EC) override {
    std::string D = Dir.str();
    std::vector<vfs::directory_entry> Entries;
    vfs::directory_iterator It = ProxyFileSystem::dir_begin(D, EC);
    for (vfs::directory_iterator End; !EC && It != End; It.increment(EC))
      Entries.push_back(*It);
    if (EC) {
      Log.sawStatus(D, EC);
      return {};
    }
    std::vector<std::string> Names;
    for (const vfs::directory_entry &E : Entries)
      Names.push_back(llvm::sys::path::filename(E.path()).str());
    Log.sawListing(D, std::move(Names));
    return vfs::directory_iterator(std::make_shared<ListedDirectory>(std::move(Entries)));
  }

private:
  FileAccessLog &Log;
};
} // namespace

FileAccessLog::FileAccessLog() = default;
FileAccessLog::~FileAccessLog() = default;

llvm::IntrusiveRefCntPtr<vfs::FileSystem>
FileAccessLog::wrap(llvm::IntrusiveRefCntPtr<vfs::FileSystem> Base) {
  return llvm::makeIntrusiveRefCnt<RecordingFileSystem>(std::move(Base), *this);
}

void FileAccessLog::sawStatus(llvm::StringRef Path, const llvm::ErrorOr<vfs::Status> &Status) {
  FileObservation &O = Seen[Path.str()];
  O.Path = Path.str();
  O.Type = Status ? kindOf(Status->getType()) : FileObservation::Kind::Absent;
}

void FileAccessLog::sawContent(llvm::StringRef Path, llvm::StringRef Bytes) {
  FileObservation &O = Seen[Path.str()];
  O.Path = Path.str();
  O.Type = FileObservation::Kind::File;
  O.Content = contentDigest(Bytes);
}

void FileAccessLog::sawListing(llvm::StringRef Dir, std::vector<std::string> Names) {
  FileObservation &O = Seen[Dir.str()];
  O.Path = Dir.str();
  O.Type = FileObservation::Kind::Directory;
  O.Listing = listingDigest(std::move(Names));
}

std::vector<FileObservation> FileAccessLog::observations() const {
  std::vector<FileObservation> All;
  for (const auto &[Path, O] : Seen)
    All.push_back(O);
  return All;
}

} // namespace kopt::frontend
