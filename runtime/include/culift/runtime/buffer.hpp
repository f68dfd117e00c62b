// Memory on the engine's device (host memory for the CPU backend), freed with its owner.
// Sizes are checked on every copy; new buffers are zero-filled. A buffer holds scalars, or the
// records of a struct type (DeviceBuffer<Particle>) for an array-of-structs parameter.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "culift/runtime/engine.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/scalar_value.hpp"

namespace culift::rt {

// The records of a typed struct buffer (DeviceBuffer<Particle>): sizeof and alignof of the C++
// type. A launch takes such a buffer for an array-of-structs parameter whose record has the
// same size and alignment (RecordView in culift/ast/module.hpp).
struct RecordLayout {
  std::uint32_t size = 0;   // bytes
  std::uint32_t align = 0;  // bytes
};

// An untyped buffer of `size()` elements: scalars of `element()`, or records of `recordSize()`
// bytes (element() is then Scalar::Void). DeviceBuffer<T> is the typed face.
class Buffer {
 public:
  Buffer(Engine& engine, Scalar element, std::size_t count) : Buffer(engine, element, RecordLayout{}, count) {}
  Buffer(Engine& engine, RecordLayout record, std::size_t count) : Buffer(engine, Scalar::Void, record, count) {}
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  Scalar element() const { return element_; }                  // Void for a buffer of records
  std::uint32_t recordSize() const { return record_.size; }    // 0 for a buffer of scalars
  std::uint32_t recordAlign() const { return record_.align; }  // 0 for a buffer of scalars
  std::size_t elementBytes() const { return record_.size ? record_.size : byteSize(element_); }
  std::size_t size() const { return count_; }  // elements (records)
  std::size_t bytes() const { return count_ * elementBytes(); }
  std::uint64_t address() const { return address_; }  // device pointer, or host address on the CPU backend
  Engine& engine() const { return *engine_; }

  // Byte copies; `stream` null: synchronous on the default stream. Throws Error when the range
  // does not fit the buffer.
  void writeBytes(const void* src, std::size_t bytes, std::size_t offsetBytes, const Stream* stream = nullptr);
  void readBytes(void* dst, std::size_t bytes, std::size_t offsetBytes, const Stream* stream = nullptr) const;
  void zero(const Stream* stream = nullptr);
  // Copies `bytes` of `src` (a buffer of any engine) from its byte `srcOffset` to this buffer's
  // byte `offsetBytes`, synchronously: device to device where both engines are GPUs (another
  // GPU's memory too: a peer copy), through the host otherwise. Throws Error when a range does not
  // fit its buffer.
  void copyFrom(const Buffer& src, std::size_t bytes, std::size_t srcOffset, std::size_t offsetBytes);

 protected:
  // Scalars (record all zero) or records (element Void).
  Buffer(Engine& engine, Scalar element, RecordLayout record, std::size_t count);
  void checkRange(std::size_t offset, std::size_t count, const char* what) const;

 private:
  std::shared_ptr<Engine> engine_;
  std::uint64_t address_ = 0;
  std::size_t count_ = 0;
  Scalar element_ = Scalar::Void;
  RecordLayout record_;
};

// What a DeviceBuffer holds: a culift scalar (bool, the integers, float, double) or a trivially
// copyable class, copied byte for byte (an array of structs: DeviceBuffer<Particle>).
template <typename T>
concept BufferElement = std::is_arithmetic_v<T> || (std::is_class_v<T> && std::is_trivially_copyable_v<T>);

template <typename T> class DeviceBuffer : public Buffer {
  static_assert(BufferElement<T>,
                "a DeviceBuffer holds bool, integers, float, double, or a trivially copyable struct of them");

 public:
  using value_type = T;
  DeviceBuffer(Engine& engine, std::size_t count) : Buffer(engine, scalar(), record(), count) {}
  DeviceBuffer(Engine& engine, std::span<const T> data) : Buffer(engine, scalar(), record(), data.size()) {
    write(data);
  }
  DeviceBuffer(Engine& engine, const std::vector<T>& data) : Buffer(engine, scalar(), record(), data.size()) {
    write(data);
  }

  // Copies `data` to elements [offset, offset + data.size()).
  void write(std::span<const T> data, std::size_t offset = 0) {
    checkRange(offset, data.size(), "write");
    writeBytes(data.data(), data.size_bytes(), offset * sizeof(T));
  }
  void write(const std::vector<T>& data, std::size_t offset = 0) {
    if constexpr (std::is_same_v<T, bool>) {  // a std::vector<bool> holds bits, not bools
      const std::unique_ptr<bool[]> bools(new bool[data.size()]);
      std::copy(data.begin(), data.end(), bools.get());
      write(std::span<const bool>(bools.get(), data.size()), offset);
    } else {
      write(std::span<const T>(data), offset);
    }
  }
  // Copies elements [offset, offset + out.size()) to `out`.
  void read(std::span<T> out, std::size_t offset = 0) const {
    checkRange(offset, out.size(), "read");
    readBytes(out.data(), out.size_bytes(), offset * sizeof(T));
  }
  std::vector<T> read() const {
    if constexpr (std::is_same_v<T, bool>) {
      const std::unique_ptr<bool[]> bools(new bool[size()]);
      read(std::span<bool>(bools.get(), size()));
      return std::vector<bool>(bools.get(), bools.get() + size());
    } else {
      std::vector<T> out(size());
      read(std::span<T>(out));
      return out;
    }
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

 private:
  static constexpr Scalar scalar() {
    if constexpr (std::is_class_v<T>) return Scalar::Void;
    else return scalarOf<T>();
  }
  static constexpr RecordLayout record() {
    if constexpr (std::is_class_v<T>) return RecordLayout{sizeof(T), alignof(T)};
    else return RecordLayout{};
  }
};

}  // namespace culift::rt
