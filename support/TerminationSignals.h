// What ends a process that stands in for another (kcc for nvcc), and what it
// leaves: SIGINT, SIGTERM and SIGHUP remove the registered temporary paths and
// end the process by the same signal, as the program it stands in for would
// end. A child started meanwhile (runAndWait) is sent the signal first and
// waited for, so that nothing it writes (nvcc's object) outlives this process;
// a signal the terminal sent to the whole process group already reached the
// child and is not sent twice. Only async-signal-safe calls run in the handler.
#pragma once

#include <sys/types.h>

namespace kopt::signals {

// Registers Path (copied to fixed storage, at most 64 paths) for removal when a
// signal ends the process; installs the handlers on first use. A directory is
// removed once empty: register it before its files (removal runs in reverse).
void removeOnSignal(const char *Path);
// Forgets every registered path (their owner removed or kept them).
void forgetPaths();

// The child that receives the signal, from fork until it has been reaped. The
// signals are blocked between fork and this call (blockTermination).
void setChild(pid_t Pid);
// After the child was reaped: a signal that arrived while it ran now removes
// the paths and ends this process.
void childEnded();

// Blocks (true) or unblocks (false) the handled signals in this thread, so a
// fork and setChild happen without a signal between them.
void blockTermination(bool Block);
// In a forked child before exec: the default dispositions, then unblocked, so
// that a signal pending since the fork ends the child and touches no path.
void defaultsInChild();

// A write to a closed pipe (stderr read by `| head -1`) fails with EPIPE
// instead of ending the process. A handler, not SIG_IGN, so that programs
// started by exec get the default disposition back.
void survivePipeClosure();

} // namespace kopt::signals
