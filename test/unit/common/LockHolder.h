// A lock held by another process for a test: a child process takes the flock
// on Path and keeps it until the holder is destroyed (the child is killed,
// and the kernel lets go of its lock).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

namespace kopt::test {

class LockHolder {
public:
  explicit LockHolder(const std::string &Path) {
    int Ready[2];
    if (::pipe(Ready) != 0)
      throw std::runtime_error("pipe failed");
    Child = ::fork();
    if (Child == 0) {
      int Fd = ::open(Path.c_str(), O_RDONLY | O_CREAT, 0666);
      char Status = Fd >= 0 && ::flock(Fd, LOCK_EX) == 0 ? 'y' : 'n';
      (void)!::write(Ready[1], &Status, 1);
      for (;;)
        ::pause();
    }
    char Status = 'n';
    ::close(Ready[1]);
    if (Child < 0 || ::read(Ready[0], &Status, 1) != 1 || Status != 'y')
      throw std::runtime_error("the lock holder could not take " + Path);
    ::close(Ready[0]);
  }
  ~LockHolder() {
    ::kill(Child, SIGKILL);
    ::waitpid(Child, nullptr, 0);
  }
  LockHolder(const LockHolder &) = delete;
  LockHolder &operator=(const LockHolder &) = delete;

private:
  pid_t Child = -1;
};

} // namespace kopt::test
