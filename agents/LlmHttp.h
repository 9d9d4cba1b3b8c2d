// One HTTP POST through libcurl, for the llm engine's clients. Knows nothing of
// any API: the caller builds headers and body and reads the status.
#pragma once

#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt::agents {

struct HttpRequest {
  std::string Url;
  std::vector<std::string> Headers; // "Name: value"
  std::string Body;
  double TimeoutSeconds = 120;
};

struct HttpResponse {
  long Status = 0;
  std::string Body;
  std::optional<double> RetryAfterSeconds; // The Retry-After header, when in seconds.
};

// An error only when no HTTP response came (refused, timed out, TLS); any
// status, 4xx and 5xx included, is a response. Errors never quote the headers.
llvm::Expected<HttpResponse> httpPost(const HttpRequest &Request);

} // namespace kopt::agents
