// The Redis backend (hiredis): an entry is the string at "kopt:entry:<digest>".
// One connection a process, made on first use with the connect timeout; every
// command has the operation timeout.
#include "memory/remote/RemoteBackend.h"

#include <hiredis/hiredis.h>

#include <sys/time.h>

namespace kopt::memory {

namespace {

constexpr llvm::StringRef KeyPrefix = "kopt:entry:";

#define KOPT_STRINGIFY2(X) #X
#define KOPT_STRINGIFY(X) KOPT_STRINGIFY2(X)
#define HIREDIS_VERSION_TEXT KOPT_STRINGIFY(HIREDIS_MAJOR) "." KOPT_STRINGIFY(HIREDIS_MINOR)

timeval toTimeval(unsigned Ms) { return {static_cast<time_t>(Ms / 1000), (Ms % 1000) * 1000}; }

struct ReplyDeleter {
  void operator()(redisReply *R) const { freeReplyObject(R); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

class RedisBackend final : public RemoteBackend {
public:
  explicit RedisBackend(RemoteSpec S) : Spec(std::move(S)) {}
  ~RedisBackend() override {
    if (Context)
      redisFree(Context);
  }

  llvm::Expected<std::optional<std::string>> get(llvm::StringRef Digest) override {
    std::string Key = (KeyPrefix + Digest).str();
    llvm::Expected<Reply> R = command({"GET", Key});
    if (!R)
      return R.takeError();
    if ((*R)->type == REDIS_REPLY_NIL)
      return std::nullopt;
    if ((*R)->type != REDIS_REPLY_STRING)
      return remoteError(RemoteFailure::Failed,
                         "GET: unexpected reply type " + llvm::Twine((*R)->type));
    return std::string((*R)->str, (*R)->len);
  }

  llvm::Error put(llvm::StringRef Digest, llvm::StringRef Bytes) override {
    std::string Key = (KeyPrefix + Digest).str();
    llvm::Expected<Reply> R = command({"SET", Key, Bytes});
    return R ? llvm::Error::success() : R.takeError();
  }

  llvm::Expected<bool> exists(llvm::StringRef Digest) override {
    std::string Key = (KeyPrefix + Digest).str();
    llvm::Expected<Reply> R = command({"EXISTS", Key});
    if (!R)
      return R.takeError();
    return (*R)->type == REDIS_REPLY_INTEGER && (*R)->integer > 0;
  }

  llvm::Expected<std::vector<std::string>> list() override {
    std::vector<std::string> Digests;
    std::string Cursor = "0";
    do {
      llvm::Expected<Reply> R =
          command({"SCAN", Cursor, "MATCH", (KeyPrefix + "*").str(), "COUNT", "1000"});
      if (!R)
        return R.takeError();
      if ((*R)->type != REDIS_REPLY_ARRAY || (*R)->elements != 2)
        return remoteError(RemoteFailure::Failed, "SCAN: unexpected reply");
      Cursor.assign((*R)->element[0]->str, (*R)->element[0]->len);
      const redisReply *Keys = (*R)->element[1];
      for (size_t I = 0; I < Keys->elements; ++I)
        Digests.push_back(llvm::StringRef(Keys->element[I]->str, Keys->element[I]->len)
                              .drop_front(KeyPrefix.size())
                              .str());
    } while (Cursor != "0");
    return Digests;
  }

private:
  llvm::Error connect() {
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
      if (llvm::Expected<Reply> R = send(Auth); !R) {
        drop();
        return llvm::handleErrors(R.takeError(), [](const RemoteError &E) {
          return remoteError(E.Kind, "authentication failed: " + E.Message);
        });
      }
    }
    if (Spec.Database)
      if (llvm::Expected<Reply> R = send({"SELECT", std::to_string(Spec.Database)}); !R) {
        drop();
        return R.takeError();
      }
    return llvm::Error::success();
  }

  void drop() {
    if (Context)
      redisFree(Context);
    Context = nullptr;
  }

  llvm::Expected<Reply> command(std::vector<llvm::StringRef> Args) {
    if (llvm::Error E = connect())
      return E;
    return send(Args);
  }

  llvm::Expected<Reply> send(const std::vector<llvm::StringRef> &Args) {
    std::vector<const char *> Argv;
    std::vector<size_t> Lengths;
    for (llvm::StringRef A : Args) {
      Argv.push_back(A.data());
      Lengths.push_back(A.size());
    }
    Reply R(static_cast<redisReply *>(
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
    return R;
  }

  RemoteSpec Spec;
  redisContext *Context = nullptr;
};

} // namespace

llvm::Expected<std::unique_ptr<RemoteBackend>> makeRedisBackend(const RemoteSpec &Spec) {
  return std::make_unique<RedisBackend>(Spec);
}

} // namespace kopt::memory
