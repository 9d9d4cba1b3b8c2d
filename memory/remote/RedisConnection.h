// One connection to a Redis server (hiredis), shared by the remote cache's
// Redis backend and the work queue (memory/queue/): made on first use with the
// spec's connect timeout, authenticated (AUTH [user] password) and on the
// spec's database, every command ending by the operation timeout (connecting
// included), and a reply refused once it passes MaxRemoteReplyBytes. An I/O error or a
// timeout drops the connection (the next command connects again) and is a
// RemoteFailure::Unreachable; an error reply is RemoteFailure::Failed.
// Replies are copied out of hiredis, so no hiredis header reaches the callers.
#pragma once

#include "memory/remote/RemoteUrl.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <chrono>
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
  using Clock = std::chrono::steady_clock;
  llvm::Error connect(Clock::time_point Deadline);
  void drop();
  llvm::Expected<RedisReply> commandBy(llvm::ArrayRef<llvm::StringRef> Args,
                                       Clock::time_point Deadline);
  // One command and its reply, by the deadline.
  llvm::Expected<RedisReply> send(llvm::ArrayRef<llvm::StringRef> Args, Clock::time_point Deadline);
  // The socket's timeout for the next read or write: what is left of the
  // operation. False when nothing is left.
  bool armTimeout(Clock::time_point Deadline);
  // A failed read or write: the connection is dropped, and the failure (an I/O
  // error, the deadline) makes the remote unreachable.
  llvm::Error lost(llvm::StringRef Command, Clock::time_point Deadline);

  RemoteSpec Spec;
  redisContext *Context = nullptr;
};

} // namespace kopt::memory
