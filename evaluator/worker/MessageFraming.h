// The worker's messages on the wire: each JSON document framed by its length
// (8 bytes, host order), over a pair of pipes.
#pragma once

#include <llvm/Support/Error.h>
#include <nlohmann/json.hpp>

#include <cstdint>

namespace kopt::evaluator {

// Writes one message; fails when the other end is gone.
llvm::Error writeMessage(int Fd, const nlohmann::json &Message);

// Reads one message, waiting at most TimeoutSeconds (< 0: forever). The error
// says whether the other end closed the pipe or the time ran out.
enum class ReadFailure : uint8_t { None, Closed, TimedOut, Malformed };
llvm::Expected<nlohmann::json> readMessage(int Fd, double TimeoutSeconds, ReadFailure &Failure);

} // namespace kopt::evaluator
