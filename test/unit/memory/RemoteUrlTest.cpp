// The remote_cache URL syntax: what it accepts, what it rejects (naming the
// problem, never echoing a password), and how a remote is shown.
#include "memory/remote/RemoteUrl.h"
#include "support/UrlPassword.h"

#include <gtest/gtest.h>

#include <map>

using namespace kopt;
using namespace kopt::memory;

namespace {

EnvLookupFn envOf(std::map<std::string, std::string> Vars) {
  return [Vars](const char *Name) -> std::optional<std::string> {
    auto It = Vars.find(Name);
    if (It == Vars.end())
      return std::nullopt;
    return It->second;
  };
}

RemoteSpec parse(llvm::StringRef Text, std::map<std::string, std::string> Env = {}) {
  llvm::Expected<RemoteSpec> Spec = parseRemoteSpec(Text, envOf(std::move(Env)));
  EXPECT_TRUE(bool(Spec)) << (Spec ? "" : llvm::toString(Spec.takeError()));
  return Spec ? *Spec : RemoteSpec();
}

std::string error(llvm::StringRef Text, std::map<std::string, std::string> Env = {}) {
  llvm::Expected<RemoteSpec> Spec = parseRemoteSpec(Text, envOf(std::move(Env)));
  if (Spec)
    return "(accepted)";
  return llvm::toString(Spec.takeError());
}

TEST(RemoteUrl, RedisDefaultsAndParts) {
  RemoteSpec S = parse("redis://cache.example");
  EXPECT_EQ(S.Kind, RemoteSpec::Scheme::Redis);
  EXPECT_EQ(S.Host, "cache.example");
  EXPECT_EQ(S.Port, 6379u);
  EXPECT_EQ(S.Database, 0u);
  EXPECT_FALSE(S.ReadOnly);
  EXPECT_EQ(S.ConnectTimeoutMs, 100u);
  EXPECT_EQ(S.OperationTimeoutMs, 1000u);

  S = parse("redis://alice:s3cret@10.0.0.2:7000/3|read-only|connect-timeout=50|"
            "operation-timeout=2000");
  EXPECT_EQ(S.User, "alice");
  EXPECT_EQ(S.Password, "s3cret");
  EXPECT_EQ(S.Port, 7000u);
  EXPECT_EQ(S.Database, 3u);
  EXPECT_TRUE(S.ReadOnly);
  EXPECT_EQ(S.ConnectTimeoutMs, 50u);
  EXPECT_EQ(S.OperationTimeoutMs, 2000u);
  EXPECT_EQ(S.display(), "redis://alice:********@10.0.0.2:7000/3|read-only");
}

TEST(RemoteUrl, HttpPathsAndIpv6) {
  RemoteSpec S = parse("http://[::1]:8080/kopt/cache/");
  EXPECT_EQ(S.Kind, RemoteSpec::Scheme::Http);
  EXPECT_EQ(S.Host, "::1");
  EXPECT_EQ(S.Port, 8080u);
  EXPECT_EQ(S.Path, "/kopt/cache");
  EXPECT_EQ(S.display(), "http://[::1]:8080/kopt/cache");
  EXPECT_EQ(parse("https://cache.example/x").Port, 443u);
}

TEST(RemoteUrl, PasswordFromTheEnvironmentAndEscapes) {
  RemoteSpec S = parse("redis://:${KOPT_TEST_PW}@h", {{"KOPT_TEST_PW", "p@ss:word"}});
  EXPECT_EQ(S.Password, "p@ss:word");
  EXPECT_EQ(S.display(), "redis://:********@h:6379/0");
  // A password holding '@' written literally, and a %-escaped one.
  EXPECT_EQ(parse("redis://u:a@b@h").Password, "a@b");
  EXPECT_EQ(parse("redis://u:a%2Fb@h").Password, "a/b");
  EXPECT_EQ(error("redis://:${KOPT_UNSET_PW}@h"),
            "remote cache 'redis://:********@h': the environment variable KOPT_UNSET_PW that "
            "holds its password is not set");
}

TEST(RemoteUrl, ErrorsNameTheProblemAndHideThePassword) {
  EXPECT_EQ(error("redis://u:topsecret@h|read-onyl"),
            "remote cache 'redis://u:********@h': unknown attribute 'read-onyl' (known: "
            "read-only, connect-timeout, operation-timeout); did you mean 'read-only'?");
  EXPECT_EQ(error("ftp://h"),
            "remote cache 'ftp://h': unknown scheme 'ftp' (known: redis, rediss, http, https)");
  EXPECT_EQ(error("redis://h:99999"), "remote cache 'redis://h:99999': invalid port '99999'");
  EXPECT_EQ(error("redis://h/x"),
            "remote cache 'redis://h/x': the database after '/' must be a number, not 'x'");
  EXPECT_EQ(error("http://h|connect-timeout=0"),
            "remote cache 'http://h': connect-timeout takes milliseconds from 1 to 600000, not "
            "'0'");
  EXPECT_EQ(error("cache.example:6379"),
            "remote cache 'cache.example:6379': expected a URL such as redis://host:6379 or "
            "http://host/path");
  EXPECT_EQ(error("redis://u:pw@"), "remote cache 'redis://u:********@': no host");
}

// The spellings that once turned the whole result cache off without a word
// (issue 32): each is refused here, where the option is read, with its reason.
TEST(RemoteUrl, MalformedSpellingsAreRefused) {
  EXPECT_EQ(error("redis//host"), "remote cache 'redis//host': expected a URL such as "
                                  "redis://host:6379 or http://host/path");
  EXPECT_EQ(error("http://"), "remote cache 'http://': no host");
  EXPECT_EQ(error("ftp://"),
            "remote cache 'ftp://': unknown scheme 'ftp' (known: redis, rediss, http, https)");
  EXPECT_EQ(error("redis://h:0"), "remote cache 'redis://h:0': invalid port '0'");
  EXPECT_EQ(error("http://h:80:90/p"), "remote cache 'http://h:80:90/p': invalid port '80:90'");
  EXPECT_EQ(error("redis://h|"), "remote cache 'redis://h': an empty attribute after '|'");
  EXPECT_EQ(error("redis://h|read-only=yes"), "remote cache 'redis://h': read-only takes no value");
}

TEST(RemoteUrl, EnvironmentNamesOnlyForWholePasswords) {
  const char *OnlyPassword = "${NAME} is read from the environment only as the password "
                             "(redis://user:${NAME}@host)";
  EXPECT_EQ(error("redis://${KOPT_TEST_HOST}:6379", {{"KOPT_TEST_HOST", "h"}}),
            std::string("remote cache 'redis://${KOPT_TEST_HOST}:6379': ") + OnlyPassword);
  EXPECT_EQ(error("http://h/${KOPT_TEST_DIR}"),
            std::string("remote cache 'http://h/${KOPT_TEST_DIR}': ") + OnlyPassword);
  EXPECT_EQ(error("redis://${KOPT_TEST_USER}:pw@h"),
            std::string("remote cache 'redis://${KOPT_TEST_USER}:********@h': ") + OnlyPassword);
  // Half a ${NAME} would be sent as the password itself.
  for (const char *Url :
       {"redis://:${KOPT_TEST_PW@h", "redis://:x${KOPT_TEST_PW}@h", "redis://:${}@h"})
    EXPECT_NE(error(Url, {{"KOPT_TEST_PW", "pw"}}).find("the password must be all of ${NAME}"),
              std::string::npos)
        << Url;
  EXPECT_EQ(parse("redis://:%24{x}@h").Password, "${x}"); // Escaped: a literal password.
}

TEST(RemoteUrl, SeveralSpecsAndIds) {
  llvm::Expected<std::vector<RemoteSpec>> Specs =
      parseRemoteSpecs("redis://a  http://b/c|read-only ", envOf({}));
  ASSERT_TRUE(bool(Specs));
  ASSERT_EQ(Specs->size(), 2u);
  EXPECT_TRUE((*Specs)[1].ReadOnly);
  // One server read only or not is one server: its counters and back-off are shared.
  EXPECT_EQ(parse("http://b/c|read-only").id(), parse("http://b/c").id());
  EXPECT_NE(parse("http://b/c").id(), parse("http://b/d").id());
  EXPECT_TRUE(parseRemoteSpecs("", envOf({}))->empty());
}

TEST(UrlPassword, MasksEveryUrlOfAList) {
  EXPECT_EQ(maskUrlPasswords("redis://u:pw@h:1/0 http://x:y@h/p|read-only https://h/q"),
            "redis://u:********@h:1/0 http://x:********@h/p|read-only https://h/q");
  EXPECT_EQ(maskUrlPasswords("redis://user@h"), "redis://user@h");
  EXPECT_EQ(maskUrlPasswords("redis://u:p@ss@h/0"), "redis://u:********@h/0");
}

} // namespace
