// `kopt worker`'s loop on a GPU host (issue 33): takes jobs from the work
// queue (memory/queue/JobQueue.h), at most one in flight per free GPU, each in
// a process of its own (a job that crashes costs its attempt, not the worker);
// publishes each result to the remote caches, keeps a copy in the local cache,
// then acknowledges the job. A job whose worker stopped renewing its lease is
// taken over by another (XAUTOCLAIM); a job that failed MaxAttempts times goes
// to the dead-letter stream with its error. No GPU and no clang here: a job's
// process does the optimizing (`kopt worker-job`, WorkerCommand.cpp).
#pragma once

#include "memory/cache/ResultCache.h"
#include "memory/queue/QueueSpec.h"
#include "memory/remote/RemoteUrl.h"

#include <llvm/Support/raw_ostream.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kopt::driver {

// A GPU the worker hands jobs to.
struct WorkerDevice {
  std::string Id;      // As the user names it (--devices): "0".
  std::string Name;    // "NVIDIA H200".
  std::string Arch;    // "sm_90": the jobs it takes.
  std::string Visible; // CUDA_VISIBLE_DEVICES for its jobs' processes.
  std::string LockId;  // Its GPU lock (GpuLock::pathFor): the UUID, as kcc's.
};

// How one job runs on one device: a program, its arguments and the
// environment over the worker's (the device it may use). JobFile holds the
// job's text; the process writes the cache entry to ResultFile, or its error
// to ErrorFile, and exits 0 on success.
struct JobProcess {
  std::string Program;
  std::vector<std::string> Args;
  std::vector<std::pair<std::string, std::string>> Env;
};
using JobProcessFn =
    std::function<JobProcess(const WorkerDevice &Device, const std::string &JobFile,
                             const std::string &ResultFile, const std::string &ErrorFile)>;

struct WorkerConfig {
  memory::QueueSpec Queue;
  std::string Name; // The consumer's name: host:pid unless given.
  std::vector<WorkerDevice> Devices;
  std::vector<memory::RemoteSpec> Publish; // The writable remote caches.
  memory::CacheConfig LocalCache;          // Every result is stored here too.
  std::string WorkDir;                     // Jobs' files and logs.
  unsigned MaxJobs = 0;                    // Jobs to finish before exiting; 0: no limit.
  double IdleExitSeconds = 0;              // Exit after this long without a job; 0: never.
  unsigned LeaseMs = 300000;               // A job not renewed this long is taken over.
  double JobTimeoutSeconds = 3600;         // A job's process is killed after this long.
  JobProcessFn Process;
};

// Runs until MaxJobs jobs ended, IdleExitSeconds passed without one, or
// SIGTERM / SIGINT (jobs in flight go back to the queue). Progress lines go to
// Log. Returns the exit status: 0, or 1 where the worker could not start.
int runWorkerLoop(const WorkerConfig &Config, llvm::raw_ostream &Log);

} // namespace kopt::driver
