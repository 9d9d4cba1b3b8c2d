#include "evaluator/worker/MessageFraming.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace kopt::evaluator {

using nlohmann::json;

llvm::Error writeMessage(int Fd, const json &Message) {
  std::string Body = Message.dump();
  uint64_t Size = Body.size();
  std::string Frame(reinterpret_cast<const char *>(&Size), sizeof(Size));
  Frame += Body;
  size_t Done = 0;
  while (Done < Frame.size()) {
    ssize_t N = ::write(Fd, Frame.data() + Done, Frame.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return llvm::createStringError("the evaluation worker's pipe is closed (%s)",
                                     std::strerror(errno));
    Done += static_cast<size_t>(N);
  }
  return llvm::Error::success();
}

namespace {
// Reads exactly Size bytes before Deadline (steady clock seconds; < 0: none).
ReadFailure readExactly(int Fd, char *Out, size_t Size,
                        std::chrono::steady_clock::time_point Deadline, bool HasDeadline) {
  size_t Done = 0;
  while (Done < Size) {
    int Wait = -1;
    if (HasDeadline) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      Deadline - std::chrono::steady_clock::now())
                      .count();
      if (Left <= 0)
        return ReadFailure::TimedOut;
      Wait = static_cast<int>(std::min<long long>(Left, 1 << 30));
    }
    pollfd P{Fd, POLLIN, 0};
    int Ready = ::poll(&P, 1, Wait);
    if (Ready < 0 && errno == EINTR)
      continue;
    if (Ready == 0)
      return ReadFailure::TimedOut;
    ssize_t N = ::read(Fd, Out + Done, Size - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return ReadFailure::Closed;
    Done += static_cast<size_t>(N);
  }
  return ReadFailure::None;
}
} // namespace

llvm::Expected<json> readMessage(int Fd, double TimeoutSeconds, ReadFailure &Failure) {
  bool HasDeadline = TimeoutSeconds >= 0;
  auto Deadline =
      std::chrono::steady_clock::now() +
      std::chrono::microseconds(static_cast<int64_t>((HasDeadline ? TimeoutSeconds : 0) * 1e6));
  uint64_t Size = 0;
  Failure = readExactly(Fd, reinterpret_cast<char *>(&Size), sizeof(Size), Deadline, HasDeadline);
  std::string Body;
  if (Failure == ReadFailure::None) {
    if (Size > (1ull << 32)) {
      Failure = ReadFailure::Malformed;
      return llvm::createStringError("the evaluation worker sent a malformed message");
    }
    Body.resize(Size);
    Failure = readExactly(Fd, Body.data(), Size, Deadline, HasDeadline);
  }
  if (Failure == ReadFailure::Closed)
    return llvm::createStringError("the evaluation worker's pipe closed");
  if (Failure == ReadFailure::TimedOut)
    return llvm::createStringError("no answer from the evaluation worker in %.0f s",
                                   TimeoutSeconds);
  json Message = json::parse(Body, nullptr, /*allow_exceptions=*/false);
  if (Message.is_discarded()) {
    Failure = ReadFailure::Malformed;
    return llvm::createStringError("the evaluation worker sent malformed JSON");
  }
  return Message;
}

} // namespace kopt::evaluator
