// Global functions of the runtime itself ("runtime.*"): constructors the
// Python frontend and generated code look up by name.
#include "spine/runtime/dict.h"
#include "spine/runtime/iterator.h"
#include "spine/runtime/list.h"
#include "spine/runtime/registry.h"
#include "spine/runtime/set.h"
#include "spine/runtime/str.h"
#include "spine/runtime/tuple.h"

namespace spine::runtime {
namespace {

McValue NewList(Parameters args) {
  List l;
  l.reserve(args.size());
  for (const Any& a : args) l.append(McValue::CopyFrom(a));
  return l;
}

McValue NewTuple(Parameters args) {
  std::vector<McValue> items;
  items.reserve(args.size());
  for (const Any& a : args) items.push_back(McValue::CopyFrom(a));
  return Tuple(std::move(items));
}

// runtime.Dict(k0, v0, k1, v1, ...)
McValue NewDict(Parameters args) {
  if (args.size() % 2 != 0) ThrowTypeError("runtime.Dict() takes an even number of arguments (key, value pairs)");
  Dict d;
  for (size_t i = 0; i < args.size(); i += 2) d.set(McValue::CopyFrom(args[i]), McValue::CopyFrom(args[i + 1]));
  return d;
}

McValue NewSet(Parameters args) {
  Set s;
  for (const Any& a : args) s.insert(McValue::CopyFrom(a));
  return s;
}

int64_t Len(const McValue& v) {
  std::string_view s;
  if (v.TryStringView(&s)) return static_cast<int64_t>(s.size());
  switch (v.type_index()) {
    case TypeIndex::RuntimeList: return static_cast<int64_t>(v.As<List>().size());
    case TypeIndex::RuntimeTuple: return static_cast<int64_t>(v.As<Tuple>().size());
    case TypeIndex::RuntimeDict: return static_cast<int64_t>(v.As<Dict>().size());
    case TypeIndex::RuntimeSet: return static_cast<int64_t>(v.As<Set>().size());
    default: ThrowTypeError("object of type '" + v.TypeName() + "' has no len()");
  }
}

REGISTER_FUNCTION("runtime.List", NewList);
REGISTER_FUNCTION("runtime.Tuple", NewTuple);
REGISTER_FUNCTION("runtime.Dict", NewDict);
REGISTER_FUNCTION("runtime.Set", NewSet);
REGISTER_GLOBAL("runtime.Str").Params({Arg("value")}).SetBody([](Str s) { return s; });
REGISTER_GLOBAL("runtime.Len").Params({Arg("obj")}).SetBody(Len);
REGISTER_GLOBAL("runtime.TypeIndexOf").Params({Arg("name")}).SetBody([](std::string name) {
  int32_t i = TypeContext::Global().IndexOf(name);
  if (i < 0) ThrowKeyError("runtime type '" + name + "' is not registered");
  return static_cast<int64_t>(i);
});
REGISTER_GLOBAL("runtime.ListGlobals").SetBody([] {
  List names;
  for (const std::string& n : FunctionRegistry::ListNames()) names.append(McValue(n));
  return names;
});
// Materialise any iterable through the type-erased Iterator (exercises the Any overload).
REGISTER_GLOBAL("runtime.IterToList").Params({Arg("iterable")}).SetBody([](const McValue& v) {
  List out;
  Iterator it = Iterator::MakeIterator(v);
  while (it.HasNext()) out.append(it.Next());
  return out;
});

}  // namespace
}  // namespace spine::runtime
