#include "memory/remote/RemoteBackend.h"

namespace kopt::memory {

char RemoteError::ID = 0;

llvm::Error remoteError(RemoteFailure Kind, const llvm::Twine &Message) {
  return llvm::make_error<RemoteError>(Kind, Message.str());
}

llvm::Error replyTooLarge(llvm::StringRef Operation) {
  return remoteError(RemoteFailure::Unreachable,
                     Operation + ": the reply exceeds " + llvm::Twine(MaxRemoteReplyBytes >> 20) +
                         " MiB (" + llvm::Twine(MaxRemoteReplyBytes / LargestEntryBytes) +
                         " times the largest entry kopt writes): refused");
}

RemoteProblem describeRemoteError(llvm::Error E) {
  RemoteProblem Problem;
  llvm::handleAllErrors(
      std::move(E),
      [&](const RemoteError &R) {
        Problem.Unreachable = R.Kind == RemoteFailure::Unreachable;
        Problem.Message = R.Message;
      },
      [&](const llvm::ErrorInfoBase &B) { Problem.Message = B.message(); });
  return Problem;
}

llvm::Expected<std::unique_ptr<RemoteBackend>> makeRemoteBackend(const RemoteSpec &Spec) {
  switch (Spec.Kind) {
  case RemoteSpec::Scheme::Redis:
  case RemoteSpec::Scheme::Rediss:
    return makeRedisBackend(Spec);
  case RemoteSpec::Scheme::Http:
  case RemoteSpec::Scheme::Https:
    return makeHttpBackend(Spec);
  }
  llvm_unreachable("all schemes handled");
}

} // namespace kopt::memory
