// One job of the work queue: everything a GPU worker needs to optimize one
// kernel for one architecture without the submitter's source tree, as one
// JSON text (format "kopt-job-1"):
//   the kernel's unit (the kernel and the code it needs, KernelUnit.h), the
//   `#pragma kopt optimize` line that gives its workload and where it goes in
//   the unit, the compile's nvcc flags, the real target architecture, the
//   cache key the submitter computed (digest and canonical text: the worker
//   stores its result under exactly this key, after checking that its own
//   parse gives the same), and the submitter's engine and budget.
#pragma once

#include "memory/cache/CacheKey.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::memory {

struct QueueJob {
  std::string Kernel;  // Qualified name.
  std::string Origin;  // Where the submitter found it, for people: "main.cu:12".
  std::string Unit;    // The kernel's unit text.
  std::string Pragma;  // "#pragma kopt optimize launch(...) ...", one line.
  size_t PragmaAt = 0; // Offset in Unit of the kernel's definition: the pragma goes before it.
  std::vector<std::string> Flags; // The compile's nvcc flags.
  std::string Arch;               // "sm_90".
  CacheKey Key;
  std::string Engine, Budget; // The submitter's options (engine, budget).
  std::string Submitted;      // UTC date.
  std::string Submitter;      // The submitting host.

  // The file the worker parses: the unit with the pragma line before the kernel.
  std::string workerSource() const;
};

std::string serializeJob(const QueueJob &Job);
// Fails on malformed JSON, another format, a missing field, a key text that
// does not hash to the key, or a pragma position outside the unit.
llvm::Expected<QueueJob> parseJob(llvm::StringRef Text);

} // namespace kopt::memory
