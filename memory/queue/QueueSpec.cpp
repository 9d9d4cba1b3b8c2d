#include "memory/queue/QueueSpec.h"

#include "support/UrlPassword.h"

#include <llvm/Support/Regex.h>

namespace kopt::memory {

namespace {
constexpr llvm::StringRef DefaultName = "kopt";

llvm::Error bad(llvm::StringRef Url, const llvm::Twine &Why) {
  return llvm::createStringError("queue '%s': %s", maskUrlPasswords(Url).c_str(),
                                 Why.str().c_str());
}
} // namespace

std::string QueueSpec::display() const {
  std::string Shown = Server.display(); // ".../0": the database, always 0 here.
  Shown.resize(Shown.rfind('/') + 1);
  Shown += Name;
  return Shown;
}

llvm::Expected<QueueSpec> parseQueueSpec(llvm::StringRef Text, const EnvLookupFn &GetEnv) {
  Text = Text.trim();
  auto [Url, Attributes] = Text.split('|');
  if (!Url.starts_with("redis://") && !Url.starts_with("rediss://"))
    return bad(Url, "expected redis://host[:port]/NAME");
  // The name sits where a remote cache's URL has its database.
  size_t Authority = Url.find("://") + 3;
  size_t Slash = Url.find('/', Authority);
  QueueSpec Spec;
  Spec.Name = Slash == llvm::StringRef::npos ? DefaultName.str() : Url.substr(Slash + 1).str();
  if (Spec.Name.empty())
    Spec.Name = DefaultName.str();
  if (!llvm::Regex("^[A-Za-z0-9_.-]{1,64}$").match(Spec.Name))
    return bad(Url, "the queue's name '" + Spec.Name +
                        "' must be 1 to 64 letters, digits, '_', '.' or '-'");
  std::string ServerText = Url.take_front(Slash).str();
  if (!Attributes.empty()) {
    ServerText += '|';
    ServerText += Attributes;
  }
  llvm::Expected<RemoteSpec> Server = parseRemoteSpec(ServerText, GetEnv, "queue");
  if (!Server)
    return Server.takeError();
  if (Server->ReadOnly)
    return bad(Url, "a queue cannot be read-only");
  Spec.Server = std::move(*Server);
  return Spec;
}

} // namespace kopt::memory
