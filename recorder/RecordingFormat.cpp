#include "recorder/RecordingFormat.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <sys/uio.h>
#include <thread>
#include <unistd.h>

namespace kopt::recorder {
namespace {

struct ByteWriter {
  std::vector<uint8_t> Out;
  void u32(uint32_t V) { raw(&V, 4); }
  void u64(uint64_t V) { raw(&V, 8); }
  void raw(const void *P, size_t N) {
    if (!N)
      return;
    size_t At = Out.size();
    Out.resize(At + N);
    std::memcpy(Out.data() + At, P, N);
  }
  void bytes(const std::vector<uint8_t> &V) {
    u64(V.size());
    raw(V.data(), V.size());
  }
  void str(const std::string &S) {
    u64(S.size());
    raw(S.data(), S.size());
  }
};

// Reads a payload; any read past the end marks it bad (the record is corrupt).
// Decodes a record's payload from what Source's take(Dst, N) and left() give
// (take with no Dst skips N bytes); any read past the end marks it bad (the
// record is corrupt).
template <typename Source> struct PayloadReader : Source {
  uint32_t u32() {
    uint32_t V = 0;
    this->take(&V, 4);
    return V;
  }
  uint64_t u64() {
    uint64_t V = 0;
    this->take(&V, 8);
    return V;
  }
  // Contents not kept are skipped.
  std::vector<uint8_t> bytes(bool Keep, uint64_t &Size) {
    Size = u64();
    if (this->Bad || Size > this->left()) {
      this->Bad = true;
      return {};
    }
    std::vector<uint8_t> V(Keep ? Size : 0);
    this->take(Keep ? V.data() : nullptr, Size);
    return V;
  }
  std::string str() {
    uint64_t Size = 0;
    auto V = bytes(true, Size);
    return std::string(V.begin(), V.end());
  }
  bool atEnd() const { return this->left() == 0; }
};

// A payload in memory.
struct MemorySource {
  const uint8_t *P, *End;
  bool Bad = false;
  bool take(void *Dst, size_t N) {
    if (Bad || size_t(End - P) < N)
      return !(Bad = true);
    if (Dst)
      std::memcpy(Dst, P, N);
    P += N;
    return true;
  }
  uint64_t left() const { return uint64_t(End - P); }
};
using ByteReader = PayloadReader<MemorySource>;

// A payload read from the file as it is decoded: contents not kept are
// skipped with a seek, so a listing reads a record's metadata only.
struct FileSource {
  std::FILE *F;
  uint64_t Left; // Of the payload.
  bool Bad = false;
  bool take(void *Dst, size_t N) {
    if (Bad || Left < N || (Dst ? std::fread(Dst, 1, N, F) != N : ::fseeko(F, off_t(N), SEEK_CUR)))
      return !(Bad = true);
    Left -= N;
    return true;
  }
  uint64_t left() const { return Left; }
};
using FileByteReader = PayloadReader<FileSource>;

std::vector<uint8_t> encodeKernel(const KernelRecord &K) {
  ByteWriter W;
  W.str(K.Symbol);
  W.u32(uint32_t(K.Params.size()));
  for (const ParamLayout &P : K.Params) {
    W.u32(P.Offset);
    W.u32(P.Size);
  }
  return W.Out;
}

constexpr uint32_t HasBefore = 1, HasAfter = 2, AfterUnchanged = 4; // An allocation's flags.

// A launch record's payload in pieces: the metadata in owned buffers, the
// buffers' contents where they lie (the record must not outlive L).
struct LaunchPieces {
  std::vector<std::vector<uint8_t>> Owned;
  std::vector<std::pair<const uint8_t *, size_t>> Pieces;
  ByteWriter W; // The metadata since the last contents.

  void flush() {
    if (W.Out.empty())
      return;
    Owned.push_back(std::move(W.Out));
    W.Out.clear();
    Pieces.emplace_back(Owned.back().data(), Owned.back().size());
  }
  void contents(const std::vector<uint8_t> &Bytes) {
    W.u64(Bytes.size());
    flush();
    if (!Bytes.empty())
      Pieces.emplace_back(Bytes.data(), Bytes.size());
  }
};

// The same bytes as ByteWriter would make of L, in pieces.
LaunchPieces encodeLaunch(const LaunchRecord &L) {
  LaunchPieces Out;
  Out.Owned.reserve(2 * L.Allocations.size() + 2); // Pieces point into them.
  ByteWriter &W = Out.W;
  W.u32(L.Id);
  for (uint32_t V : L.Grid)
    W.u32(V);
  for (uint32_t V : L.Block)
    W.u32(V);
  W.u32(L.SharedBytes);
  W.bytes(L.ParamBytes);
  W.u32(uint32_t(L.Pointers.size()));
  for (const PointerParam &P : L.Pointers) {
    W.u32(P.Param);
    W.u32(P.Allocation);
    W.u64(P.Offset);
  }
  W.u32(uint32_t(L.Allocations.size()));
  for (const AllocationRecord &A : L.Allocations) {
    W.u64(A.Base);
    W.u64(A.Bytes);
    W.u32((A.Before ? HasBefore : 0) | (A.After ? HasAfter : 0) |
          (A.AfterUnchanged ? AfterUnchanged : 0));
    if (A.Before)
      Out.contents(*A.Before);
    if (A.After)
      Out.contents(*A.After);
  }
  W.str(L.ContentsSkipped);
  Out.flush();
  return Out;
}

bool decodeKernel(ByteReader &R, KernelRecord &K) {
  K.Symbol = R.str();
  uint32_t N = R.u32();
  for (uint32_t I = 0; I < N && !R.Bad; ++I) {
    ParamLayout P;
    P.Offset = R.u32();
    P.Size = R.u32();
    K.Params.push_back(P);
  }
  return !R.Bad && R.P == R.End;
}

template <typename Reader>
bool decodeLaunch(Reader &R, LaunchRecord &L, bool Contents, uint64_t &ContentBytes) {
  L.Id = R.u32();
  for (uint32_t &V : L.Grid)
    V = R.u32();
  for (uint32_t &V : L.Block)
    V = R.u32();
  L.SharedBytes = R.u32();
  uint64_t Size = 0;
  L.ParamBytes = R.bytes(true, Size);
  uint32_t NP = R.u32();
  for (uint32_t I = 0; I < NP && !R.Bad; ++I) {
    PointerParam P;
    P.Param = R.u32();
    P.Allocation = R.u32();
    P.Offset = R.u64();
    L.Pointers.push_back(P);
  }
  uint32_t NA = R.u32();
  for (uint32_t I = 0; I < NA && !R.Bad; ++I) {
    AllocationRecord A;
    A.Base = R.u64();
    A.Bytes = R.u64();
    uint32_t Flags = R.u32();
    A.AfterUnchanged = Flags & AfterUnchanged;
    if (Flags & HasBefore) {
      A.Before = R.bytes(Contents, Size);
      ContentBytes += Size;
    }
    if (Flags & HasAfter) {
      A.After = R.bytes(Contents, Size);
      ContentBytes += Size;
    }
    L.Allocations.push_back(std::move(A));
  }
  L.ContentsSkipped = R.str();
  if (R.Bad || !R.atEnd())
    return false;
  for (const PointerParam &P : L.Pointers)
    if (P.Allocation >= L.Allocations.size())
      return false;
  return true;
}

std::string errnoText(const std::string &What) { return What + ": " + std::strerror(errno); }

// Above this, a launch record read without its contents is skimmed (FileByteReader).
constexpr uint64_t SkimmedRecord = 1 << 20;
// From this, a record's checksum is summed alongside its write (writeRecord).
constexpr uint64_t ChecksumAlongside = 8 << 20;

} // namespace

void RecordChecksum::add(const uint8_t *Data, size_t Size) {
  while (Size > 0 && PendingBytes > 0 && PendingBytes < sizeof(Pending)) {
    Pending[PendingBytes++] = *Data++;
    --Size;
  }
  if (PendingBytes == sizeof(Pending)) {
    addBlocks(Pending, sizeof(Pending));
    PendingBytes = 0;
  }
  size_t Whole = Size - Size % sizeof(Pending);
  addBlocks(Data, Whole);
  for (Data += Whole, Size -= Whole; Size > 0; --Size)
    Pending[PendingBytes++] = *Data++;
}

void RecordChecksum::addBlocks(const uint8_t *Data, size_t Size) {
  constexpr uint64_t Prime = 0x100000001b3ULL;
  for (; Size >= sizeof(Pending); Data += sizeof(Pending), Size -= sizeof(Pending))
    for (size_t L = 0; L < Lanes.size(); ++L) {
      uint64_t Word;
      std::memcpy(&Word, Data + 8 * L, 8);
      Lanes[L] = (Lanes[L] ^ Word) * Prime;
    }
}

uint64_t RecordChecksum::value() const {
  uint64_t Hash = 0xcbf29ce484222325ULL;
  for (uint64_t Lane : Lanes)
    Hash = fnv1a(reinterpret_cast<const uint8_t *>(&Lane), 8, Hash);
  return fnv1a(Pending, PendingBytes, Hash); // The last bytes, one by one.
}

uint64_t fnv1a(const uint8_t *Data, size_t Size, uint64_t Hash) {
  for (size_t I = 0; I < Size; ++I) {
    Hash ^= Data[I];
    Hash *= 0x100000001b3ULL;
  }
  return Hash;
}

std::string distinctLaunchKey(const LaunchRecord &L, const std::vector<ParamLayout> &Params) {
  ByteWriter W;
  for (uint32_t V : L.Grid)
    W.u32(V);
  for (uint32_t V : L.Block)
    W.u32(V);
  W.u32(L.SharedBytes);
  for (size_t I = 0; I < Params.size(); ++I) {
    const PointerParam *Ptr = nullptr;
    for (const PointerParam &P : L.Pointers)
      if (P.Param == I)
        Ptr = &P;
    if (Ptr) {
      W.u64(L.Allocations[Ptr->Allocation].Bytes - Ptr->Offset);
      continue;
    }
    const ParamLayout &P = Params[I];
    if (uint64_t(P.Offset) + P.Size <= L.ParamBytes.size())
      W.raw(L.ParamBytes.data() + P.Offset, P.Size);
  }
  return std::string(W.Out.begin(), W.Out.end());
}

RecordingWriter::~RecordingWriter() {
  if (Fd >= 0)
    ::close(Fd);
}

std::string RecordingWriter::open(const std::string &Path, const KernelRecord &Kernel,
                                  uint32_t Version) {
  Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    return errnoText("cannot create " + Path);
  ByteWriter Header;
  Header.raw(RecordingMagic, sizeof(RecordingMagic));
  Header.u32(Version);
  if (::write(Fd, Header.Out.data(), Header.Out.size()) != ssize_t(Header.Out.size()))
    return errnoText("cannot write " + Path);
  Written = Header.Out.size();
  return writeRecord(RecordKind::Kernel, encodeKernel(Kernel));
}

std::string RecordingWriter::writeRecord(RecordKind Kind, const std::vector<uint8_t> &Payload) {
  return writeRecord(Kind, Pieces{{Payload.data(), Payload.size()}});
}

std::string RecordingWriter::writeRecord(RecordKind Kind, const Pieces &Payload) {
  if (Fd < 0)
    return "the recording is not open";
  uint64_t Length = 0;
  for (const auto &[Data, Size] : Payload)
    Length += Size;
  ByteWriter Head;
  Head.u32(uint32_t(Kind));
  Head.u64(Length);
  auto Sum = [&] {
    RecordChecksum Check;
    Check.add(Head.Out.data(), Head.Out.size());
    for (const auto &[Data, Size] : Payload)
      Check.add(Data, Size);
    return Check.value();
  };
  uint64_t Tail = 0;
  std::vector<iovec> Io;
  Io.push_back({Head.Out.data(), Head.Out.size()});
  for (const auto &[Data, Size] : Payload)
    if (Size)
      Io.push_back({const_cast<uint8_t *>(Data), Size});
  if (Length < ChecksumAlongside) {
    Tail = Sum();
    Io.push_back({&Tail, sizeof(Tail)});
    return writeAll(Io);
  }
  // A large record's checksum is summed on another thread while the kernel
  // takes its bytes: both read the same memory, and neither waits for the
  // other. The tail follows; a crash before it leaves a torn record.
  std::thread Summing([&] { Tail = Sum(); });
  std::string Error = writeAll(Io);
  Summing.join();
  if (!Error.empty())
    return Error;
  Io.assign(1, {&Tail, sizeof(Tail)});
  return writeAll(Io);
}

std::string RecordingWriter::writeAll(std::vector<iovec> &Io) {
  // One call where the kernel takes it all; the rest where it stops short.
  size_t First = 0;
  while (First < Io.size()) {
    int Count = int(std::min<size_t>(Io.size() - First, IOV_MAX));
    ssize_t N = ::writev(Fd, Io.data() + First, Count);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return errnoText("cannot write the recording");
    Written += uint64_t(N);
    for (size_t Done = size_t(N); Done > 0 && First < Io.size();) {
      size_t Take = std::min(Done, Io[First].iov_len);
      Io[First].iov_base = static_cast<uint8_t *>(Io[First].iov_base) + Take;
      Io[First].iov_len -= Take;
      Done -= Take;
      if (Io[First].iov_len == 0)
        ++First;
    }
    while (First < Io.size() && Io[First].iov_len == 0)
      ++First;
  }
  return {};
}

std::string RecordingWriter::append(const LaunchRecord &L) {
  return writeRecord(RecordKind::Launch, encodeLaunch(L).Pieces);
}

std::string RecordingWriter::appendRepeat(uint32_t Id) {
  ByteWriter W;
  W.u32(Id);
  return writeRecord(RecordKind::Repeat, W.Out);
}

std::string RecordingWriter::appendTime(uint32_t Id, double Seconds) {
  ByteWriter W;
  W.u32(Id);
  uint64_t Bits = 0;
  std::memcpy(&Bits, &Seconds, 8);
  W.u64(Bits);
  return writeRecord(RecordKind::Time, W.Out);
}

std::string RecordingWriter::appendNote(const std::string &Text) {
  ByteWriter W;
  W.str(Text);
  return writeRecord(RecordKind::Note, W.Out);
}

ReadResult readRecording(const std::string &Path, const ReadOptions &Options) {
  ReadResult Result;
  // Record by record: a recording of many large buffers need not fit in memory
  // to be listed, and is read at the speed of the disk.
  std::unique_ptr<std::FILE, int (*)(std::FILE *)> In(std::fopen(Path.c_str(), "rb"), &std::fclose);
  struct stat Status;
  if (!In || ::fstat(::fileno(In.get()), &Status) != 0) {
    Result.Error = errnoText("cannot read " + Path);
    return Result;
  }
  const uint64_t FileSize = uint64_t(Status.st_size);
  const size_t HeaderBytes = sizeof(RecordingMagic) + 4;
  uint8_t Header[sizeof(RecordingMagic) + 4];
  if (FileSize < HeaderBytes || std::fread(Header, 1, HeaderBytes, In.get()) != HeaderBytes ||
      std::memcmp(Header, RecordingMagic, 8) != 0) {
    Result.Error = Path + ": not a kopt recording";
    return Result;
  }
  uint32_t Version = 0;
  std::memcpy(&Version, Header + 8, 4);
  if (Version < OldestReadableVersion || Version > RecordingVersion) {
    Result.Error = Path + ": recording format version " + std::to_string(Version) +
                   ", this kopt reads versions " + std::to_string(OldestReadableVersion) + " to " +
                   std::to_string(RecordingVersion) + " (record again)";
    return Result;
  }
  Recording &Rec = Result.Value;
  uint64_t Pos = HeaderBytes;
  bool HaveKernel = false;
  std::string Bad;
  std::vector<uint8_t> Payload; // Reused: one record at a time.
  while (Pos < FileSize) {
    const uint64_t Left = FileSize - Pos;
    uint8_t Head[12];
    uint32_t Kind = 0;
    uint64_t Length = 0;
    if (Left < 12 || std::fread(Head, 1, 12, In.get()) != 12) {
      Bad = "a torn record";
      break;
    }
    std::memcpy(&Kind, Head, 4);
    std::memcpy(&Length, Head + 4, 8);
    if (Length > Left - 12 || Left - 12 - Length < 8) {
      Bad = "a torn record";
      break;
    }
    if (RecordKind(Kind) == RecordKind::Launch && !Options.Contents && Length > SkimmedRecord) {
      // A listing: the metadata from the file, the contents and the checksum
      // skipped (reading them is what the contents' reader checks).
      FileByteReader R{{In.get(), Length}};
      LaunchRecord L;
      bool Ok = HaveKernel && decodeLaunch(R, L, false, Rec.ContentBytes) &&
                L.Id == Rec.Launches.size() && ::fseeko(In.get(), 8, SEEK_CUR) == 0;
      if (!Ok) {
        Bad = "a malformed record";
        break;
      }
      Rec.Launches.push_back({std::move(L), 1, std::nullopt});
      ++Rec.TotalLaunches;
      Pos += 12 + Length + 8;
      continue;
    }
    Payload.resize(Length);
    uint64_t Sum = 0;
    if (std::fread(Payload.data(), 1, Length, In.get()) != Length ||
        std::fread(&Sum, 1, 8, In.get()) != 8) {
      Bad = "a torn record";
      break;
    }
    RecordChecksum Check;
    Check.add(Head, 12);
    Check.add(Payload.data(), Payload.size());
    if (Sum != Check.value()) {
      Bad = "a record whose checksum does not match";
      break;
    }
    ByteReader R{{Payload.data(), Payload.data() + Payload.size()}};
    bool Ok = false;
    switch (RecordKind(Kind)) {
    case RecordKind::Kernel:
      Ok = !HaveKernel && decodeKernel(R, Rec.Kernel);
      HaveKernel = Ok;
      break;
    case RecordKind::Launch: {
      LaunchRecord L;
      Ok = HaveKernel && decodeLaunch(R, L, Options.Contents, Rec.ContentBytes) &&
           L.Id == Rec.Launches.size();
      if (Ok) {
        Rec.Launches.push_back({std::move(L), 1, std::nullopt});
        ++Rec.TotalLaunches;
      }
      break;
    }
    case RecordKind::Repeat: {
      uint32_t Id = R.u32();
      Ok = HaveKernel && !R.Bad && R.P == R.End && Id < Rec.Launches.size();
      if (Ok) {
        ++Rec.Launches[Id].Count;
        ++Rec.TotalLaunches;
      }
      break;
    }
    case RecordKind::Note:
      Rec.Notes.push_back(R.str());
      Ok = HaveKernel && !R.Bad && R.P == R.End;
      break;
    case RecordKind::Time: {
      uint32_t Id = R.u32();
      uint64_t Bits = R.u64();
      double Seconds = 0;
      std::memcpy(&Seconds, &Bits, 8);
      Ok = HaveKernel && !R.Bad && R.P == R.End && Id < Rec.Launches.size() &&
           std::isfinite(Seconds) && Seconds >= 0;
      if (Ok)
        Rec.Launches[Id].Seconds = Seconds;
      break;
    }
    }
    if (!Ok) {
      Bad = "a malformed record";
      break;
    }
    Pos += 12 + Length + 8;
  }
  Rec.FileBytes = Pos;
  if (!HaveKernel) {
    Result.Error = Path + ": no valid kernel record";
    Result.Value = {};
    return Result;
  }
  if (!Bad.empty())
    Rec.Warning = Path + ": dropped " + std::to_string(FileSize - Pos) + " bytes at offset " +
                  std::to_string(Pos) + " (" + Bad + "; the application may have crashed)";
  return Result;
}

std::optional<double> recordedGpuSeconds(const Recording &R) {
  double Timed = 0, TimedLaunches = 0, Untimed = 0;
  for (const DistinctLaunch &D : R.Launches) {
    if (D.Seconds) {
      Timed += *D.Seconds * double(D.Count);
      TimedLaunches += double(D.Count);
    } else {
      Untimed += double(D.Count);
    }
  }
  if (TimedLaunches == 0)
    return std::nullopt;
  return Timed + Untimed * (Timed / TimedLaunches);
}

std::string recordingFileName(const std::string &Symbol) {
  std::string Name;
  for (char C : Symbol)
    Name += (std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '.') ? C : '_';
  if (Name.size() > 160) {
    char Hex[17];
    std::snprintf(Hex, sizeof(Hex), "%016llx",
                  static_cast<unsigned long long>(
                      fnv1a(reinterpret_cast<const uint8_t *>(Symbol.data()), Symbol.size())));
    Name = Name.substr(0, 140) + "-" + Hex;
  }
  return Name + ".krec";
}

} // namespace kopt::recorder
