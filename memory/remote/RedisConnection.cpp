#include "memory/remote/RedisConnection.h"

#include "memory/remote/RemoteBackend.h"

#include <hiredis/hiredis.h>

#include <sys/time.h>

#include <memory>

namespace kopt::memory {

namespace {

#define KOPT_STRINGIFY2(X) #X
#define KOPT_STRINGIFY(X) KOPT_STRINGIFY2(X)
#define HIREDIS_VERSION_TEXT KOPT_STRINGIFY(HIREDIS_MAJOR) "." KOPT_STRINGIFY(HIREDIS_MINOR)

timeval toTimeval(unsigned Ms) { return {static_cast<time_t>(Ms / 1000), (Ms % 1000) * 1000}; }

struct ReplyDeleter {
  void operator()(redisReply *R) const { freeReplyObject(R); }
};

RedisReply copyReply(const redisReply &R) {
  RedisReply Out;
  switch (R.type) {
  case REDIS_REPLY_INTEGER:
    Out.Kind = RedisReply::Type::Integer;
    Out.Integer = R.integer;
    break;
  case REDIS_REPLY_STRING:
  case REDIS_REPLY_STATUS:
    Out.Kind = R.type == REDIS_REPLY_STRING ? RedisReply::Type::String : RedisReply::Type::Status;
    Out.Text.assign(R.str, R.len);
    break;
  case REDIS_REPLY_ARRAY:
    Out.Kind = RedisReply::Type::Array;
    for (size_t I = 0; I < R.elements; ++I)
      Out.Elements.push_back(copyReply(*R.element[I]));
    break;
  default: // REDIS_REPLY_NIL; errors are handled before.
    break;
  }
  return Out;
}

} // namespace

RedisConnection::RedisConnection(RemoteSpec S) : Spec(std::move(S)) {}

RedisConnection::~RedisConnection() { drop(); }

void RedisConnection::drop() {
  if (Context)
    redisFree(Context);
  Context = nullptr;
}

llvm::Error RedisConnection::connect() {
  if (Context)
    return llvm::Error::success();
  if (Spec.Kind == RemoteSpec::Scheme::Rediss)
    return remoteError(RemoteFailure::Failed,
                       "rediss:// needs hiredis 1.0 or newer with TLS; this kopt is built "
                       "with hiredis " HIREDIS_VERSION_TEXT);
  Context = redisConnectWithTimeout(Spec.Host.c_str(), static_cast<int>(Spec.Port),
                                    toTimeval(Spec.ConnectTimeoutMs));
  if (!Context || Context->err) {
    std::string Why = Context ? Context->errstr : "out of memory";
    drop();
    return remoteError(RemoteFailure::Unreachable, "cannot connect: " + Why);
  }
  redisSetTimeout(Context, toTimeval(Spec.OperationTimeoutMs));
  if (!Spec.Password.empty()) {
    std::vector<llvm::StringRef> Auth = {"AUTH"};
    if (!Spec.User.empty())
      Auth.push_back(Spec.User);
    Auth.push_back(Spec.Password);
    // The reply may echo nothing secret, but the command is never quoted.
    if (llvm::Expected<RedisReply> R = send(Auth); !R) {
      drop();
      return llvm::handleErrors(R.takeError(), [](const RemoteError &E) {
        return remoteError(E.Kind, "authentication failed: " + E.Message);
      });
    }
  }
  if (Spec.Database)
    if (llvm::Expected<RedisReply> R = send({"SELECT", std::to_string(Spec.Database)}); !R) {
      drop();
      return R.takeError();
    }
  return llvm::Error::success();
}

llvm::Expected<RedisReply> RedisConnection::command(llvm::ArrayRef<llvm::StringRef> Args) {
  if (llvm::Error E = connect())
    return E;
  return send(Args);
}

llvm::Expected<RedisReply> RedisConnection::blockingCommand(llvm::ArrayRef<llvm::StringRef> Args,
                                                            unsigned WaitMs) {
  if (llvm::Error E = connect())
    return E;
  redisSetTimeout(Context, toTimeval(Spec.OperationTimeoutMs + WaitMs));
  llvm::Expected<RedisReply> R = send(Args);
  if (Context)
    redisSetTimeout(Context, toTimeval(Spec.OperationTimeoutMs));
  return R;
}

llvm::Expected<RedisReply> RedisConnection::send(llvm::ArrayRef<llvm::StringRef> Args) {
  std::vector<const char *> Argv;
  std::vector<size_t> Lengths;
  for (llvm::StringRef A : Args) {
    Argv.push_back(A.data());
    Lengths.push_back(A.size());
  }
  std::unique_ptr<redisReply, ReplyDeleter> R(static_cast<redisReply *>(
      redisCommandArgv(Context, static_cast<int>(Argv.size()), Argv.data(), Lengths.data())));
  if (!R) {
    // I/O error or timeout: the connection is unusable from here on.
    std::string Why = Context->errstr;
    drop();
    return remoteError(RemoteFailure::Unreachable, Args.front() + ": " + Why);
  }
  if (R->type == REDIS_REPLY_ERROR)
    return remoteError(RemoteFailure::Failed,
                       Args.front() + ": " + llvm::StringRef(R->str, R->len));
  return copyReply(*R);
}

} // namespace kopt::memory
