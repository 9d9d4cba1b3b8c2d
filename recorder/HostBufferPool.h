// Host buffers for recorded contents, kept from one launch to the next. A
// fresh 64 MiB vector a launch cost its page faults and zero-fill, more than
// the copy into it; and a buffer the driver has pinned is copied into by DMA,
// without the staging a pageable copy takes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kopt::recorder {

class DeviceAccess;

class HostBufferPool {
public:
  explicit HostBufferPool(DeviceAccess &D) : Device(D) {}
  ~HostBufferPool();
  HostBufferPool(const HostBufferPool &) = delete;
  HostBufferPool &operator=(const HostBufferPool &) = delete;

  // A buffer of exactly Bytes; its contents are unspecified (a reused buffer
  // holds what it held).
  std::vector<uint8_t> take(uint64_t Bytes);
  // Returns a buffer for later takes. The pool keeps what was in use at once
  // and no more: a take of a size the pool lacks frees a buffer of another size.
  void give(std::vector<uint8_t> Buffer);

  // Buffers the pool holds now, and how many it has made (tests).
  size_t held() const { return Free.size(); }
  uint64_t made() const { return Made; }

private:
  void release(std::vector<uint8_t> &Buffer);
  DeviceAccess &Device;
  std::vector<std::vector<uint8_t>> Free;
  std::vector<const uint8_t *> Pinned;
  uint64_t Made = 0;
};

} // namespace kopt::recorder
