/**
 * @file stack_buffer.h
 * @brief StackBuffer<T, N>: N elements of stack storage that are not
 * initialised, growing to the heap beyond N. Call boundaries use it for
 * argument and keyword-name arrays: default-constructing eight string views
 * or values per call costs a `rep stos` that dominated the C API call.
 */
#ifndef SPINE_RUNTIME_STACK_BUFFER_H_
#define SPINE_RUNTIME_STACK_BUFFER_H_

#include <cstddef>
#include <memory>
#include <type_traits>

namespace spine::runtime {

/** @brief Uninitialised storage for trivially destructible T. Every element must be written before it is read. */
template <typename T, size_t N>
class StackBuffer {
  static_assert(std::is_trivially_destructible_v<T>, "StackBuffer holds trivially destructible types");
  static_assert(std::is_trivially_copyable_v<T>, "elements are written by assignment");

 public:
  /** Storage for @p n elements: on the stack if n <= N, else one heap array. */
  explicit StackBuffer(size_t n) {
    if (n > N) heap_.reset(new T[n]);
  }
  /** The first element. */
  T* data() noexcept { return heap_ ? heap_.get() : reinterpret_cast<T*>(stack_); }

 private:
  alignas(T) unsigned char stack_[N * sizeof(T)];
  std::unique_ptr<T[]> heap_;
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_STACK_BUFFER_H_
