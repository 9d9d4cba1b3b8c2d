// One remote store (ccache's remote storage backends): get, put and list raw
// entry bytes by key digest. A factory picks the backend by the spec's scheme;
// each backend's class is private to its file.
#pragma once

#include "memory/remote/RemoteUrl.h"

#include <llvm/Support/Error.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kopt::memory {

// The largest entry a store writes: a kernel's unit and its variant (tens of
// KiB for the largest kernels met so far), the verification and timing
// records and a trajectory of at most a few hundred evaluations. The entries
// of examples/app are 10 KiB; 1 MiB is well above any entry kopt has made.
inline constexpr uint64_t LargestEntryBytes = uint64_t(1) << 20;
// A remote's reply beyond this is refused while it arrives, never read whole:
// a server that answers with gigabytes (a wrong key space, a broken or
// hostile server) costs a warning, not the build machine's memory. Sixteen
// times the largest entry leaves room for entries that grow, and for the
// replies that list keys (`kopt cache ls --remote`: a thousand keys a reply).
inline constexpr uint64_t MaxRemoteReplyBytes = 16 * LargestEntryBytes;

// Why a remote operation failed: Unreachable (cannot connect, timed out, or a
// reply too large to take, which every compile would read again) starts a
// back-off; Failed (the server answered with an error) does not.
enum class RemoteFailure { Unreachable, Failed };

class RemoteError : public llvm::ErrorInfo<RemoteError> {
public:
  static char ID;
  RemoteError(RemoteFailure FailureKind, std::string Text)
      : Kind(FailureKind), Message(std::move(Text)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
  RemoteFailure Kind;
  std::string Message;
};

llvm::Error remoteError(RemoteFailure Kind, const llvm::Twine &Message);
// Operation's reply grew past MaxRemoteReplyBytes: refused, and the remote
// backed off as an unreachable one.
llvm::Error replyTooLarge(llvm::StringRef Operation);

// What a failed operation says, and whether the remote is unreachable (a
// RemoteError of that kind); consumes E.
struct RemoteProblem {
  bool Unreachable = false;
  std::string Message;
};
RemoteProblem describeRemoteError(llvm::Error E);

// Each operation (get, put, exists, one step of list) ends within the spec's
// operation timeout, counted from its start (connecting included): a server
// that trickles its reply cannot stretch it.
class RemoteBackend {
public:
  virtual ~RemoteBackend() = default;
  // The stored bytes; nullopt where the remote has no such key.
  virtual llvm::Expected<std::optional<std::string>> get(llvm::StringRef Digest) = 0;
  virtual llvm::Error put(llvm::StringRef Digest, llvm::StringRef Bytes) = 0;
  // Whether the remote holds Digest, without fetching it (`kopt cache push`).
  virtual llvm::Expected<bool> exists(llvm::StringRef Digest) = 0;
  // Every key digest the remote holds (`kopt cache ls --remote`).
  virtual llvm::Expected<std::vector<std::string>> list() = 0;
};

llvm::Expected<std::unique_ptr<RemoteBackend>> makeRemoteBackend(const RemoteSpec &Spec);

// The backends, one file each.
llvm::Expected<std::unique_ptr<RemoteBackend>> makeRedisBackend(const RemoteSpec &Spec);
llvm::Expected<std::unique_ptr<RemoteBackend>> makeHttpBackend(const RemoteSpec &Spec);

} // namespace kopt::memory
