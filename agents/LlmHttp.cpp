#include "agents/LlmHttp.h"

#include <curl/curl.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>

#include <memory>
#include <mutex>

namespace kopt::agents {

namespace {
void initCurlOnce() {
  static std::once_flag Once;
  std::call_once(Once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t appendBody(char *Data, size_t Size, size_t Count, void *Out) {
  static_cast<std::string *>(Out)->append(Data, Size * Count);
  return Size * Count;
}

size_t readHeader(char *Data, size_t Size, size_t Count, void *Out) {
  llvm::StringRef Line(Data, Size * Count);
  auto [Name, Value] = Line.split(':');
  if (Name.trim().equals_insensitive("retry-after")) {
    double Seconds = 0;
    // An HTTP date instead of seconds is left to the caller's own backoff.
    if (!Value.trim().getAsDouble(Seconds) && Seconds >= 0)
      *static_cast<std::optional<double> *>(Out) = Seconds;
  }
  return Size * Count;
}

struct CurlDeleter {
  void operator()(CURL *C) const { curl_easy_cleanup(C); }
};
struct SlistDeleter {
  void operator()(curl_slist *L) const { curl_slist_free_all(L); }
};
} // namespace

llvm::Expected<HttpResponse> httpPost(const HttpRequest &Request) {
  initCurlOnce();
  std::unique_ptr<CURL, CurlDeleter> Curl(curl_easy_init());
  if (!Curl)
    return llvm::createStringError("libcurl could not start a request");

  std::unique_ptr<curl_slist, SlistDeleter> Headers;
  for (const std::string &H : Request.Headers) {
    curl_slist *Next = curl_slist_append(Headers.get(), H.c_str());
    if (!Next)
      return llvm::createStringError("libcurl could not add a header");
    (void)Headers.release();
    Headers.reset(Next);
  }

  HttpResponse Response;
  char ErrorText[CURL_ERROR_SIZE] = {0};
  CURL *C = Curl.get();
  curl_easy_setopt(C, CURLOPT_URL, Request.Url.c_str());
  curl_easy_setopt(C, CURLOPT_POST, 1L);
  curl_easy_setopt(C, CURLOPT_POSTFIELDS, Request.Body.data());
  curl_easy_setopt(C, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(Request.Body.size()));
  curl_easy_setopt(C, CURLOPT_HTTPHEADER, Headers.get());
  curl_easy_setopt(C, CURLOPT_TIMEOUT_MS, long(Request.TimeoutSeconds * 1000));
  curl_easy_setopt(C, CURLOPT_CONNECTTIMEOUT_MS,
                   long(std::min(Request.TimeoutSeconds, 30.0) * 1000));
  curl_easy_setopt(C, CURLOPT_NOSIGNAL, 1L); // Timeouts without SIGALRM, safe in threads.
  curl_easy_setopt(C, CURLOPT_WRITEFUNCTION, appendBody);
  curl_easy_setopt(C, CURLOPT_WRITEDATA, &Response.Body);
  curl_easy_setopt(C, CURLOPT_HEADERFUNCTION, readHeader);
  curl_easy_setopt(C, CURLOPT_HEADERDATA, &Response.RetryAfterSeconds);
  curl_easy_setopt(C, CURLOPT_ERRORBUFFER, ErrorText);

  CURLcode Code = curl_easy_perform(C);
  if (Code != CURLE_OK) {
    std::string Why = ErrorText[0] ? ErrorText : curl_easy_strerror(Code);
    return llvm::createStringError("request to %s failed: %s", Request.Url.c_str(), Why.c_str());
  }
  curl_easy_getinfo(C, CURLINFO_RESPONSE_CODE, &Response.Status);
  return Response;
}

} // namespace kopt::agents
