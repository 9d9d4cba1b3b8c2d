// The Redis backend: an entry is the string at "kopt:entry:<digest>", over one
// connection a process (RedisConnection.h: deadlines, the reply size cap,
// authentication, database).
#include "memory/remote/RedisConnection.h"
#include "memory/remote/RemoteBackend.h"

namespace kopt::memory {

namespace {

constexpr llvm::StringRef KeyPrefix = "kopt:entry:";

class RedisBackend final : public RemoteBackend {
public:
  explicit RedisBackend(RemoteSpec Spec) : Connection(std::move(Spec)) {}

  llvm::Expected<std::optional<std::string>> get(llvm::StringRef Digest) override {
    std::string Key = (KeyPrefix + Digest).str();
    llvm::Expected<RedisReply> R = Connection.command({"GET", Key});
    if (!R)
      return R.takeError();
    if (R->isNil())
      return std::nullopt;
    if (R->Kind != RedisReply::Type::String)
      return remoteError(RemoteFailure::Failed, "GET: unexpected reply");
    return std::move(R->Text);
  }

  llvm::Error put(llvm::StringRef Digest, llvm::StringRef Bytes) override {
    std::string Key = (KeyPrefix + Digest).str();
    llvm::Expected<RedisReply> R = Connection.command({"SET", Key, Bytes});
    return R ? llvm::Error::success() : R.takeError();
  }

  llvm::Expected<bool> exists(llvm::StringRef Digest) override {
    std::string Key = (KeyPrefix + Digest).str();
    llvm::Expected<RedisReply> R = Connection.command({"EXISTS", Key});
    if (!R)
      return R.takeError();
    return R->Kind == RedisReply::Type::Integer && R->Integer > 0;
  }

  llvm::Expected<std::vector<std::string>> list() override {
    std::vector<std::string> Digests;
    std::string Cursor = "0";
    do {
      llvm::Expected<RedisReply> R =
          Connection.command({"SCAN", Cursor, "MATCH", (KeyPrefix + "*").str(), "COUNT", "1000"});
      if (!R)
        return R.takeError();
      if (!R->isArray() || R->Elements.size() != 2 || !R->Elements[1].isArray())
        return remoteError(RemoteFailure::Failed, "SCAN: unexpected reply");
      Cursor = R->Elements[0].Text;
      for (const RedisReply &Key : R->Elements[1].Elements)
        Digests.push_back(llvm::StringRef(Key.Text).drop_front(KeyPrefix.size()).str());
    } while (Cursor != "0");
    return Digests;
  }

private:
  RedisConnection Connection;
};

} // namespace

llvm::Expected<std::unique_ptr<RemoteBackend>> makeRedisBackend(const RemoteSpec &Spec) {
  return std::make_unique<RedisBackend>(Spec);
}

} // namespace kopt::memory
