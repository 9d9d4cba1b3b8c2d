// The HTTP backend (libcurl), as ccache's: an entry is the file
// <base URL>/<digest>, read with GET, written with PUT, looked for with HEAD.
// Works with a WebDAV location (nginx `dav_methods PUT`). https verifies the
// server's certificate (libcurl's default, never turned off here).
#include "memory/remote/RemoteBackend.h"

#include <curl/curl.h>

#include <algorithm>
#include <mutex>

namespace kopt::memory {

namespace {

struct Response {
  long Status = 0;
  std::string Body;
  bool TooLarge = false; // The body outgrew MaxRemoteReplyBytes: the transfer was aborted.
};

// Returning less than it was given aborts the transfer (CURLE_WRITE_ERROR).
size_t appendBody(char *Data, size_t Size, size_t Count, void *Out) {
  Response &R = *static_cast<Response *>(Out);
  size_t N = Size * Count;
  if (R.Body.size() + N > MaxRemoteReplyBytes) {
    R.TooLarge = true;
    return 0;
  }
  R.Body.append(Data, N);
  return N;
}

struct Upload {
  llvm::StringRef Bytes;
  size_t Offset = 0;
};

size_t readUpload(char *Buffer, size_t Size, size_t Count, void *In) {
  Upload &U = *static_cast<Upload *>(In);
  size_t N = std::min(Size * Count, U.Bytes.size() - U.Offset);
  std::memcpy(Buffer, U.Bytes.data() + U.Offset, N);
  U.Offset += N;
  return N;
}

bool unreachable(CURLcode Code) {
  switch (Code) {
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_RESOLVE_PROXY:
  case CURLE_COULDNT_CONNECT:
  case CURLE_OPERATION_TIMEDOUT:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR:
  case CURLE_GOT_NOTHING:
    return true;
  default:
    return false;
  }
}

class HttpBackend final : public RemoteBackend {
public:
  explicit HttpBackend(RemoteSpec S) : Spec(std::move(S)) {
    static std::once_flag Once;
    std::call_once(Once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    Curl = curl_easy_init();
  }
  ~HttpBackend() override {
    if (Curl)
      curl_easy_cleanup(Curl);
  }

  llvm::Expected<std::optional<std::string>> get(llvm::StringRef Digest) override {
    llvm::Expected<Response> R = request("GET", Digest, nullptr);
    if (!R)
      return R.takeError();
    if (R->Status == 404)
      return std::nullopt;
    if (R->Status != 200)
      return failed("GET", R->Status);
    return std::move(R->Body);
  }

  llvm::Error put(llvm::StringRef Digest, llvm::StringRef Bytes) override {
    Upload U{Bytes};
    llvm::Expected<Response> R = request("PUT", Digest, &U);
    if (!R)
      return R.takeError();
    if (R->Status != 200 && R->Status != 201 && R->Status != 204)
      return failed("PUT", R->Status);
    return llvm::Error::success();
  }

  llvm::Expected<bool> exists(llvm::StringRef Digest) override {
    llvm::Expected<Response> R = request("HEAD", Digest, nullptr);
    if (!R)
      return R.takeError();
    if (R->Status == 404)
      return false;
    if (R->Status != 200)
      return failed("HEAD", R->Status);
    return true;
  }

  llvm::Expected<std::vector<std::string>> list() override {
    return remoteError(RemoteFailure::Failed,
                       "an HTTP remote cannot list its entries (only a Redis remote can)");
  }

private:
  llvm::Error failed(llvm::StringRef Method, long Status) {
    return remoteError(RemoteFailure::Failed, Method + ": HTTP status " + llvm::Twine(Status));
  }

  std::string url(llvm::StringRef Digest) const {
    std::string Scheme = Spec.Kind == RemoteSpec::Scheme::Https ? "https" : "http";
    std::string Host = Spec.Host.find(':') != std::string::npos ? "[" + Spec.Host + "]" : Spec.Host;
    return Scheme + "://" + Host + ":" + std::to_string(Spec.Port) + Spec.Path + "/" + Digest.str();
  }

  llvm::Expected<Response> request(llvm::StringRef Method, llvm::StringRef Digest, Upload *U) {
    if (!Curl)
      return remoteError(RemoteFailure::Failed, "libcurl could not start");
    curl_easy_reset(Curl);
    Response R;
    std::string Url = url(Digest);
    char ErrorText[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(Curl, CURLOPT_URL, Url.c_str());
    curl_easy_setopt(Curl, CURLOPT_ERRORBUFFER, ErrorText);
    curl_easy_setopt(Curl, CURLOPT_NOSIGNAL, 1L);
    // The operation timeout bounds the whole request, connecting included.
    curl_easy_setopt(Curl, CURLOPT_CONNECTTIMEOUT_MS,
                     long(std::min(Spec.ConnectTimeoutMs, Spec.OperationTimeoutMs)));
    curl_easy_setopt(Curl, CURLOPT_TIMEOUT_MS, long(Spec.OperationTimeoutMs));
    curl_easy_setopt(Curl, CURLOPT_WRITEFUNCTION, appendBody);
    curl_easy_setopt(Curl, CURLOPT_WRITEDATA, &R);
    // A body the server announces as larger is refused before it is read.
    curl_easy_setopt(Curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(MaxRemoteReplyBytes));
    if (!Spec.User.empty() || !Spec.Password.empty()) {
      curl_easy_setopt(Curl, CURLOPT_USERNAME, Spec.User.c_str());
      curl_easy_setopt(Curl, CURLOPT_PASSWORD, Spec.Password.c_str());
    }
    if (Method == "HEAD") {
      curl_easy_setopt(Curl, CURLOPT_NOBODY, 1L);
    } else if (Method == "PUT") {
      curl_easy_setopt(Curl, CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(Curl, CURLOPT_READFUNCTION, readUpload);
      curl_easy_setopt(Curl, CURLOPT_READDATA, U);
      curl_easy_setopt(Curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(U->Bytes.size()));
    }
    CURLcode Code = curl_easy_perform(Curl);
    if (Code == CURLE_FILESIZE_EXCEEDED || (Code == CURLE_WRITE_ERROR && R.TooLarge))
      return replyTooLarge(Method);
    if (Code != CURLE_OK) {
      // The error text names the host, never the credentials.
      std::string Why = *ErrorText ? ErrorText : curl_easy_strerror(Code);
      return remoteError(unreachable(Code) ? RemoteFailure::Unreachable : RemoteFailure::Failed,
                         Method + ": " + Why);
    }
    curl_easy_getinfo(Curl, CURLINFO_RESPONSE_CODE, &R.Status);
    return R;
  }

  RemoteSpec Spec;
  CURL *Curl = nullptr;
};

} // namespace

llvm::Expected<std::unique_ptr<RemoteBackend>> makeHttpBackend(const RemoteSpec &Spec) {
  return std::make_unique<HttpBackend>(Spec);
}

} // namespace kopt::memory
