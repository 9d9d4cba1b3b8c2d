// The worker's messages on the wire (evaluator/worker/MessageFraming.h).
#include "evaluator/worker/MessageFraming.h"

#include <gtest/gtest.h>

#include <string>
#include <unistd.h>

using namespace kopt::evaluator;

TEST(MessageFraming, FramedMessagesOverAPipe) {
  int Fds[2];
  ASSERT_EQ(::pipe(Fds), 0);
  nlohmann::json Sent = {
      {"op", "evaluate"},
      {"code", std::string(30000, 'x')}}; // Fits in a pipe: one thread writes, then reads.
  ASSERT_FALSE(bool(writeMessage(Fds[1], Sent)));
  ReadFailure Why;
  auto Got = readMessage(Fds[0], 5, Why);
  ASSERT_TRUE(bool(Got)) << llvm::toString(Got.takeError());
  EXPECT_EQ(*Got, Sent);
  auto Nothing = readMessage(Fds[0], 0.1, Why);
  EXPECT_FALSE(bool(Nothing));
  llvm::consumeError(Nothing.takeError());
  EXPECT_EQ(Why, ReadFailure::TimedOut);
  ::close(Fds[1]);
  auto Closed = readMessage(Fds[0], 5, Why);
  EXPECT_FALSE(bool(Closed));
  llvm::consumeError(Closed.takeError());
  EXPECT_EQ(Why, ReadFailure::Closed);
  ::close(Fds[0]);
}
