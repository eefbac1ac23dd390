#include "spine/runtime/call_result.h"

#include <new>

namespace spine::runtime {

bool CallResult::EnsureSlot(size_t i) noexcept {
  if (i < kInline) return true;
  size_t need = i - kInline + 1;
  if (need <= heap_cap_) return true;
  size_t cap = heap_cap_ ? heap_cap_ * 2 : 4;
  while (cap < need) cap *= 2;
  std::unique_ptr<McValue[]> grown(new (std::nothrow) McValue[cap]);
  if (!grown) return Fail(ErrorKind::kRuntimeError, "out of memory growing a call result");
  for (size_t k = 0; k < heap_cap_; ++k) grown[k] = std::move(heap_[k]);
  heap_ = std::move(grown);
  heap_cap_ = cap;
  return true;
}

bool CallResult::Set(size_t i, const Any& v) noexcept {
  McValue copy;
  try {
    copy = McValue::CopyFrom(v);
  } catch (...) {
    SetLastErrorFromCurrentException();
    return false;
  }
  return SetTake(i, copy);
}

bool CallResult::SetTake(size_t i, McValue& v) noexcept {
  if (i > size_) return Fail(ErrorKind::kIndexError, "call result: sparse write (only replace or append)");
  if (i == size_ && !EnsureSlot(i)) return false;
  Slot(i) = std::move(v);
  if (i == size_) ++size_;
  return true;
}

McValue CallResult::Take(size_t i) noexcept {
  if (i >= size_) return McValue();
  return std::move(Slot(i));
}

void CallResult::Clear() noexcept {
  for (size_t i = 0; i < size_; ++i) Slot(i).Clean();
  size_ = 0;
}

void CallResult::Unit() noexcept {
  Clear();
  heap_.reset();
  heap_cap_ = 0;
}

void CallResult::Move(CallResult& from) noexcept {
  if (&from == this) return;
  Clear();
  for (size_t i = 0; i < kInline; ++i) inline_[i] = std::move(from.inline_[i]);
  heap_.swap(from.heap_);
  std::swap(heap_cap_, from.heap_cap_);
  size_ = from.size_;
  from.size_ = 0;
}

}  // namespace spine::runtime
