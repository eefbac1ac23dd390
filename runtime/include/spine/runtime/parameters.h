/**
 * @file parameters.h
 * @brief Parameters: a borrowed view of an argument array, the input of
 * functions registered with REGISTER_FUNCTION.
 */
#ifndef SPINE_RUNTIME_PARAMETERS_H_
#define SPINE_RUNTIME_PARAMETERS_H_

#include <cstddef>

#include "spine/runtime/any.h"
#include "spine/runtime/list.h"

namespace spine::runtime {

/** @brief Pointer + length over Any values owned by the caller; valid during the call only. */
class Parameters {
 public:
  /** Empty. */
  Parameters() noexcept = default;
  /** View @p n values at @p items. */
  Parameters(const Any* items, size_t n) noexcept : item_(items), size_(n) {}
  /** Count. */
  size_t size() const noexcept { return size_; }
  /** Argument @p i; throws IndexError if out of range (no negative indexing: argument lists are not lists). */
  const Any& operator[](size_t i) const {
    if (i >= size_) ThrowIndexError("argument index out of range");
    return item_[i];
  }
  /** Begin. */
  const Any* begin() const noexcept { return item_; }
  /** End. */
  const Any* end() const noexcept { return item_ + size_; }

 private:
  const Any* item_ = nullptr;
  size_t size_ = 0;
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_PARAMETERS_H_
