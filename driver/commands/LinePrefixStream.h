// Output of work that runs in several threads at once (`kopt optimize` on
// several GPUs): each thread writes to its own stream, which passes whole
// lines to a shared one under a lock, each line after a prefix ("[gpu1 H200] ").
#pragma once

#include <llvm/Support/raw_ostream.h>

#include <mutex>
#include <string>

namespace kopt::driver {

class LinePrefixStream : public llvm::raw_ostream {
public:
  LinePrefixStream(llvm::raw_ostream &Shared, std::mutex &SharedLock, std::string LinePrefix)
      : Out(Shared), Lock(SharedLock), Prefix(std::move(LinePrefix)) {
    SetUnbuffered();
  }
  ~LinePrefixStream() override; // Passes on an unfinished last line.

  void setPrefix(std::string LinePrefix) { Prefix = std::move(LinePrefix); }

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Written; }
  void passLine(llvm::StringRef Line);

  llvm::raw_ostream &Out;
  std::mutex &Lock;
  std::string Prefix, Pending;
  uint64_t Written = 0;
};

} // namespace kopt::driver
