#include "evaluator/compile/KernelCompiler.h"

#include <llvm/ADT/ScopeExit.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>
#include <nvrtc.h>

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <mutex>

namespace kopt::evaluator {

namespace {

std::string cudaRoot() {
  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *V = std::getenv(Var); V && *V)
      return V;
  return "/usr/local/cuda";
}

// NVRTC's entry points, loaded once.
struct Nvrtc {
  decltype(&::nvrtcVersion) Version = nullptr;
  decltype(&::nvrtcCreateProgram) CreateProgram = nullptr;
  decltype(&::nvrtcDestroyProgram) DestroyProgram = nullptr;
  decltype(&::nvrtcAddNameExpression) AddNameExpression = nullptr;
  decltype(&::nvrtcCompileProgram) CompileProgram = nullptr;
  decltype(&::nvrtcGetProgramLogSize) GetProgramLogSize = nullptr;
  decltype(&::nvrtcGetProgramLog) GetProgramLog = nullptr;
  decltype(&::nvrtcGetCUBINSize) GetCUBINSize = nullptr;
  decltype(&::nvrtcGetCUBIN) GetCUBIN = nullptr;
  decltype(&::nvrtcGetLoweredName) GetLoweredName = nullptr;
  decltype(&::nvrtcGetErrorString) GetErrorString = nullptr;

  static llvm::Expected<const Nvrtc &> load();
};

template <typename Fn> bool lookup(void *Handle, const char *Name, Fn &Out) {
  Out = reinterpret_cast<Fn>(::dlsym(Handle, Name));
  return Out != nullptr;
}

llvm::Expected<const Nvrtc &> Nvrtc::load() {
  static Nvrtc Lib;
  static std::string Failure;
  static std::once_flag Once;
  std::call_once(Once, [] {
    std::vector<std::string> Candidates;
    if (const char *V = std::getenv("KOPT_LIBNVRTC"); V && *V)
      Candidates.push_back(V);
    Candidates.push_back("libnvrtc.so.13");
    Candidates.push_back(cudaRoot() + "/lib64/libnvrtc.so.13");
    Candidates.push_back(cudaRoot() + "/lib64/libnvrtc.so");
    void *Handle = nullptr;
    for (const std::string &C : Candidates)
      if ((Handle = ::dlopen(C.c_str(), RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!Handle) {
      Failure = "cannot load libnvrtc (tried " + Candidates.front() + " and the CUDA toolkit's)";
      return;
    }
    bool Ok = lookup(Handle, "nvrtcVersion", Lib.Version) &&
              lookup(Handle, "nvrtcCreateProgram", Lib.CreateProgram) &&
              lookup(Handle, "nvrtcDestroyProgram", Lib.DestroyProgram) &&
              lookup(Handle, "nvrtcAddNameExpression", Lib.AddNameExpression) &&
              lookup(Handle, "nvrtcCompileProgram", Lib.CompileProgram) &&
              lookup(Handle, "nvrtcGetProgramLogSize", Lib.GetProgramLogSize) &&
              lookup(Handle, "nvrtcGetProgramLog", Lib.GetProgramLog) &&
              lookup(Handle, "nvrtcGetCUBINSize", Lib.GetCUBINSize) &&
              lookup(Handle, "nvrtcGetCUBIN", Lib.GetCUBIN) &&
              lookup(Handle, "nvrtcGetLoweredName", Lib.GetLoweredName) &&
              lookup(Handle, "nvrtcGetErrorString", Lib.GetErrorString);
    if (!Ok)
      Failure = "libnvrtc lacks an entry point kopt needs (older than CUDA 12?)";
  });
  if (!Failure.empty())
    return llvm::createStringError(Failure);
  return Lib;
}

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
}

llvm::Expected<CompiledKernel> compileWithNvrtc(const KernelSource &Source,
                                                const std::string &Arch) {
  auto Start = std::chrono::steady_clock::now();
  auto LibOr = Nvrtc::load();
  if (!LibOr)
    return LibOr.takeError();
  const Nvrtc &Lib = *LibOr;
  nvrtcProgram Prog = nullptr;
  if (nvrtcResult R =
          Lib.CreateProgram(&Prog, Source.Code.c_str(), "kopt_unit.cu", 0, nullptr, nullptr);
      R != NVRTC_SUCCESS)
    return llvm::createStringError("nvrtcCreateProgram: %s", Lib.GetErrorString(R));
  auto Destroy = llvm::make_scope_exit([&] { Lib.DestroyProgram(&Prog); });
  Lib.AddNameExpression(Prog, Source.NameExpression.c_str());

  std::vector<std::string> Options = {"--gpu-architecture=" + Arch, "-I" + cudaRoot() + "/include",
                                      "-I" + cudaRoot() + "/include/cccl"};
  Options.insert(Options.end(), Source.Options.begin(), Source.Options.end());
  std::vector<const char *> Argv;
  for (const std::string &O : Options)
    Argv.push_back(O.c_str());
  nvrtcResult Compiled = Lib.CompileProgram(Prog, static_cast<int>(Argv.size()), Argv.data());

  CompiledKernel Out;
  Out.Compiler = "nvrtc";
  size_t LogSize = 0;
  Lib.GetProgramLogSize(Prog, &LogSize);
  Out.Log.resize(LogSize);
  if (LogSize)
    Lib.GetProgramLog(Prog, Out.Log.data());
  while (!Out.Log.empty() && (Out.Log.back() == '\0' || Out.Log.back() == '\n'))
    Out.Log.pop_back();
  if (Compiled != NVRTC_SUCCESS)
    return llvm::createStringError("NVRTC: %s\n%s", Lib.GetErrorString(Compiled), Out.Log.c_str());
  size_t CubinSize = 0;
  Lib.GetCUBINSize(Prog, &CubinSize);
  Out.Cubin.resize(CubinSize);
  Lib.GetCUBIN(Prog, Out.Cubin.data());
  const char *Lowered = nullptr;
  if (Lib.GetLoweredName(Prog, Source.NameExpression.c_str(), &Lowered) != NVRTC_SUCCESS ||
      !Lowered)
    return llvm::createStringError("NVRTC found no kernel named '%s' in the unit",
                                   Source.NameExpression.c_str());
  Out.LoweredName = Lowered;
  Out.Seconds = secondsSince(Start);
  return Out;
}

llvm::Expected<CompiledKernel> compileWithNvcc(const KernelSource &Source, const std::string &Arch,
                                               std::string Nvcc) {
  if (Source.MangledName.empty())
    return llvm::createStringError("the nvcc fallback needs the kernel's mangled name");
  auto Start = std::chrono::steady_clock::now();
  if (Nvcc.empty())
    Nvcc = cudaRoot() + "/bin/nvcc";
  llvm::SmallString<128> Dir;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("kopt-nvcc", Dir))
    return llvm::createStringError(EC, "cannot create a temporary directory");
  auto Cleanup = llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(Dir); });
  std::string Unit = (Dir + "/unit.cu").str(), Cubin = (Dir + "/unit.cubin").str(),
              Log = (Dir + "/log.txt").str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Unit, EC);
    if (EC)
      return llvm::createStringError(EC, "cannot write %s", Unit.c_str());
    // Taking the kernel's address instantiates a template kernel for the device.
    OS << Source.Code << "\nstatic void *const kopt_kernel_address = (void *)&"
       << Source.NameExpression << ";\n";
  }
  std::vector<std::string> Args = {Nvcc, "-cubin", "-arch=" + Arch, "-o", Cubin};
  Args.insert(Args.end(), Source.Options.begin(), Source.Options.end());
  Args.push_back(Unit);
  std::vector<llvm::StringRef> ArgRefs(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(Log),
                                                llvm::StringRef(Log)};
  std::string ErrMsg;
  int Status = llvm::sys::ExecuteAndWait(Nvcc, ArgRefs, std::nullopt, Redirects, 0, 0, &ErrMsg);
  CompiledKernel Out;
  Out.Compiler = "nvcc";
  if (auto LogBuf = llvm::MemoryBuffer::getFile(Log))
    Out.Log = (*LogBuf)->getBuffer().rtrim().str();
  if (Status != 0)
    return llvm::createStringError("nvcc -cubin failed%s%s\n%s", ErrMsg.empty() ? "" : ": ",
                                   ErrMsg.c_str(), Out.Log.c_str());
  auto CubinBuf = llvm::MemoryBuffer::getFile(Cubin, /*IsText=*/false);
  if (!CubinBuf)
    return llvm::createStringError(CubinBuf.getError(), "nvcc wrote no cubin");
  Out.Cubin = (*CubinBuf)->getBuffer().str();
  Out.LoweredName = Source.MangledName;
  Out.Seconds = secondsSince(Start);
  return Out;
}

} // namespace

llvm::Expected<CompiledKernel> compileKernel(const KernelSource &Source, const std::string &Arch,
                                             const std::string &NvccPath) {
  auto Nvrtc = compileWithNvrtc(Source, Arch);
  if (Nvrtc)
    return Nvrtc;
  std::string NvrtcFailure = llvm::toString(Nvrtc.takeError());
  auto Nvcc = compileWithNvcc(Source, Arch, NvccPath);
  if (Nvcc)
    return Nvcc;
  return llvm::createStringError("%s\n%s", NvrtcFailure.c_str(),
                                 llvm::toString(Nvcc.takeError()).c_str());
}

llvm::Expected<std::string> nvrtcVersion() {
  auto Lib = Nvrtc::load();
  if (!Lib)
    return Lib.takeError();
  int Major = 0, Minor = 0;
  Lib->Version(&Major, &Minor);
  return std::to_string(Major) + "." + std::to_string(Minor);
}

llvm::Expected<std::string> nvrtcLibraryPath() {
  auto Lib = Nvrtc::load();
  if (!Lib)
    return Lib.takeError();
  Dl_info Info;
  if (!::dladdr(reinterpret_cast<void *>(Lib->Version), &Info) || !Info.dli_fname)
    return llvm::createStringError("cannot tell which file libnvrtc was loaded from");
  return std::string(Info.dli_fname);
}

} // namespace kopt::evaluator
