#include "recorder/HostBufferPool.h"

#include "recorder/LaunchRecorder.h"

#include <algorithm>

namespace kopt::recorder {

HostBufferPool::~HostBufferPool() {
  for (std::vector<uint8_t> &Buffer : Free)
    release(Buffer);
}

std::vector<uint8_t> HostBufferPool::take(uint64_t Bytes) {
  auto Same = std::find_if(Free.begin(), Free.end(),
                           [&](const std::vector<uint8_t> &B) { return B.size() == Bytes; });
  if (Same != Free.end()) {
    std::vector<uint8_t> Buffer = std::move(*Same);
    Free.erase(Same);
    return Buffer;
  }
  if (!Free.empty()) {
    release(Free.back());
    Free.pop_back();
  }
  std::vector<uint8_t> Buffer(Bytes);
  ++Made;
  if (Bytes && Device.pinHost(Buffer.data(), Bytes))
    Pinned.push_back(Buffer.data());
  return Buffer;
}

void HostBufferPool::give(std::vector<uint8_t> Buffer) {
  if (!Buffer.empty())
    Free.push_back(std::move(Buffer));
}

void HostBufferPool::release(std::vector<uint8_t> &Buffer) {
  if (auto P = std::find(Pinned.begin(), Pinned.end(), Buffer.data()); P != Pinned.end()) {
    Device.unpinHost(Buffer.data());
    Pinned.erase(P);
  }
  std::vector<uint8_t>().swap(Buffer);
}

} // namespace kopt::recorder
