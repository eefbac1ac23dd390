// Type rules of the box_* ops (boxed_ops.h). Operands that are boxed values
// must be ObjectType: the frontend boxes typed operands first (box_of), so
// every operation sees two Python objects, as CPython's operator does.
#include "spine/compiler/boxed_ops.h"

#include <map>

#include "spine/runtime/error.h"

namespace spine::compiler {

namespace {

// What each operand must be: o an object, i an int, s a str, v any value, * more objects.
struct Rule {
  const char* operands;
  const char* result;  // "object", "bool", "int", "str", "list", "typed" (PrimCall's own type)
};

const std::map<std::string, Rule>& Rules() {
  static const std::map<std::string, Rule> rules = {
      {"box_of", {"v", "object"}},          {"box_none", {"", "object"}},
      {"box_unbox", {"o", "typed"}},        {"box_binary", {"ioo", "object"}},
      {"box_unary", {"io", "object"}},      {"box_compare", {"ioo", "bool"}},
      {"box_truth", {"o", "bool"}},         {"box_str", {"o", "str"}},
      {"box_repr", {"o", "str"}},           {"box_format", {"oo", "str"}},
      {"box_len", {"o", "int"}},            {"box_getitem", {"oo", "object"}},
      {"box_setitem", {"ooo", "bool"}},     {"box_contains", {"oo", "bool"}},
      {"box_list", {"o", "list"}},          {"box_is", {"oo", "bool"}},
      {"box_isinstance", {"oi", "bool"}},   {"box_method", {"so*", "object"}},
      {"box_int", {"o", "object"}},         {"box_float", {"o", "object"}},
      {"box_getattr", {"os", "object"}},    {"box_exc_match", {"os", "bool"}},
      {"box_print", {"s", "bool"}},
      // The exception of the fault the innermost enclosing handler took, and unwinding on with it.
      {"box_caught", {"", "object"}},       {"box_rethrow", {"o", "bool"}},
  };
  return rules;
}

bool Fits(char want, const Type& t) {
  switch (want) {
    case 'o': return t.As<ObjectTypeNode>() != nullptr;
    case 'i': return IsScalarType(t) && RuntimeDataType(t) == kInt64;
    case 's': return t.As<StringTypeNode>() != nullptr;
    default: return t.defined() && !t.As<NoneTypeNode>() && !t.As<IteratorTypeNode>();
  }
}

}  // namespace

bool IsBoxedOp(const std::string& name) { return Rules().count(name) != 0; }

Type BoxedOpResultType(const std::string& name, const rt::Array<PrimExpr>& args) {
  const Rule& r = Rules().at(name);
  std::string want = r.operands;
  bool more = !want.empty() && want.back() == '*';
  if (more) want.pop_back();
  bool count_ok = more ? args.size() >= want.size() : args.size() == want.size();
  for (size_t i = 0; count_ok && i < args.size(); ++i) {
    const PrimExpr& a = args[static_cast<int64_t>(i)];
    if (!a.defined() || !Fits(i < want.size() ? want[i] : 'o', a->checked_type)) count_ok = false;
  }
  if (!count_ok) rt::ThrowTypeError("op " + name + ": operands of the wrong kind or number");
  std::string result = r.result;
  if (result == "object") return ObjectType::Make();
  if (result == "bool") return ScalarType(kBool);
  if (result == "int") return ScalarType(kInt64);
  if (result == "str") return StringType::Make();
  if (result == "list") return ListType::Make(ObjectType::Make());
  rt::ThrowTypeError("op " + name + " takes its result type from PrimCall");
}

}  // namespace spine::compiler
