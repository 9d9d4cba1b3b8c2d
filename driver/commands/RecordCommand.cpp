// `kopt record [--kernel K]... [--max-bytes N] [--launches N] -- APP ARGS...`
// runs the application unchanged with kopt's recorder injected into the CUDA
// driver (CUDA_INJECTION64_PATH, recorder/Injection.cpp) and prints what it
// recorded for each annotated kernel. `kopt record --show FILE...` prints
// recordings already made.
#include "driver/Diagnostics.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "evaluator/device/CudaDriver.h"
#include "memory/cache/CacheLayout.h"
#include "memory/cache/RecordedProgram.h"
#include "recorder/LaunchRecorder.h"
#include "support/Exec.h"
#include "support/InstallLayout.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <set>
#include <tuple>

namespace kopt::driver {
namespace {

constexpr llvm::StringLiteral Tool = "kopt record";

struct RecordRequest {
  std::vector<std::string> Kernels;
  uint64_t MaxBytes = uint64_t(1) << 30;
  uint32_t Launches = 1000;
  bool Show = false;
  std::vector<std::string> Files;       // --show's.
  std::vector<std::string> Application; // After "--".
  std::vector<std::string> KoptFlags;   // --kopt-OPTION, for the cache's place.
};

llvm::Expected<RecordRequest> parseRequest(const std::vector<std::string> &Args) {
  RecordRequest R;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "--") {
      R.Application.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    auto Value = [&](llvm::StringRef Name) -> llvm::Expected<std::string> {
      if (A.consume_front(Name.str() + "="))
        return A.str();
      if (I + 1 >= Args.size())
        return llvm::createStringError("%s needs a value", Name.str().c_str());
      return Args[++I];
    };
    auto Is = [&](llvm::StringRef Name) { return A == Name || A.starts_with(Name.str() + "="); };
    if (Is("--kernel")) {
      llvm::Expected<std::string> V = Value("--kernel");
      if (!V)
        return V.takeError();
      R.Kernels.push_back(*V);
    } else if (Is("--max-bytes")) {
      llvm::Expected<std::string> V = Value("--max-bytes");
      if (!V)
        return V.takeError();
      llvm::Expected<uint64_t> Bytes = parseSize(*V);
      if (!Bytes)
        return llvm::createStringError("--max-bytes: %s",
                                       llvm::toString(Bytes.takeError()).c_str());
      R.MaxBytes = *Bytes;
    } else if (Is("--launches")) {
      llvm::Expected<std::string> V = Value("--launches");
      if (!V)
        return V.takeError();
      if (llvm::StringRef(*V).getAsInteger(10, R.Launches) || R.Launches == 0)
        return llvm::createStringError("--launches needs a positive number, not '%s'", V->c_str());
    } else if (A == "--show") {
      R.Show = true;
    } else if (A.starts_with("--kopt-")) {
      R.KoptFlags.push_back(A.str());
    } else if (R.Show && !A.starts_with("-")) {
      R.Files.push_back(A.str());
    } else {
      return llvm::createStringError("unknown argument '%s'", A.str().c_str());
    }
  }
  if (R.Show && R.Files.empty())
    return llvm::createStringError("--show needs recording files");
  if (!R.Show && R.Application.empty())
    return llvm::createStringError(
        "no application to run: kopt record [--kernel K]... [--max-bytes N] [--launches N] "
        "-- ./app ARGS...");
  return R;
}

std::string hexBytes(const std::vector<uint8_t> &Bytes) {
  std::string Out;
  for (uint8_t B : Bytes) {
    Out += llvm::hexdigit(B >> 4, /*LowerCase=*/true);
    Out += llvm::hexdigit(B & 15, /*LowerCase=*/true);
  }
  return Out;
}

std::string contentState(const recorder::AllocationRecord &A) {
  if (!A.Before)
    return "no contents";
  if (A.AfterUnchanged)
    return "read, unchanged";
  return A.After ? "written" : "before only";
}

std::string gpuTime(double Seconds) {
  return Seconds >= 1 ? llvm::formatv("{0:f2} s", Seconds).str()
                      : llvm::formatv("{0:f3} ms", Seconds * 1e3).str();
}

// One recording: a summary line, then (Detail) every distinct launch.
bool printRecording(const std::string &Path, bool Detail, llvm::raw_ostream &OS) {
  recorder::ReadResult R = recorder::readRecording(Path, {Detail});
  if (!R.Error.empty()) {
    Reporter(Tool.str()).error(R.Error);
    return false;
  }
  const recorder::Recording &Rec = R.Value;
  if (!Rec.Warning.empty())
    Reporter(Tool.str()).warning(Rec.Warning);
  OS << Rec.Kernel.Symbol << ": " << Rec.Launches.size() << " distinct launches, "
     << Rec.TotalLaunches << " launches, " << Rec.ContentBytes << " bytes of buffer contents";
  if (std::optional<double> Gpu = recorder::recordedGpuSeconds(Rec))
    OS << ", " << gpuTime(*Gpu) << " on the GPU";
  OS << "\n";
  for (const std::string &Note : Rec.Notes)
    OS << "  note: " << Note << "\n";
  if (!Detail)
    return true;
  for (const recorder::DistinctLaunch &D : Rec.Launches) {
    const recorder::LaunchRecord &L = D.Launch;
    OS << "  #" << L.Id << " x" << D.Count << ": grid(" << L.Grid[0] << "," << L.Grid[1] << ","
       << L.Grid[2] << ") block(" << L.Block[0] << "," << L.Block[1] << "," << L.Block[2]
       << ") smem " << L.SharedBytes << "; params " << hexBytes(L.ParamBytes);
    if (D.Seconds)
      OS << "; " << gpuTime(*D.Seconds) << " a launch";
    OS << "\n";
    for (const recorder::PointerParam &P : L.Pointers) {
      const recorder::AllocationRecord &A = L.Allocations[P.Allocation];
      OS << "    param " << P.Param << ": buffer of " << A.Bytes << " bytes at offset " << P.Offset
         << ", " << contentState(A) << "\n";
    }
    if (!L.ContentsSkipped.empty())
      OS << "    contents skipped: " << L.ContentsSkipped << "\n";
  }
  return true;
}

// The program's GPU time by kernel, for kcc's build budget
// (memory/cache/RecordedProgram.h), with each kernel's share printed.
llvm::Error writeProgramTimes(llvm::StringRef Dir, const std::vector<std::string> &Command,
                              const std::vector<std::string> &Files) {
  memory::RecordedProgram Program;
  Program.Command = Command;
  for (const std::string &F : Files) {
    recorder::ReadResult R = recorder::readRecording(F, {/*Contents=*/false});
    std::optional<double> Gpu = recorder::recordedGpuSeconds(R.Value);
    if (!R.Error.empty() || !Gpu)
      continue;
    Program.Kernels[llvm::sys::path::filename(F).str()] = {R.Value.Kernel.Symbol,
                                                           R.Value.TotalLaunches, *Gpu};
  }
  if (Program.Kernels.empty())
    return llvm::Error::success();
  double Total = Program.totalGpuSeconds();
  llvm::outs() << Tool << ": " << gpuTime(Total) << " on the GPU in the recorded kernels";
  if (Program.Kernels.size() > 1) {
    llvm::outs() << ":";
    for (const auto &[File, K] : Program.Kernels)
      llvm::outs() << " " << llvm::sys::path::stem(File) << " "
                   << llvm::formatv("{0:f0}%", Total > 0 ? 100 * K.GpuSeconds / Total : 0);
  }
  llvm::outs() << "\n";
  return memory::writeRecordedProgram(Dir, Program);
}

std::string injectionLibrary() {
  if (const char *Override = std::getenv("KOPT_RECORD_INJECTION"))
    return Override;
  llvm::SmallString<256> Path(InstallLayout::forRunningBinary().prefix());
  llvm::sys::path::append(Path, "lib", "kopt", "kopt-record-inject.so");
  return std::string(Path);
}

// The kernels kcc's builds annotated: the names in the cache's entries.
std::vector<std::string> annotatedKernels(const memory::CacheConfig &Config) {
  std::set<std::string> Names;
  if (llvm::Expected<memory::ResultCache> Cache = memory::ResultCache::open(Config)) {
    for (const memory::ListedEntry &L : Cache->list())
      if (L.Stored)
        Names.insert(L.Stored->Entry.KernelName);
  } else {
    llvm::consumeError(Cache.takeError());
  }
  return {Names.begin(), Names.end()};
}

llvm::Error record(const RecordRequest &R, const memory::CacheConfig &Config) {
  // The recorder sits in the CUDA driver: without one there is nothing to record.
  if (llvm::Expected<evaluator::CudaDriver &> Driver = evaluator::CudaDriver::load(); !Driver)
    return llvm::createStringError(llvm::toString(Driver.takeError()) +
                                   "; kopt record runs the application on this machine's GPU");
  std::vector<std::string> Kernels = R.Kernels.empty() ? annotatedKernels(Config) : R.Kernels;
  if (Kernels.empty())
    return llvm::createStringError(
        "no annotated kernels known: build with kcc first (kopt record takes the "
        "kernels of the cache's entries) or name them with --kernel K");
  std::string Injection = injectionLibrary();
  if (!llvm::sys::fs::exists(Injection))
    return llvm::createStringError("no recorder library at " + Injection +
                                   " (kopt was built without CUPTI)");
  std::string Dir = memory::recordingsDir(Config.UserDir);
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError("cannot create " + Dir + ": " + EC.message());
  llvm::SmallString<128> Log;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("kopt-record", "log", Log))
    return llvm::createStringError("cannot create a log file: " + EC.message());
  ::setenv("CUDA_INJECTION64_PATH", Injection.c_str(), 1);
  ::setenv(recorder::RecordDirVar, Dir.c_str(), 1);
  ::setenv(recorder::RecordKernelsVar, llvm::join(Kernels, ",").c_str(), 1);
  ::setenv(recorder::RecordMaxBytesVar, std::to_string(R.MaxBytes).c_str(), 1);
  ::setenv(recorder::RecordLaunchesVar, std::to_string(R.Launches).c_str(), 1);
  ::setenv(recorder::RecordLogVar, Log.c_str(), 1);
  std::string Program = R.Application[0];
  if (Program.find('/') == std::string::npos)
    if (llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Program))
      Program = *Found;
  llvm::Expected<int> Status = runAndWait(Program, R.Application);
  if (!Status) {
    std::ignore = llvm::sys::fs::remove(Log); // A temporary file at worst.
    return Status.takeError();
  }

  // The log: "kernel SYMBOL PATH" per recording begun, "skipped: ..." and "error: ...".
  std::vector<std::string> Files;
  std::vector<std::string> Messages;
  if (auto Text = llvm::MemoryBuffer::getFile(Log)) {
    llvm::SmallVector<llvm::StringRef> Lines;
    (*Text)->getBuffer().split(Lines, '\n', -1, false);
    for (llvm::StringRef Line : Lines) {
      if (Line.consume_front("kernel ")) {
        std::string Path = Line.rsplit(' ').second.str();
        if (std::find(Files.begin(), Files.end(), Path) == Files.end())
          Files.push_back(Path);
      } else {
        Messages.push_back(Line.str());
      }
    }
  }
  std::ignore = llvm::sys::fs::remove(Log); // A temporary file at worst.
  for (const std::string &M : Messages)
    llvm::errs() << Tool << ": " << M << "\n";
  if (*Status != 0)
    llvm::errs() << Tool << ": " << R.Application[0] << " exited with status " << *Status << "\n";
  llvm::outs() << Tool << ": " << Files.size() << " kernel" << (Files.size() == 1 ? "" : "s")
               << " recorded in " << Dir << "\n";
  if (Files.empty())
    llvm::outs() << Tool << ": no launch of " << llvm::join(Kernels, ", ") << " was seen\n";
  for (const std::string &F : Files)
    printRecording(F, false, llvm::outs());
  if (llvm::Error E = writeProgramTimes(Dir, R.Application, Files))
    Reporter(Tool.str())
        .warning(llvm::toString(std::move(E)) + "; kcc's build budget is not shared by GPU time");
  return *Status ? failWithStatus(*Status) : llvm::Error::success(); // The application's.
}

} // namespace

llvm::Error runRecord(const std::vector<std::string> &Args) {
  llvm::Expected<RecordRequest> R = parseRequest(Args);
  if (!R)
    return R.takeError();
  if (R->Show) {
    bool Ok = true;
    for (const std::string &F : R->Files)
      Ok = printRecording(F, true, llvm::outs()) && Ok;
    return Ok ? llvm::Error::success() : failWithStatus(1);
  }
  std::vector<std::string> Flags = R->KoptFlags;
  llvm::Expected<memory::CacheConfig> Config = cacheConfigFor(Flags);
  if (!Config)
    return Config.takeError();
  return record(*R, *Config);
}

} // namespace kopt::driver
