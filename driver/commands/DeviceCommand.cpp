#include "driver/commands/Subcommand.h"
#include "evaluator/device/CudaDriver.h"
#include "evaluator/device/DeviceQuery.h"

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

namespace kopt::driver {

llvm::Error runDevice(const std::vector<std::string> &Args) {
  bool Json = false;
  for (const std::string &A : Args) {
    if (A == "--json") {
      Json = true;
      continue;
    }
    return llvm::createStringError("unknown argument '" + A + "'");
  }

  llvm::Expected<evaluator::CudaDriver &> Driver = evaluator::CudaDriver::load();
  if (!Driver)
    return Driver.takeError();
  llvm::Expected<std::vector<evaluator::DeviceInfo>> Devices = evaluator::queryDevices(*Driver);
  if (!Devices)
    return Devices.takeError();

  if (Json) {
    nlohmann::ordered_json Out = {{"driver_version", Driver->driverVersion()},
                                  {"devices", nlohmann::ordered_json::array()}};
    for (const evaluator::DeviceInfo &D : *Devices)
      Out["devices"].push_back(
          {{"ordinal", D.Ordinal},
           {"name", D.Name},
           {"uuid", D.Uuid},
           {"compute_capability",
            std::to_string(D.ComputeMajor) + "." + std::to_string(D.ComputeMinor)},
           {"arch", D.smArch()},
           {"multiprocessors", D.MultiprocessorCount},
           {"memory_bytes", D.TotalMemoryBytes},
           {"l2_bytes", D.L2CacheBytes},
           {"max_threads_per_multiprocessor", D.MaxThreadsPerMultiprocessor},
           {"max_shared_memory_per_block_optin", D.SharedMemoryPerBlockOptin}});
    llvm::outs() << Out.dump(2) << "\n";
    return llvm::Error::success();
  }

  int DriverVersion = Driver->driverVersion();
  llvm::outs() << "CUDA driver " << DriverVersion / 1000 << "." << (DriverVersion % 1000) / 10
               << " (" << Driver->libraryPath() << ")\n";
  for (const evaluator::DeviceInfo &D : *Devices)
    llvm::outs() << "device " << D.Ordinal << ": " << D.Name << ", compute capability "
                 << D.ComputeMajor << "." << D.ComputeMinor << " (" << D.smArch() << "), "
                 << D.MultiprocessorCount << " SMs, "
                 << llvm::format("%.1f", D.TotalMemoryBytes / double(1ull << 30)) << " GiB, L2 "
                 << D.L2CacheBytes / (1 << 20) << " MiB, " << D.Uuid << "\n";
  return llvm::Error::success();
}

} // namespace kopt::driver
