#include "spine/runtime/str.h"

#include <string>

namespace spine::runtime {

Str::Str(std::string_view s) : object_r(object_p<object_t>(MakeObject<StrNode>(s))) {}

Str Str::operator+(const Str& o) const {
  std::string joined;
  joined.reserve(size() + o.size());
  joined.append(view()).append(o.view());
  return Str(joined);
}

}  // namespace spine::runtime
