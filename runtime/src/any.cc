#include "spine/runtime/any.h"

#include <climits>

#include "spine/runtime/str.h"

namespace spine::runtime {

bool Any::TryStringView(std::string_view* out) const noexcept {
  if (value_.t == TypeIndex::Str) {
    *out = std::string_view(value_.u.v_str, static_cast<size_t>(value_.p));
    return true;
  }
  if (value_.t == TypeIndex::RuntimeStr) {
    *out = static_cast<const StrNode*>(value_.u.v_pointer)->data;
    return true;
  }
  return false;
}

std::string TypeDisplayName(int32_t t) {
  switch (t) {
    case TypeIndex::RuntimeStr: return "str";
    case TypeIndex::RuntimeList: return "list";
    case TypeIndex::RuntimeDict: return "dict";
    case TypeIndex::RuntimeSet: return "set";
    case TypeIndex::RuntimeTuple: return "tuple";
    case TypeIndex::RuntimeIterator: return "iterator";
    case TypeIndex::RuntimeCallable: return "callable";
    case TypeIndex::Any: return "any";
    default: return TypeContext::Global().NameOf(t);
  }
}

std::string Any::TypeName() const { return TypeDisplayName(value_.t); }

void ThrowConversionError(const Any& v, const char* want) {
  ThrowTypeError(std::string("expected ") + want + ", got " + v.TypeName());
}

McView::McView(std::string_view s) {
  // p is 32-bit in the ABI; longer strings must travel as RuntimeStr objects.
  if (s.size() > static_cast<size_t>(INT32_MAX)) throw Error(ErrorKind::kOverflowError, "string too long for a Value");
  value_.t = TypeIndex::Str;
  value_.p = static_cast<int32_t>(s.size());
  value_.u.v_str = const_cast<char*>(s.data());
}

}  // namespace spine::runtime
