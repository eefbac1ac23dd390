/**
 * @file call_result.h
 * @brief CallResult: the results of one call. The first four live inline
 * (no allocation), further ones in a growing array. Only replacing an
 * existing index or appending is allowed: there are no sparse writes, so the
 * result count is always explicit.
 */
#ifndef SPINE_RUNTIME_CALL_RESULT_H_
#define SPINE_RUNTIME_CALL_RESULT_H_

#include <cstddef>
#include <memory>

#include "spine/runtime/mc_value.h"

namespace spine::runtime {

/** @brief Owned results of a call. Not copyable; movable with Move(). */
class CallResult {
 public:
  /** Number of inline slots. */
  static constexpr size_t kInline = 4;

  /** Empty result; no allocation. */
  CallResult() noexcept = default;
  /** Not copyable: results own references. */
  CallResult(const CallResult&) = delete;
  /** Not copyable. */
  CallResult& operator=(const CallResult&) = delete;
  /** Releases every result. */
  ~CallResult() = default;

  /** Number of results. */
  size_t size() const noexcept { return size_; }
  /** Result @p i, or nullptr if @p i >= size(). */
  const Any* Get(size_t i) const noexcept { return i < size_ ? &Slot(i) : nullptr; }
  /** Result @p i as an owning value (mutable), or nullptr. */
  McValue* GetMutable(size_t i) noexcept { return i < size_ ? &Slot(i) : nullptr; }

  /** Store a copy of @p v at @p i: i < size() replaces, i == size() appends, else fails (sparse). */
  bool Set(size_t i, const Any& v) noexcept;
  /** Like Set, but moves @p v in and leaves it None. */
  bool SetTake(size_t i, McValue& v) noexcept;
  /** Append a copy of @p v. */
  bool Push(const Any& v) noexcept { return Set(size_, v); }
  /** Append @p v by move; @p v becomes None. */
  bool PushTake(McValue& v) noexcept { return SetTake(size_, v); }
  /** Append by move (rvalue convenience). */
  bool PushTake(McValue&& v) noexcept { return SetTake(size_, v); }
  /** Move result @p i out (the slot becomes None, the count is unchanged); None if out of range. */
  McValue Take(size_t i) noexcept;
  /** Release every value, keep the capacity for reuse on a hot path. */
  void Clear() noexcept;
  /** Release every value and the overflow array. */
  void Unit() noexcept;
  /** Replace this result with everything in @p from (which ends up empty). */
  void Move(CallResult& from) noexcept;
  /** Capacity beyond the inline slots (for tests of the no-allocation rule). */
  size_t overflow_capacity() const noexcept { return heap_cap_; }

 private:
  McValue& Slot(size_t i) noexcept { return i < kInline ? inline_[i] : heap_[i - kInline]; }
  const McValue& Slot(size_t i) const noexcept { return i < kInline ? inline_[i] : heap_[i - kInline]; }
  bool EnsureSlot(size_t i) noexcept;

  McValue inline_[kInline];
  std::unique_ptr<McValue[]> heap_;
  size_t heap_cap_ = 0;
  size_t size_ = 0;
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_CALL_RESULT_H_
