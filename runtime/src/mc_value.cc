#include "spine/runtime/mc_value.h"

#include <climits>
#include <cstring>

namespace spine::runtime {

McValue::McValue(std::string_view s) {
  if (s.size() > static_cast<size_t>(INT32_MAX)) throw Error(ErrorKind::kOverflowError, "string too long for a Value");
  char* buf = new char[s.size() + 1];
  if (!s.empty()) std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = '\0';
  value_.t = TypeIndex::Str;
  value_.p = static_cast<int32_t>(s.size());
  value_.u.v_str = buf;
}

// Called only on a None value (constructors and CopyFrom). Strings get a
// fresh NUL-terminated buffer even when the source was a borrowed view.
void McValue::CopyAssign(const Value& v) {
  if (v.t == TypeIndex::Str) {
    McValue tmp(std::string_view(v.u.v_str, static_cast<size_t>(v.p)));
    Swap(tmp);
    return;
  }
  if (IsObjectTag(v.t)) static_cast<object_t*>(v.u.v_pointer)->IncCounter();
  value_ = v;
}

}  // namespace spine::runtime
