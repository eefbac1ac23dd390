#include "spine/runtime/set.h"

namespace spine::runtime {

Set::Set() : object_r(object_p<object_t>(MakeObject<SetNode>())) {}

Set::Set(std::initializer_list<McValue> items) : Set() {
  for (const McValue& v : items) insert(v);
}

bool Set::insert(McValue v) const {
  HashTable& t = node()->table;
  if (t.Find(v) >= 0) return false;
  t.Insert(std::move(v), McValue());
  return true;
}

}  // namespace spine::runtime
