#include "memory/remote/RemoteUrl.h"

#include "memory/cache/CacheKey.h"
#include "support/Spelling.h"
#include "support/UrlPassword.h"

#include <llvm/ADT/StringExtras.h>

namespace kopt::memory {

namespace {

constexpr llvm::StringRef Attributes[] = {"read-only", "connect-timeout", "operation-timeout"};
constexpr llvm::StringLiteral OnlyPassword =
    "${NAME} is read from the environment only as the password (redis://user:${NAME}@host)";

// Shown: what is wrong and where, "remote cache 'redis://host'".
llvm::Error bad(llvm::StringRef Shown, const llvm::Twine &Why) {
  return llvm::createStringError("%s: %s", Shown.str().c_str(), Why.str().c_str());
}

// "%40" -> "@": user names and passwords may hold reserved characters.
std::optional<std::string> percentDecode(llvm::StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] != '%') {
      Out += Text[I];
      continue;
    }
    unsigned Byte = 0;
    if (I + 2 >= Text.size() || Text.substr(I + 1, 2).getAsInteger(16, Byte))
      return std::nullopt;
    Out += static_cast<char>(Byte);
    I += 2;
  }
  return Out;
}

llvm::Error parseAttribute(RemoteSpec &Spec, llvm::StringRef Shown, llvm::StringRef Attribute) {
  auto [Name, Value] = Attribute.split('=');
  if (Name.empty())
    return bad(Shown, "an empty attribute after '|'");
  if (Name == "read-only") {
    if (!Value.empty())
      return bad(Shown, "read-only takes no value");
    Spec.ReadOnly = true;
    return llvm::Error::success();
  }
  if (Name == "connect-timeout" || Name == "operation-timeout") {
    unsigned Ms = 0;
    if (Value.getAsInteger(10, Ms) || Ms == 0 || Ms > 600000)
      return bad(Shown, Name + " takes milliseconds from 1 to 600000, not '" + Value + "'");
    (Name == "connect-timeout" ? Spec.ConnectTimeoutMs : Spec.OperationTimeoutMs) = Ms;
    return llvm::Error::success();
  }
  std::string Hint = didYouMean(closestSpelling(Name, Attributes, 3));
  return bad(Shown, "unknown attribute '" + Name + "' (known: " +
                        llvm::join(std::begin(Attributes), std::end(Attributes), ", ") + ")" +
                        Hint);
}

} // namespace

std::string RemoteSpec::display() const {
  std::string Name = Kind == Scheme::Redis    ? "redis"
                     : Kind == Scheme::Rediss ? "rediss"
                     : Kind == Scheme::Http   ? "http"
                                              : "https";
  std::string Text = Name + "://";
  if (!User.empty() || !Password.empty())
    Text += User + (Password.empty() ? "" : ":********") + "@";
  Text += Host.find(':') != std::string::npos ? "[" + Host + "]" : Host;
  Text += ':';
  Text += std::to_string(Port);
  if (Kind == Scheme::Redis || Kind == Scheme::Rediss) {
    Text += '/';
    Text += std::to_string(Database);
  } else
    Text += Path;
  if (ReadOnly)
    Text += "|read-only";
  return Text;
}

std::string RemoteSpec::id() const {
  RemoteSpec Shared = *this;
  Shared.ReadOnly = false; // A read-only view of a server is the same server.
  return digestOf(Shared.display()).substr(0, 16);
}

llvm::Expected<RemoteSpec> parseRemoteSpec(llvm::StringRef Text, const EnvLookupFn &GetEnv,
                                           llvm::StringRef Noun) {
  llvm::SmallVector<llvm::StringRef> Parts;
  Text.split(Parts, '|');
  llvm::StringRef Url = Parts.front();
  std::string Shown = (Noun + " '" + maskUrlPasswords(Url) + "'").str();
  RemoteSpec Spec;

  auto [SchemeName, Rest] = Url.split("://");
  if (Rest.empty() && !Url.contains("://"))
    return bad(Shown, "expected a URL such as redis://host:6379 or http://host/path");
  if (SchemeName == "redis")
    Spec.Kind = RemoteSpec::Scheme::Redis, Spec.Port = 6379;
  else if (SchemeName == "rediss")
    Spec.Kind = RemoteSpec::Scheme::Rediss, Spec.Port = 6379;
  else if (SchemeName == "http")
    Spec.Kind = RemoteSpec::Scheme::Http, Spec.Port = 80;
  else if (SchemeName == "https")
    Spec.Kind = RemoteSpec::Scheme::Https, Spec.Port = 443;
  else
    return bad(Shown, "unknown scheme '" + SchemeName + "' (known: redis, rediss, http, https)");

  // user:password@ (the last '@' before the path: a password may hold '@').
  size_t PathStart = Rest.find('/');
  llvm::StringRef Authority = Rest.take_front(PathStart);
  llvm::StringRef PathPart =
      PathStart == llvm::StringRef::npos ? llvm::StringRef() : Rest.drop_front(PathStart);
  if (size_t At = Authority.rfind('@'); At != llvm::StringRef::npos) {
    auto [User, Password] = Authority.take_front(At).split(':');
    if (User.contains("${"))
      return bad(Shown, OnlyPassword);
    std::optional<std::string> DecodedUser = percentDecode(User);
    if (!DecodedUser)
      return bad(Shown, "malformed %-escape in the user name");
    Spec.User = *DecodedUser;
    if (Password.contains("${")) {
      if (!Password.starts_with("${") || !Password.ends_with("}") || Password.size() < 4)
        return bad(Shown, "the password must be all of ${NAME} or none of it");
      std::string Name = Password.drop_front(2).drop_back().str();
      std::optional<std::string> Value = GetEnv(Name.c_str());
      if (!Value || Value->empty())
        return bad(Shown,
                   "the environment variable " + Name + " that holds its password is not set");
      Spec.Password = *Value;
    } else {
      std::optional<std::string> Decoded = percentDecode(Password);
      if (!Decoded)
        return bad(Shown, "malformed %-escape in the password");
      Spec.Password = *Decoded;
    }
    Authority = Authority.drop_front(At + 1);
  }

  // ${NAME} stands only for a password: anywhere else it would be sent as written.
  if (Authority.contains("${") || PathPart.contains("${"))
    return bad(Shown, OnlyPassword);

  // host, [v6 host], :port
  llvm::StringRef PortText;
  if (Authority.starts_with("[")) {
    size_t Close = Authority.find(']');
    if (Close == llvm::StringRef::npos)
      return bad(Shown, "unclosed '[' in the host");
    Spec.Host = Authority.slice(1, Close).str();
    llvm::StringRef After = Authority.drop_front(Close + 1);
    if (!After.empty() && !After.consume_front(":"))
      return bad(Shown, "expected ':port' after the host");
    PortText = After;
  } else {
    auto [Host, Port] = Authority.split(':');
    Spec.Host = Host.str();
    PortText = Port;
  }
  if (Spec.Host.empty())
    return bad(Shown, "no host");
  if (!PortText.empty() &&
      (PortText.getAsInteger(10, Spec.Port) || Spec.Port == 0 || Spec.Port > 65535))
    return bad(Shown, "invalid port '" + PortText + "'");

  if (Spec.Kind == RemoteSpec::Scheme::Redis || Spec.Kind == RemoteSpec::Scheme::Rediss) {
    llvm::StringRef Db = PathPart;
    Db.consume_front("/");
    if (!Db.empty() && Db.getAsInteger(10, Spec.Database))
      return bad(Shown, "the database after '/' must be a number, not '" + Db + "'");
  } else {
    Spec.Path = PathPart.rtrim('/').str();
  }

  for (llvm::StringRef Attribute : llvm::ArrayRef(Parts).drop_front())
    if (llvm::Error E = parseAttribute(Spec, Shown, Attribute.trim()))
      return E;
  return Spec;
}

llvm::Expected<std::vector<RemoteSpec>> parseRemoteSpecs(llvm::StringRef Text,
                                                         const EnvLookupFn &GetEnv) {
  std::vector<RemoteSpec> Specs;
  llvm::SmallVector<llvm::StringRef> Words;
  Text.split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Word : Words) {
    llvm::Expected<RemoteSpec> Spec = parseRemoteSpec(Word.trim(), GetEnv);
    if (!Spec)
      return Spec.takeError();
    Specs.push_back(std::move(*Spec));
  }
  return Specs;
}

} // namespace kopt::memory
