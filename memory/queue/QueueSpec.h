// Where a work queue lives: a Redis server and a queue name,
//   redis://[user:password@]host[:port]/NAME[|connect-timeout=MS|operation-timeout=MS]
// (the remote cache's URL syntax, RemoteUrl.h, with the queue's name where a
// remote cache has its database; NAME defaults to "kopt"). Shown with the
// password masked, everywhere.
#pragma once

#include "memory/remote/RemoteUrl.h"

#include <string>

namespace kopt::memory {

struct QueueSpec {
  RemoteSpec Server; // Database 0.
  std::string Name;

  // "redis://user:********@host:6379/NAME".
  std::string display() const;
  // The server as a remote cache (database 0): where workers publish and
  // builds look up results when no remote_cache is configured.
  RemoteSpec cacheServer() const { return Server; }
};

// The error names what is wrong and never echoes a password.
llvm::Expected<QueueSpec> parseQueueSpec(llvm::StringRef Text, const EnvLookupFn &GetEnv);

} // namespace kopt::memory
