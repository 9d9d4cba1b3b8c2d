// The remote tier of the result cache (memory/remote/ implements it): shared
// storage that ResultCache asks after the project and user caches miss, and
// that a store also writes to. Behind this interface so that kcc, which never
// talks to a remote, links neither hiredis nor libcurl.
#pragma once

#include "memory/CacheEntry.h"
#include "memory/CacheKey.h"

#include <optional>
#include <string>

namespace kopt::memory {

class RemoteTier {
public:
  virtual ~RemoteTier() = default;
  // The first remote's entry for Key that passes every check a local entry
  // passes (format, checksum, the key it holds), with its bytes as fetched.
  // Unreachable remotes, corrupt and mismatched entries are misses; what went
  // wrong is appended to Warning (one line per remote at most).
  struct Fetched {
    StoredEntry Stored;
    std::string Bytes;
  };
  virtual std::optional<Fetched> fetch(const CacheKey &Key, std::string &Warning) = 0;
  // Writes Bytes under Key to every remote that is not read only.
  virtual void publish(const CacheKey &Key, const std::string &Bytes, std::string &Warning) = 0;
};

} // namespace kopt::memory
