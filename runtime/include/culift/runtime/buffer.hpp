// Memory on the engine's device (host memory for the CPU backend), freed with its owner.
// Sizes are checked on every copy; new buffers are zero-filled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "culift/runtime/engine.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/scalar_value.hpp"

namespace culift::rt {

// An untyped buffer of `size()` elements of `element()`. DeviceBuffer<T> is the typed face.
class Buffer {
 public:
  Buffer(Engine& engine, Scalar element, std::size_t count);
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  Scalar element() const { return element_; }
  std::size_t size() const { return count_; }  // elements
  std::size_t bytes() const { return count_ * byteSize(element_); }
  std::uint64_t address() const { return address_; }  // device pointer, or host address on the CPU backend
  Engine& engine() const { return *engine_; }

  // Byte copies; `stream` null: synchronous on the default stream. Throws Error when the range
  // does not fit the buffer.
  void writeBytes(const void* src, std::size_t bytes, std::size_t offsetBytes, const Stream* stream = nullptr);
  void readBytes(void* dst, std::size_t bytes, std::size_t offsetBytes, const Stream* stream = nullptr) const;
  void zero(const Stream* stream = nullptr);

 protected:
  void checkRange(std::size_t offset, std::size_t count, const char* what) const;

 private:
  std::shared_ptr<Engine> engine_;
  std::uint64_t address_ = 0;
  std::size_t count_ = 0;
  Scalar element_ = Scalar::Void;
};

template <typename T> class DeviceBuffer : public Buffer {
 public:
  using value_type = T;
  DeviceBuffer(Engine& engine, std::size_t count) : Buffer(engine, scalarOf<T>(), count) {}
  DeviceBuffer(Engine& engine, std::span<const T> data) : Buffer(engine, scalarOf<T>(), data.size()) { write(data); }
  DeviceBuffer(Engine& engine, const std::vector<T>& data) : DeviceBuffer(engine, std::span<const T>(data)) {}

  // Copies `data` to elements [offset, offset + data.size()).
  void write(std::span<const T> data, std::size_t offset = 0) {
    checkRange(offset, data.size(), "write");
    writeBytes(data.data(), data.size_bytes(), offset * sizeof(T));
  }
  void write(const std::vector<T>& data, std::size_t offset = 0) { write(std::span<const T>(data), offset); }
  // Copies elements [offset, offset + out.size()) to `out`.
  void read(std::span<T> out, std::size_t offset = 0) const {
    checkRange(offset, out.size(), "read");
    readBytes(out.data(), out.size_bytes(), offset * sizeof(T));
  }
  std::vector<T> read() const {
    std::vector<T> out(size());
    read(std::span<T>(out));
    return out;
  }
  // Asynchronous forms: `data`/`out` must stay alive until the stream is synchronized.
  void writeAsync(std::span<const T> data, Stream& stream, std::size_t offset = 0) {
    checkRange(offset, data.size(), "write");
    writeBytes(data.data(), data.size_bytes(), offset * sizeof(T), &stream);
  }
  void readAsync(std::span<T> out, Stream& stream, std::size_t offset = 0) const {
    checkRange(offset, out.size(), "read");
    readBytes(out.data(), out.size_bytes(), offset * sizeof(T), &stream);
  }
};

}  // namespace culift::rt
