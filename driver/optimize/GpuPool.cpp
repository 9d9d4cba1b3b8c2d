#include "driver/optimize/GpuPool.h"

#include "driver/config/DeviceList.h"
#include "evaluator/device/CudaDriver.h"

#include <llvm/ADT/StringExtras.h>

namespace kopt::driver {

std::string gpuLabel(const evaluator::DeviceInfo &D) {
  llvm::StringRef Model = D.Name;
  Model.consume_front("NVIDIA ");
  return "gpu" + std::to_string(D.Ordinal) + " " + Model.str();
}

llvm::Expected<std::vector<evaluator::DeviceInfo>> visibleDevices() {
  auto Driver = evaluator::CudaDriver::load();
  if (!Driver)
    return Driver.takeError();
  return evaluator::queryDevices(*Driver);
}

llvm::Expected<std::vector<evaluator::DeviceInfo>>
allowedDevices(llvm::ArrayRef<evaluator::DeviceInfo> Visible, llvm::StringRef DevicesOption) {
  auto Items = parseDeviceList(DevicesOption);
  if (!Items)
    return Items.takeError();
  if (Items->empty())
    return std::vector<evaluator::DeviceInfo>(Visible.begin(), Visible.end());
  std::vector<evaluator::DeviceInfo> Allowed;
  for (const std::string &Item : *Items) {
    auto It = std::find_if(Visible.begin(), Visible.end(), [&](const evaluator::DeviceInfo &D) {
      return std::to_string(D.Ordinal) == Item || D.Uuid == Item;
    });
    if (It == Visible.end()) {
      std::vector<std::string> Seen;
      for (const evaluator::DeviceInfo &D : Visible)
        Seen.push_back(gpuLabel(D) + " (" + D.Uuid + ")");
      return llvm::createStringError("the devices option names GPU '%s', which is not here "
                                     "(GPUs here: %s)",
                                     Item.c_str(), llvm::join(Seen, ", ").c_str());
    }
    Allowed.push_back(*It);
  }
  return Allowed;
}

GpuPool::GpuPool(std::vector<evaluator::DeviceInfo> Gpus, EvaluatorStarter Starter)
    : Devices(std::move(Gpus)), Start(std::move(Starter)), Evaluators(Devices.size()),
      Started(Devices.size(), false) {}

llvm::Expected<std::unique_ptr<evaluator::VariantEvaluator>>
GpuPool::startEvaluator(const evaluator::DeviceInfo &D) {
  evaluator::EvaluatorOptions Options;
  Options.Device = D.Ordinal;
  auto Eval = evaluator::Evaluator::start(Options);
  if (!Eval)
    return Eval.takeError();
  const std::string &Opened = (*Eval)->device().Uuid;
  if (!D.Uuid.empty() && Opened != D.Uuid)
    return llvm::createStringError("the evaluation worker for %s (%s) opened %s instead",
                                   gpuLabel(D).c_str(), D.Uuid.c_str(), Opened.c_str());
  return std::unique_ptr<evaluator::VariantEvaluator>(std::move(*Eval));
}

llvm::Expected<GpuPool::Lease> GpuPool::lend(llvm::function_ref<void(const std::string &)> OnWait) {
  // Warm GPUs first: a started evaluator saves its worker's start.
  std::vector<size_t> Order;
  {
    std::lock_guard<std::mutex> Guard(StartedLock);
    for (bool Warm : {true, false})
      for (size_t I = 0; I < Devices.size(); ++I)
        if (Started[I] == Warm)
          Order.push_back(I);
  }
  std::vector<std::string> Paths;
  for (size_t I : Order)
    Paths.push_back(memory::GpuLock::pathFor(Devices[I].Uuid));
  auto Lock = memory::GpuLock::acquireAny(Paths, [&] {
    if (!OnWait)
      return;
    OnWait(Paths.size() == 1
               ? "waiting for the GPU: another kopt process is optimizing on it (lock " +
                     Paths.front() + ")"
               : "waiting for a GPU: other kopt processes are optimizing on all " +
                     std::to_string(Paths.size()) + " (locks " + llvm::join(Paths, ", ") + ")");
  });
  if (!Lock)
    return Lock.takeError();
  size_t Slot = Order[Lock->index()];
  if (!Evaluators[Slot]) {
    auto Eval = Start(Devices[Slot]);
    if (!Eval)
      return Eval.takeError();
    Evaluators[Slot] = std::move(*Eval);
    std::lock_guard<std::mutex> Guard(StartedLock);
    Started[Slot] = true;
  }
  return Lease(std::move(*Lock), Devices[Slot], *Evaluators[Slot]);
}

} // namespace kopt::driver
