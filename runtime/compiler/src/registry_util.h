// Helpers shared by the ast.* registrations: Python lists arrive as runtime
// Lists/Tuples and are checked element by element into typed Arrays; None
// means "absent"; a type is a Type node or a data type's text ("int64").
#ifndef SPINE_COMPILER_SRC_REGISTRY_UTIL_H_
#define SPINE_COMPILER_SRC_REGISTRY_UTIL_H_

#include <string>

#include "spine/compiler/type.h"
#include "spine/runtime/list.h"
#include "spine/runtime/tuple.h"

namespace spine::compiler {

/** The elements of a list/tuple/Array argument, each checked to be a T. */
template <typename T>
rt::Array<T> ToArray(const rt::McValue& v, const char* what) {
  rt::Array<T> out;
  auto add = [&](const rt::Any& e) {
    if (!e.Is<T>()) {
      rt::ThrowTypeError(std::string(what) + ": expected " + std::string(T::ContainerType::NAME) + " elements, got " +
                         e.TypeName());
    }
    out.push_back(e.As<T>());
  };
  switch (v.type_index()) {
    case rt::TypeIndex::RuntimeList:
      for (const rt::McValue& e : v.As<rt::List>()) add(e);
      return out;
    case rt::TypeIndex::RuntimeTuple:
      for (const rt::McValue& e : v.As<rt::Tuple>()) add(e);
      return out;
    case rt::TypeIndex::RuntimeArray:
      for (const rt::object_r& e : static_cast<const rt::ArrayNode*>(v.ObjectPtr())->data) add(rt::McValue(e));
      return out;
    default: rt::ThrowTypeError(std::string(what) + ": expected a list, got " + v.TypeName());
  }
}

/** An optional node argument: None is the undefined reference. */
template <typename T>
T Optional(const rt::McValue& v) {
  return v.IsNull() ? T() : v.As<T>();
}

/** A type argument: a Type node, or the text of a scalar data type. */
inline Type TypeArg(const rt::McValue& v) {
  std::string_view s;
  if (v.TryStringView(&s)) return ScalarType(rt::DataType::Parse(std::string(s)));
  return v.As<Type>();
}

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_SRC_REGISTRY_UTIL_H_
