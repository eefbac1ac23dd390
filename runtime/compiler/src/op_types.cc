// The built-in ops PrimCall accepts and their type rules: one checker per
// op, in a table, so adding an op is one entry here and one in the
// Rewriter's table (rewriter_ops.cc).
#include <algorithm>
#include <unordered_map>

#include "spine/compiler/boxed_ops.h"
#include "spine/compiler/expr.h"
#include "spine/runtime/error.h"

namespace spine::compiler {
namespace {

using Args = rt::Array<PrimExpr>;
using Checker = Type (*)(const std::string& name, const Args& args);

const Type& Arg(const Args& a, int64_t i) { return a[i]->checked_type; }
bool IsInt(const Type& t) { return RuntimeDataType(t) == kInt64 && IsScalarType(t); }
bool IsFloat(const Type& t) { return RuntimeDataType(t) == kFloat64 && IsScalarType(t); }
bool IsBool(const Type& t) { return RuntimeDataType(t) == kBool && IsScalarType(t); }
bool IsStr(const Type& t) { return t.As<StringTypeNode>() != nullptr; }
Type Int() { return ScalarType(kInt64); }
Type Bool() { return ScalarType(kBool); }

[[noreturn]] void Bad(const std::string& name, const Args& args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + TypeText(Arg(args, static_cast<int64_t>(i)));
  rt::ThrowTypeError("op " + name + " does not apply to (" + s + ")");
}

void Count(const std::string& name, const Args& args, size_t lo, size_t hi) {
  if (args.size() < lo || args.size() > hi) {
    rt::ThrowTypeError("op " + name + " takes " + std::to_string(lo) + (lo == hi ? "" : ".." + std::to_string(hi)) +
                       " argument(s), got " + std::to_string(args.size()));
  }
  for (const PrimExpr& a : args) {
    if (!a.defined()) rt::ThrowTypeError("op " + name + ": undefined argument");
  }
}

// neg, pos, abs: numbers (bool counts as int).
Type Numeric(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  if (!IsScalarType(Arg(args, 0))) Bad(name, args);
  return IsFloat(Arg(args, 0)) ? Arg(args, 0) : Int();
}

// min/max: two values of one type (the result is one of them), or the elements of a list.
Type MinMax(const std::string& name, const Args& args) {
  Count(name, args, 1, 2);
  if (args.size() == 1) {
    const auto* l = Arg(args, 0).As<ListTypeNode>();
    if (!l || !(IsScalarType(l->item_type) || IsStr(l->item_type))) Bad(name, args);
    return l->item_type;
  }
  if (!TypeEqual(Arg(args, 0), Arg(args, 1))) rt::ThrowTypeError("op " + name + " needs operands of one type");
  if (!IsScalarType(Arg(args, 0)) && !IsStr(Arg(args, 0))) Bad(name, args);
  return Arg(args, 0);
}

Type ToFloat(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  if (!IsScalarType(Arg(args, 0))) Bad(name, args);
  return ScalarType(kFloat64);
}

// int(x): of a number or (parsing) of a str; int(s, base) of a str and an int.
Type ToInt(const std::string& name, const Args& args) {
  Count(name, args, 1, 2);
  if (!IsScalarType(Arg(args, 0)) && !IsStr(Arg(args, 0))) Bad(name, args);
  if (args.size() == 2 && !(IsStr(Arg(args, 0)) && (IsInt(Arg(args, 1)) || IsBool(Arg(args, 1))))) Bad(name, args);
  return Int();
}

// round(x): an int; round(x, ndigits) of an int ndigits: x's type (a bool counts as an int).
Type Round(const std::string& name, const Args& args) {
  Count(name, args, 1, 2);
  if (!IsScalarType(Arg(args, 0))) Bad(name, args);
  if (args.size() == 2 && !IsInt(Arg(args, 1)) && !IsBool(Arg(args, 1))) Bad(name, args);
  return args.size() == 2 && IsFloat(Arg(args, 0)) ? ScalarType(kFloat64) : Int();
}

// x.is_integer() of a float: a bool.
Type FloatTest(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  if (!IsFloat(Arg(args, 0))) Bad(name, args);
  return Bool();
}

// bin(x), oct(x), hex(x) of an int: a str.
Type IntText(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  if (!IsInt(Arg(args, 0)) && !IsBool(Arg(args, 0))) Bad(name, args);
  return StringType::Make();
}

Type ToBool(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  if (!IsScalarType(Arg(args, 0))) Bad(name, args);
  return Bool();
}

Type RangeStep(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  if (!IsInt(Arg(args, 0))) rt::ThrowTypeError("op check_range_step needs an int64");
  return Int();
}

// str(x) of int, bool or str.
Type ToStr(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  const Type& t = Arg(args, 0);
  if (!IsInt(t) && !IsBool(t) && !IsStr(t)) Bad(name, args);
  return StringType::Make();
}

// format(x, spec) of a number or str with a str spec; repr(x) of either: a str (codegen/format.h, value_format.cc).
Type FormatValue(const std::string& name, const Args& args) {
  Count(name, args, name == "format" ? 2 : 1, name == "format" ? 2 : 1);
  if (!IsScalarType(Arg(args, 0)) && !IsStr(Arg(args, 0))) Bad(name, args);
  if (name == "format" && !IsStr(Arg(args, 1))) Bad(name, args);
  return StringType::Make();
}

Type Len(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  const Type& t = Arg(args, 0);
  if (!(IsStr(t) || t.As<ListTypeNode>() || t.As<DictTypeNode>() || t.As<SetTypeNode>() || t.As<TupleTypeNode>())) {
    Bad(name, args);
  }
  return Int();
}

// item in container: substring, list element (no floats: identity), dict key, set member.
Type Contains(const std::string& name, const Args& args) {
  Count(name, args, 2, 2);
  const Type& c = Arg(args, 0);
  const Type& x = Arg(args, 1);
  Type want;
  if (IsStr(c)) {
    want = c;
  } else if (const auto* l = c.As<ListTypeNode>()) {
    if (ContainsFloat(l->item_type)) {
      rt::ThrowTypeError("'in' on " + TypeText(c) + ": CPython compares float elements by identity first");
    }
    want = l->item_type;
  } else if (const auto* d = c.As<DictTypeNode>()) {
    want = d->key_type;
  } else if (const auto* s = c.As<SetTypeNode>()) {
    want = s->item_type;
  } else {
    Bad(name, args);
  }
  if (!TypeEqual(want, x)) Bad(name, args);
  return Bool();
}

// a + b of two strs or two lists of one type.
Type Concat(const std::string& name, const Args& args) {
  Count(name, args, 2, 2);
  const Type& a = Arg(args, 0);
  if (!(IsStr(a) || a.As<ListTypeNode>()) || !TypeEqual(a, Arg(args, 1))) Bad(name, args);
  return a;
}

// s * n, lst * n.
Type Repeat(const std::string& name, const Args& args) {
  Count(name, args, 2, 2);
  const Type& a = Arg(args, 0);
  if (!(IsStr(a) || a.As<ListTypeNode>()) || !IsInt(Arg(args, 1))) Bad(name, args);
  return a;
}

Type Ord(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  if (!IsStr(Arg(args, 0))) Bad(name, args);
  return Int();
}

Type Chr(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  if (!IsInt(Arg(args, 0))) Bad(name, args);
  return StringType::Make();
}

// sum(list[int][, int]) / sum(list[float], float): the start fixes the result type.
Type Sum(const std::string& name, const Args& args) {
  Count(name, args, 1, 2);
  const auto* l = Arg(args, 0).As<ListTypeNode>();
  if (!l) Bad(name, args);
  if (IsInt(l->item_type) && (args.size() == 1 || IsInt(Arg(args, 1)))) return Int();
  if (IsFloat(l->item_type) && args.size() == 2 && IsFloat(Arg(args, 1))) return l->item_type;
  Bad(name, args);
}

// sorted(list or set, reverse).
Type Sorted(const std::string& name, const Args& args) {
  Count(name, args, 2, 2);
  const Type& c = Arg(args, 0);
  Type item;
  if (const auto* l = c.As<ListTypeNode>()) item = l->item_type;
  if (const auto* s = c.As<SetTypeNode>()) item = s->item_type;
  if (!item.defined() || !IsBool(Arg(args, 1))) Bad(name, args);
  if (!IsOrderedType(item)) Bad(name, args);
  if (!IsScalarType(item) && ContainsFloat(item)) {
    rt::ThrowTypeError("sorted(" + TypeText(c) + "): CPython compares float elements by identity first");
  }
  return ListType::Make(item);
}

// list_copy: list(x) of a list or a tuple[T, ...]; tuple_copy: tuple(x) of either.
Type ListCopy(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  const auto* l = Arg(args, 0).As<ListTypeNode>();
  if (!l) Bad(name, args);
  return ListType::Make(l->item_type, name == "tuple_copy");
}

Type StrChars(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  if (!IsStr(Arg(args, 0))) Bad(name, args);
  return ListType::Make(StringType::Make());
}

Type SetFromList(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  const auto* l = Arg(args, 0).As<ListTypeNode>();
  if (!l) Bad(name, args);
  return SetType::Make(l->item_type);
}

// set_folded / set_frozen(display): a constant set display as CPython builds (iterates) it (pyset.h).
Type SetFolded(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  if (!Arg(args, 0).As<SetTypeNode>()) Bad(name, args);
  return Arg(args, 0);
}

// iter_<kind>(source...): the iterator of a lowered for loop.
Type Iter(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  return IteratorType::Make(name.substr(5), rt::Array<Type>{Arg(args, 0)});
}

Type IterNext(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  if (!Arg(args, 0).As<IteratorTypeNode>()) Bad(name, args);
  return Bool();
}

Type IterValue(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  const auto* it = Arg(args, 0).As<IteratorTypeNode>();
  if (!it) Bad(name, args);
  return it->item_type;
}

// math_* of numbers: a float (math_floor/ceil/trunc: an int; math_is*: a bool).
Type MathOfNumbers(const std::string& name, const Args& args) {
  size_t arity = name == "math_atan2" || name == "math_copysign" || name == "math_fmod" || name == "math_pow" ||
                         name == "math_log_base"
                     ? 2
                     : 1;
  Count(name, args, arity, arity);
  for (const PrimExpr& a : args) {
    if (!IsScalarType(a->checked_type)) Bad(name, args);
  }
  if (name == "math_floor" || name == "math_ceil" || name == "math_trunc") return Int();
  if (name.rfind("math_is", 0) == 0) return Bool();
  return ScalarType(kFloat64);
}

// Ops on ints only (bools count as ints): pow_mod (pow with a modulus), math_gcd, math_isqrt, math_factorial, shifts, ~.
Type OfInts(const std::string& name, const Args& args) {
  size_t arity = name == "pow_mod" ? 3 : name == "math_gcd" || name == "lshift" || name == "rshift" ? 2 : 1;
  Count(name, args, arity, arity);
  for (const PrimExpr& a : args) {
    if (!IsInt(a->checked_type) && !IsBool(a->checked_type)) Bad(name, args);
  }
  return Int();
}

// & | ^: of ints; of two bools a bool, as in Python.
Type BitOp(const std::string& name, const Args& args) {
  Count(name, args, 2, 2);
  for (const PrimExpr& a : args) {
    if (!IsInt(a->checked_type) && !IsBool(a->checked_type)) Bad(name, args);
  }
  return IsBool(Arg(args, 0)) && IsBool(Arg(args, 1)) ? Bool() : Int();
}

// **: int ** int is an int (a negative exponent goes back to CPython); with a float, a float.
Type Pow(const std::string& name, const Args& args) {
  Count(name, args, 2, 2);
  if (!IsScalarType(Arg(args, 0)) || !IsScalarType(Arg(args, 1))) Bad(name, args);
  return IsFloat(Arg(args, 0)) || IsFloat(Arg(args, 1)) ? ScalarType(kFloat64) : Int();
}

// raise_in_python and raise_caught (`raise` in a handler): no operands; raise_text: a fault kind and
// a str message, or a program class's fault kind, its name (a literal: the fault keeps a pointer to
// it) and the message; raise_called the same with the repr of the argument tuple for message. None
// return: typed bool so they can stand as statements.
Type Raising(const std::string& name, const Args& args) {
  if (name == "raise_in_python" || name == "raise_caught") {
    Count(name, args, 0, 0);
    return Bool();
  }
  Count(name, args, 2, 3);
  if (!IsInt(Arg(args, 0)) || !IsStr(Arg(args, static_cast<int64_t>(args.size()) - 1))) Bad(name, args);
  if (args.size() == 3 && !args[1].As<StringImmNode>()) Bad(name, args);
  return Bool();
}

// caught_message(made), caught_repr(made), caught_type_name: str(e), repr(e) and type(e).__name__ of
// the fault the innermost enclosing handler took (codegen/raised.h), a fault of the kinds @p made has
// the bits of going back to CPython; caught_is(mask): isinstance(e, classes) of that fault, the fault
// kinds @p mask has the bits of. Masks are int literals.
Type CaughtMessage(const std::string& name, const Args& args) {
  int64_t masks = name == "caught_type_name" ? 0 : 1;
  Count(name, args, masks, masks);
  if (masks && !args[0].As<IntImmNode>()) Bad(name, args);
  return name == "caught_is" ? Bool() : StringType::Make();
}

// opt_some(x): x as an Optional of its type; opt_none(): None of the Optional type PrimCall
// names (the one op typed by its call: nothing else says which Optional).
Type OptSome(const std::string& name, const Args& args) {
  if (name == "opt_none") {
    Count(name, args, 0, 0);
    rt::ThrowTypeError("op opt_none takes its Optional type from PrimCall");
  }
  Count(name, args, 1, 1);
  return OptionalType::Make(Arg(args, 0));
}

// opt_is_none(x): bool; opt_value(x): the value (None goes back to CPython, which raises its own error).
Type OptQuery(const std::string& name, const Args& args) {
  Count(name, args, 1, 1);
  const auto* o = Arg(args, 0).As<OptionalTypeNode>();
  if (!o) Bad(name, args);
  return name == "opt_is_none" ? Bool() : o->item_type;
}

const std::vector<std::pair<std::string, Checker>>& OpTable() {
  // neg/pos: unary -/+; check_range_step: returns its argument, ValueError if zero (range()).
  static const std::vector<std::pair<std::string, Checker>> table = {
      {"neg", Numeric},          {"pos", Numeric},           {"abs", Numeric},
      {"min", MinMax},           {"max", MinMax},            {"float", ToFloat},
      {"int", ToInt},            {"bool", ToBool},           {"check_range_step", RangeStep},
      {"str", ToStr},            {"len", Len},               {"contains", Contains},
      {"concat", Concat},        {"repeat", Repeat},         {"ord", Ord},
      {"chr", Chr},              {"sum", Sum},               {"sorted", Sorted},
      {"list_copy", ListCopy},   {"tuple_copy", ListCopy},   {"str_chars", StrChars},    {"set_from_list", SetFromList},
      {"iter_list", Iter},       {"iter_str", Iter},         {"iter_keys", Iter},
      {"iter_set", Iter},        {"set_folded", SetFolded},  {"set_frozen", SetFolded},
      {"set_from_keys", SetFromList},
      {"iter_values", Iter},     {"iter_items", Iter},       {"iter_next", IterNext},
      {"iter_value", IterValue},
      {"pow", Pow},              {"bit_and", BitOp},         {"bit_or", BitOp},
      {"bit_xor", BitOp},        {"lshift", OfInts},         {"rshift", OfInts},
      {"invert", OfInts},        {"math_gcd", OfInts},       {"math_isqrt", OfInts},
      {"math_factorial", OfInts}, {"pow_mod", OfInts},        {"round", Round},
      {"bin", IntText},          {"oct", IntText},           {"hex", IntText},
      {"float_is_integer", FloatTest},
      {"raise_in_python", Raising}, {"raise_text", Raising},
      {"raise_called", Raising},  {"raise_caught", Raising},  {"caught_message", CaughtMessage},
      {"caught_repr", CaughtMessage}, {"caught_type_name", CaughtMessage}, {"caught_is", CaughtMessage},
      {"format", FormatValue},   {"repr", FormatValue},
      {"opt_some", OptSome},     {"opt_none", OptSome},      {"opt_is_none", OptQuery},
      {"opt_value", OptQuery},
      {"math_sqrt", MathOfNumbers}, {"math_exp", MathOfNumbers}, {"math_exp2", MathOfNumbers},
      {"math_expm1", MathOfNumbers}, {"math_sin", MathOfNumbers}, {"math_cos", MathOfNumbers},
      {"math_tan", MathOfNumbers}, {"math_asin", MathOfNumbers}, {"math_acos", MathOfNumbers},
      {"math_atan", MathOfNumbers}, {"math_sinh", MathOfNumbers}, {"math_cosh", MathOfNumbers},
      {"math_tanh", MathOfNumbers}, {"math_fabs", MathOfNumbers}, {"math_cbrt", MathOfNumbers},
      {"math_log", MathOfNumbers}, {"math_log2", MathOfNumbers}, {"math_log10", MathOfNumbers},
      {"math_log1p", MathOfNumbers}, {"math_degrees", MathOfNumbers}, {"math_radians", MathOfNumbers},
      {"math_log_base", MathOfNumbers}, {"math_atan2", MathOfNumbers}, {"math_copysign", MathOfNumbers},
      {"math_fmod", MathOfNumbers}, {"math_pow", MathOfNumbers}, {"math_floor", MathOfNumbers},
      {"math_ceil", MathOfNumbers}, {"math_trunc", MathOfNumbers}, {"math_isnan", MathOfNumbers},
      {"math_isinf", MathOfNumbers}, {"math_isfinite", MathOfNumbers},
  };
  return table;
}

Checker Find(const std::string& name) {
  for (const auto& e : OpTable()) {
    if (e.first == name) return e.second;
  }
  return nullptr;
}

}  // namespace

const std::vector<std::string>& BuiltinOpNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& e : OpTable()) v.push_back(e.first);
    return v;
  }();
  return names;
}

Type OpResultType(const std::string& name, const Args& args) {
  if (IsBoxedOp(name)) return BoxedOpResultType(name, args);
  Checker c = Find(name);
  if (c == nullptr) rt::ThrowValueError("unknown built-in op '" + name + "'");
  return c(name, args);
}

Op Op::Get(const std::string& name) {
  if (Find(name) == nullptr && !IsBoxedOp(name)) rt::ThrowValueError("unknown built-in op '" + name + "'");
  auto n = rt::MakeObject<OpNode>();
  n->name = name;
  return Op(rt::object_p<rt::object_t>(n));
}

GlobalVar GlobalVar::Make(std::string name) {
  auto n = rt::MakeObject<GlobalVarNode>();
  n->name_hint = std::move(name);
  return GlobalVar(rt::object_p<rt::object_t>(n));
}

}  // namespace spine::compiler
