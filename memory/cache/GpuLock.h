// Held while a kernel is timed, so that parallel kcc processes (make -j32)
// take turns on each GPU instead of disturbing each other's measurements. A
// GPU's lock is named by the GPU itself (its UUID: the same in every process,
// whatever CUDA_VISIBLE_DEVICES makes of the ordinals), never by an ordinal.
// Nothing here needs a GPU: the caller names it.
#pragma once

#include "memory/cache/FileLock.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <chrono>
#include <cstddef>
#include <string>

namespace kopt::memory {

class GpuLock {
public:
  // kopt-gpu-<GpuId>.lock in $KOPT_GPU_LOCK_DIR, else in the system's
  // temporary directory: one lock per GPU and machine, shared by every user
  // and whatever cache directory each build uses. GpuId: "GPU-8c1f7e0a-...".
  static std::string pathFor(llvm::StringRef GpuId);

  // Waits for the lock; calls OnWait first when another process holds it, so a
  // build can say why it stopped moving.
  static llvm::Expected<GpuLock> acquire(llvm::StringRef Path,
                                         llvm::function_ref<void()> OnWait = {});

  // The first of Paths that is free; where every one is held, calls OnWait
  // once and takes whichever is released first. flock cannot wait on several
  // files at once: the wait tries each in turn every Poll.
  static llvm::Expected<GpuLock>
  acquireAny(llvm::ArrayRef<std::string> Paths, llvm::function_ref<void()> OnWait = {},
             std::chrono::milliseconds Poll = std::chrono::milliseconds(100));

  // Which of acquireAny's paths this lock holds (0 for acquire).
  size_t index() const { return Index; }

private:
  GpuLock(FileLock Held, size_t Which) : Lock(std::move(Held)), Index(Which) {}
  FileLock Lock;
  size_t Index;
};

} // namespace kopt::memory
