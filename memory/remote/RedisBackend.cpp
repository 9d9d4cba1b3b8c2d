// The Redis backend (hiredis): an entry is the string at "kopt:entry:<digest>".
// One connection a process, made on first use with the connect timeout. kopt
// drives hiredis's reader itself rather than redisCommand(), so that an
// operation ends at its deadline (hiredis's socket timeout only bounds each
// read) and a reply is refused once it grows past MaxRemoteReplyBytes
// (hiredis would read a bulk string of any size whole).
#include "memory/remote/RemoteBackend.h"

#include <hiredis/hiredis.h>

#include <sys/time.h>

#include <algorithm>
#include <chrono>

namespace kopt::memory {

namespace {

constexpr llvm::StringRef KeyPrefix = "kopt:entry:";

#define KOPT_STRINGIFY2(X) #X
#define KOPT_STRINGIFY(X) KOPT_STRINGIFY2(X)
#define HIREDIS_VERSION_TEXT KOPT_STRINGIFY(HIREDIS_MAJOR) "." KOPT_STRINGIFY(HIREDIS_MINOR)

using Clock = std::chrono::steady_clock;

timeval toTimeval(std::chrono::microseconds Us) {
  return {static_cast<time_t>(Us.count() / 1000000),
          static_cast<suseconds_t>(Us.count() % 1000000)};
}

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
    llvm::Expected<Reply> R = command({"GET", Key}, deadline());
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
    llvm::Expected<Reply> R = command({"SET", Key, Bytes}, deadline());
    return R ? llvm::Error::success() : R.takeError();
  }

  llvm::Expected<bool> exists(llvm::StringRef Digest) override {
    std::string Key = (KeyPrefix + Digest).str();
    llvm::Expected<Reply> R = command({"EXISTS", Key}, deadline());
    if (!R)
      return R.takeError();
    return (*R)->type == REDIS_REPLY_INTEGER && (*R)->integer > 0;
  }

  llvm::Expected<std::vector<std::string>> list() override {
    std::vector<std::string> Digests;
    std::string Cursor = "0";
    do {
      llvm::Expected<Reply> R =
          command({"SCAN", Cursor, "MATCH", (KeyPrefix + "*").str(), "COUNT", "1000"}, deadline());
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
  Clock::time_point deadline() const {
    return Clock::now() + std::chrono::milliseconds(Spec.OperationTimeoutMs);
  }

  llvm::Error connect(Clock::time_point Deadline) {
    if (Context)
      return llvm::Error::success();
    if (Spec.Kind == RemoteSpec::Scheme::Rediss)
      return remoteError(RemoteFailure::Failed,
                         "rediss:// needs hiredis 1.0 or newer with TLS; this kopt is built "
                         "with hiredis " HIREDIS_VERSION_TEXT);
    auto Left = std::chrono::duration_cast<std::chrono::microseconds>(Deadline - Clock::now());
    auto Connect =
        std::min<std::chrono::microseconds>(std::chrono::milliseconds(Spec.ConnectTimeoutMs), Left);
    Context = redisConnectWithTimeout(Spec.Host.c_str(), static_cast<int>(Spec.Port),
                                      toTimeval(std::max(Connect, std::chrono::microseconds(1))));
    if (!Context || Context->err) {
      std::string Why = Context ? Context->errstr : "out of memory";
      drop();
      return remoteError(RemoteFailure::Unreachable, "cannot connect: " + Why);
    }
    if (!Spec.Password.empty()) {
      std::vector<llvm::StringRef> Auth = {"AUTH"};
      if (!Spec.User.empty())
        Auth.push_back(Spec.User);
      Auth.push_back(Spec.Password);
      // The reply may echo nothing secret, but the command is never quoted.
      if (llvm::Expected<Reply> R = send(Auth, Deadline); !R) {
        drop();
        return llvm::handleErrors(R.takeError(), [](const RemoteError &E) {
          return remoteError(E.Kind, "authentication failed: " + E.Message);
        });
      }
    }
    if (Spec.Database)
      if (llvm::Expected<Reply> R = send({"SELECT", std::to_string(Spec.Database)}, Deadline); !R) {
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

  llvm::Expected<Reply> command(std::vector<llvm::StringRef> Args, Clock::time_point Deadline) {
    if (llvm::Error E = connect(Deadline))
      return E;
    return send(Args, Deadline);
  }

  // The socket's timeout for the next read or write: what is left of the
  // operation. False when nothing is left.
  bool armTimeout(Clock::time_point Deadline) {
    auto Left = std::chrono::duration_cast<std::chrono::microseconds>(Deadline - Clock::now());
    return Left.count() > 0 && redisSetTimeout(Context, toTimeval(Left)) == REDIS_OK;
  }

  // The connection cannot be used after a failed read or write: dropped, and
  // the failure (an I/O error, the deadline) makes the remote unreachable.
  llvm::Error lost(llvm::StringRef Command, Clock::time_point Deadline) {
    std::string Why = Clock::now() >= Deadline
                          ? "no reply within the operation timeout (" +
                                std::to_string(Spec.OperationTimeoutMs) + " ms)"
                          : std::string(Context->errstr);
    drop();
    return remoteError(RemoteFailure::Unreachable, Command + ": " + Why);
  }

  // One command and its reply, by the deadline; the reply is refused as soon
  // as more than MaxRemoteReplyBytes of it have arrived.
  llvm::Expected<Reply> send(const std::vector<llvm::StringRef> &Args, Clock::time_point Deadline) {
    std::vector<const char *> Argv;
    std::vector<size_t> Lengths;
    for (llvm::StringRef A : Args) {
      Argv.push_back(A.data());
      Lengths.push_back(A.size());
    }
    if (redisAppendCommandArgv(Context, static_cast<int>(Argv.size()), Argv.data(),
                               Lengths.data()) != REDIS_OK)
      return lost(Args.front(), Deadline);
    for (int Written = 0; !Written;)
      if (!armTimeout(Deadline) || redisBufferWrite(Context, &Written) != REDIS_OK)
        return lost(Args.front(), Deadline);
    void *Raw = nullptr;
    uint64_t Received = 0;
    while (true) {
      if (redisGetReplyFromReader(Context, &Raw) != REDIS_OK)
        return lost(Args.front(), Deadline);
      if (Raw)
        break;
      if (Received > MaxRemoteReplyBytes) {
        drop(); // The rest of the reply is still on its way.
        return replyTooLarge(Args.front());
      }
      size_t Before = Context->reader->len;
      if (!armTimeout(Deadline) || redisBufferRead(Context) != REDIS_OK)
        return lost(Args.front(), Deadline);
      Received += Context->reader->len - Before;
    }
    Reply R(static_cast<redisReply *>(Raw));
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
