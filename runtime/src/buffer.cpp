#include "culift/runtime/buffer.hpp"

#include <limits>
#include <utility>
#include <vector>

#include "backend.hpp"

namespace culift::rt {

namespace detail {
// Engine::Impl is private to engine.cpp; buffers reach the backend through this.
BackendImpl& backendOf(Engine& engine);
}  // namespace detail

Buffer::Buffer(Engine& engine, Scalar element, RecordLayout record, std::size_t count)
    : engine_(engine.shared_from_this()), count_(count), element_(element), record_(record) {
  if (record.size == 0 && element == Scalar::Void) throw Error("a buffer needs an element type");
  if (record.size != 0 && element != Scalar::Void) throw Error("a buffer holds scalars or records, not both");
  if (record.size != 0 && (record.align == 0 || (record.align & (record.align - 1)) != 0 || record.size % record.align))
    throw Error("a buffer of " + std::to_string(record.size) + "-byte records aligned to " +
                std::to_string(record.align) + " bytes: no C++ type has that layout");
  if (count > std::numeric_limits<std::size_t>::max() / elementBytes())
    throw Error("a buffer of " + std::to_string(count) + " elements does not fit in memory");
  address_ = detail::backendOf(*engine_).allocate(bytes());
}

Buffer::Buffer(Buffer&& other) noexcept
    : engine_(std::move(other.engine_)),
      address_(std::exchange(other.address_, 0)),
      count_(std::exchange(other.count_, 0)),
      element_(other.element_),
      record_(other.record_) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    if (engine_ && address_) detail::backendOf(*engine_).release(address_);
    engine_ = std::move(other.engine_);
    address_ = std::exchange(other.address_, 0);
    count_ = std::exchange(other.count_, 0);
    element_ = other.element_;
    record_ = other.record_;
  }
  return *this;
}

Buffer::~Buffer() {
  if (engine_ && address_) detail::backendOf(*engine_).release(address_);
}

void Buffer::checkRange(std::size_t offset, std::size_t count, const char* what) const {
  if (offset > count_ || count > count_ - offset)
    throw Error(std::string("buffer ") + what + " of " + std::to_string(count) + " " +
                (record_.size ? std::to_string(record_.size) + "-byte records" : std::string(spelling(element_))) +
                " at element " + std::to_string(offset) + " does not fit a buffer of " + std::to_string(count_));
}

namespace {
void checkStream(const Engine& engine, const Stream* stream) {
  if (stream && &stream->engine() != &engine) throw Error("buffer copy on a stream of another engine");
}
}  // namespace

void Buffer::writeBytes(const void* src, std::size_t bytes, std::size_t offsetBytes, const Stream* stream) {
  if (offsetBytes > this->bytes() || bytes > this->bytes() - offsetBytes)
    throw Error("buffer write of " + std::to_string(bytes) + " bytes at byte " + std::to_string(offsetBytes) +
                " does not fit a buffer of " + std::to_string(this->bytes()) + " bytes");
  checkStream(*engine_, stream);
  if (bytes == 0) return;
  detail::backendOf(*engine_).copyIn(address_ + offsetBytes, src, bytes, stream ? stream->handle() : nullptr,
                                     stream != nullptr);
}

void Buffer::readBytes(void* dst, std::size_t bytes, std::size_t offsetBytes, const Stream* stream) const {
  if (offsetBytes > this->bytes() || bytes > this->bytes() - offsetBytes)
    throw Error("buffer read of " + std::to_string(bytes) + " bytes at byte " + std::to_string(offsetBytes) +
                " does not fit a buffer of " + std::to_string(this->bytes()) + " bytes");
  checkStream(*engine_, stream);
  if (bytes == 0) return;
  detail::backendOf(*engine_).copyOut(dst, address_ + offsetBytes, bytes, stream ? stream->handle() : nullptr,
                                      stream != nullptr);
}

void Buffer::copyFrom(const Buffer& src, std::size_t bytes, std::size_t srcOffset, std::size_t offsetBytes) {
  if (srcOffset > src.bytes() || bytes > src.bytes() - srcOffset || offsetBytes > this->bytes() ||
      bytes > this->bytes() - offsetBytes)
    throw Error("buffer copy of " + std::to_string(bytes) + " bytes from byte " + std::to_string(srcOffset) +
                " of a buffer of " + std::to_string(src.bytes()) + " to byte " + std::to_string(offsetBytes) +
                " of one of " + std::to_string(this->bytes()) + " does not fit");
  if (bytes == 0) return;
  if (detail::backendOf(*engine_).copyBetween(address_ + offsetBytes, detail::backendOf(*src.engine_),
                                              src.address_ + srcOffset, bytes))
    return;
  std::vector<std::uint8_t> staged(bytes);
  src.readBytes(staged.data(), bytes, srcOffset);
  writeBytes(staged.data(), bytes, offsetBytes);
}

void Buffer::zero(const Stream* stream) {
  checkStream(*engine_, stream);
  if (bytes() == 0) return;
  detail::backendOf(*engine_).fillZero(address_, bytes(), stream ? stream->handle() : nullptr);
}

}  // namespace culift::rt
