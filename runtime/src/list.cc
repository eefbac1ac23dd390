#include "spine/runtime/list.h"

#include <string>

namespace spine::runtime {

size_t NormalizeIndex(int64_t index, size_t size, const char* what) {
  int64_t n = static_cast<int64_t>(size);
  int64_t i = index < 0 ? index + n : index;
  if (i < 0 || i >= n) ThrowIndexError(std::string(what) + " index out of range");
  return static_cast<size_t>(i);
}

List::List() : object_r(object_p<object_t>(MakeObject<ListNode>())) {}

List::List(std::initializer_list<McValue> items) : List() { node()->data.assign(items.begin(), items.end()); }

McValue List::pop() const {
  auto& d = node()->data;
  if (d.empty()) ThrowIndexError("pop from empty list");
  McValue v = std::move(d.back());
  d.pop_back();
  return v;
}

}  // namespace spine::runtime
