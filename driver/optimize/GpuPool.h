// The GPUs this process optimizes on (issue 33): those the driver sees,
// restricted by the `devices` option (driver/config/DeviceList.h). Each is
// lent to one kernel at a time under its lock (memory/cache/GpuLock.h, named
// by the GPU's UUID), with an evaluator started on it the first time it is
// lent and kept for the next kernel: a kernel's original and its variants are
// measured on the one GPU of its lease. A kernel takes any free GPU and waits
// only while every one is busy, so `make -jN` and `kopt optimize` with
// several kernels keep every GPU busy.
#pragma once

#include "evaluator/Evaluator.h"
#include "evaluator/device/DeviceQuery.h"
#include "memory/cache/GpuLock.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kopt::driver {

// "gpu1 H200": how progress lines and notes name a GPU (the ordinal this
// process sees, and the model without "NVIDIA ").
std::string gpuLabel(const evaluator::DeviceInfo &D);

// The GPUs the driver sees, or why there are none.
llvm::Expected<std::vector<evaluator::DeviceInfo>> visibleDevices();

// The devices of Visible that the `devices` option names (ordinals or UUIDs),
// in its order; all of Visible where it is empty. An error names an item that
// names no visible GPU.
llvm::Expected<std::vector<evaluator::DeviceInfo>>
allowedDevices(llvm::ArrayRef<evaluator::DeviceInfo> Visible, llvm::StringRef DevicesOption);

class GpuPool {
public:
  using EvaluatorStarter =
      std::function<llvm::Expected<std::unique_ptr<evaluator::VariantEvaluator>>(
          const evaluator::DeviceInfo &)>;

  // Devices: at least one.
  GpuPool(std::vector<evaluator::DeviceInfo> Devices, EvaluatorStarter Start);

  // The GPU's evaluator: its worker process on D's ordinal. Fails where the
  // worker opened a GPU other than D (by UUID).
  static llvm::Expected<std::unique_ptr<evaluator::VariantEvaluator>>
  startEvaluator(const evaluator::DeviceInfo &D);

  class Lease {
  public:
    const evaluator::DeviceInfo &device() const { return *Device; }
    evaluator::VariantEvaluator &evaluator() { return *Eval; }
    std::string label() const { return gpuLabel(*Device); }

  private:
    friend class GpuPool;
    Lease(memory::GpuLock Held, const evaluator::DeviceInfo &D, evaluator::VariantEvaluator &E)
        : Lock(std::move(Held)), Device(&D), Eval(&E) {}
    memory::GpuLock Lock;
    const evaluator::DeviceInfo *Device;
    evaluator::VariantEvaluator *Eval;
  };

  // A free GPU, its evaluator started; GPUs whose evaluator is already
  // running come first. Where every GPU is held, OnWait("waiting for the
  // GPU: ...") is called once before the wait for the first one released.
  llvm::Expected<Lease> lend(llvm::function_ref<void(const std::string &Why)> OnWait = {});

  const std::vector<evaluator::DeviceInfo> &devices() const { return Devices; }

private:
  std::vector<evaluator::DeviceInfo> Devices;
  EvaluatorStarter Start;
  // One slot a device, touched only by the holder of its lock; Started is
  // read by every lend() to order the GPUs.
  std::vector<std::unique_ptr<evaluator::VariantEvaluator>> Evaluators;
  std::mutex StartedLock;
  std::vector<bool> Started;
};

} // namespace kopt::driver
