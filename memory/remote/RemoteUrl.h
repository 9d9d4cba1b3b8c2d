// One remote cache as the user writes it (ccache's remote_storage syntax):
//   redis://[user:password@]host[:port][/db]|read-only|connect-timeout=100
//   http://host[:port]/path|operation-timeout=2000
// The password may name an environment variable instead, `${NAME}`, so that it
// never sits in .kopt.yaml or a build script. A spec is shown with the
// password masked, everywhere.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kopt::memory {

struct RemoteSpec {
  enum class Scheme { Redis, Rediss, Http, Https };
  Scheme Kind = Scheme::Redis;
  std::string Host;
  unsigned Port = 0;     // The scheme's default where the URL gives none.
  std::string Path;      // http(s): the base path, without a trailing '/'.
  unsigned Database = 0; // redis: /db.
  std::string User, Password;
  bool ReadOnly = false;
  unsigned ConnectTimeoutMs = 100, OperationTimeoutMs = 1000;

  // The URL with the password replaced by "********" (never the secret).
  std::string display() const;
  // A stable name for this remote's files (back-off, counters): a hash of
  // display(), so two specs of one server share them and no secret is in it.
  std::string id() const;
};

using EnvLookupFn = std::function<std::optional<std::string>(const char *)>;

// One spec; the error names what is wrong and never echoes a password. Noun
// says what the URL is for in errors ("remote cache 'redis://...': no host").
llvm::Expected<RemoteSpec> parseRemoteSpec(llvm::StringRef Text, const EnvLookupFn &GetEnv,
                                           llvm::StringRef Noun = "remote cache");
// The remote_cache option: specs separated by spaces.
llvm::Expected<std::vector<RemoteSpec>> parseRemoteSpecs(llvm::StringRef Text,
                                                         const EnvLookupFn &GetEnv);

} // namespace kopt::memory
