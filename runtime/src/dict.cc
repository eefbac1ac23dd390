#include "spine/runtime/dict.h"

namespace spine::runtime {

Dict::Dict() : object_r(object_p<object_t>(MakeObject<DictNode>())) {}

Dict::Dict(std::initializer_list<std::pair<McValue, McValue>> items) : Dict() {
  for (const auto& kv : items) set(kv.first, kv.second);
}

const McValue& Dict::get(const Any& key) const {
  int64_t i = table().Find(key);
  if (i < 0) ThrowKeyError(key.IsNull() ? "None" : "key not found: " + key.TypeName());
  return table().entries()[static_cast<size_t>(i)].value;
}

McValue Dict::get(const Any& key, McValue fallback) const {
  int64_t i = table().Find(key);
  if (i < 0) return fallback;
  return table().entries()[static_cast<size_t>(i)].value;
}

McValue& Dict::operator[](McValue key) const {
  HashTable& t = node()->table;
  int64_t i = t.Find(key);
  if (i < 0) i = static_cast<int64_t>(t.Insert(std::move(key), McValue()));
  return t.entry(static_cast<size_t>(i)).value;
}

}  // namespace spine::runtime
