// One connection to a Redis server (hiredis), shared by the remote cache's
// Redis backend and the work queue (memory/queue/): made on first use with the
// spec's connect timeout, authenticated (AUTH [user] password) and on the
// spec's database, every command with the operation timeout. An I/O error or a
// timeout drops the connection (the next command connects again) and is a
// RemoteFailure::Unreachable; an error reply is RemoteFailure::Failed.
// Replies are copied out of hiredis, so no hiredis header reaches the callers.
#pragma once

#include "memory/remote/RemoteUrl.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

struct redisContext;

namespace kopt::memory {

struct RedisReply {
  enum class Type { Nil, Integer, String, Status, Array };
  Type Kind = Type::Nil;
  long long Integer = 0;
  std::string Text;                 // String and Status.
  std::vector<RedisReply> Elements; // Array.

  bool isNil() const { return Kind == Type::Nil; }
  bool isArray() const { return Kind == Type::Array; }
  bool isText() const { return Kind == Type::String || Kind == Type::Status; }
};

class RedisConnection {
public:
  explicit RedisConnection(RemoteSpec Spec);
  ~RedisConnection();
  RedisConnection(const RedisConnection &) = delete;
  RedisConnection &operator=(const RedisConnection &) = delete;

  llvm::Expected<RedisReply> command(llvm::ArrayRef<llvm::StringRef> Args);
  // For a command that waits on the server (XREADGROUP ... BLOCK ms): the
  // operation timeout plus the time it may wait.
  llvm::Expected<RedisReply> blockingCommand(llvm::ArrayRef<llvm::StringRef> Args, unsigned WaitMs);

  const RemoteSpec &spec() const { return Spec; }

private:
  llvm::Error connect();
  void drop();
  llvm::Expected<RedisReply> send(llvm::ArrayRef<llvm::StringRef> Args);

  RemoteSpec Spec;
  redisContext *Context = nullptr;
};

} // namespace kopt::memory
