// The `ast.*` constructors of the Type family, and `ast.TypeText`.
#include "registry_util.h"
#include "spine/runtime/registry.h"

namespace spine::compiler {
namespace {

using rt::Arg;
using rt::McValue;

REGISTER_GLOBAL("ast.PrimType").Params({Arg("datatype")}).SetBody([](std::string t) {
  return PrimType::Make(rt::DataType::Parse(t));
});
REGISTER_GLOBAL("ast.StringType").SetBody([] { return StringType::Make(); });
REGISTER_GLOBAL("ast.NoneType").SetBody([] { return NoneType::Make(); });
REGISTER_GLOBAL("ast.ObjectType").SetBody([] { return ObjectType::Make(); });
REGISTER_GLOBAL("ast.ListType").Params({Arg("item_type")}).SetBody([](McValue t) {
  return ListType::Make(TypeArg(t));
});
REGISTER_GLOBAL("ast.VarTupleType").Params({Arg("item_type")}).SetBody([](McValue t) {
  return ListType::Make(TypeArg(t), true);
});
REGISTER_GLOBAL("ast.SetType").Params({Arg("item_type")}).SetBody([](McValue t) { return SetType::Make(TypeArg(t)); });
REGISTER_GLOBAL("ast.OptionalType").Params({Arg("item_type")}).SetBody([](McValue t) {
  return OptionalType::Make(TypeArg(t));
});
REGISTER_GLOBAL("ast.DictType").Params({Arg("key_type"), Arg("value_type")}).SetBody([](McValue k, McValue v) {
  return DictType::Make(TypeArg(k), TypeArg(v));
});
REGISTER_GLOBAL("ast.TupleType").Params({Arg("fields")}).SetBody([](McValue fields) {
  rt::Array<Type> out;
  for (const Type& t : ToArray<Type>(fields, "ast.TupleType")) out.push_back(t);
  return TupleType::Make(out);
});
REGISTER_GLOBAL("ast.ClassType")
    .Params({Arg("name"), Arg("field_names"), Arg("field_types")})
    .SetBody([](std::string name, McValue names, McValue types) {
      return ClassType::Make(std::move(name), ToArray<rt::Str>(names, "ast.ClassType"),
                             ToArray<Type>(types, "ast.ClassType"));
    });
REGISTER_GLOBAL("ast.ClassTypeDeclare")
    .Params({Arg("name"), Arg("base"), Arg("type_id")})
    .SetBody([](std::string name, McValue base, int64_t type_id) {
      return ClassType::Declare(std::move(name), Optional<Type>(base), type_id);
    });
REGISTER_GLOBAL("ast.ClassTypeDefine")
    .Params({Arg("cls"), Arg("field_names"), Arg("field_types")})
    .SetBody([](Type cls, McValue names, McValue types) {
      if (!cls.As<ClassTypeNode>()) rt::ThrowTypeError("ast.ClassTypeDefine: not a ClassType");
      cls.AsRef<ClassType>().Define(ToArray<rt::Str>(names, "ast.ClassTypeDefine"),
                                    ToArray<Type>(types, "ast.ClassTypeDefine"));
      return true;
    });
REGISTER_GLOBAL("ast.IteratorType").Params({Arg("kind"), Arg("sources")}).SetBody([](std::string kind, McValue s) {
  return IteratorType::Make(std::move(kind), ToArray<Type>(s, "ast.IteratorType"));
});
REGISTER_GLOBAL("ast.TypeText").Params({Arg("type")}).SetBody([](Type t) { return TypeText(t); });
REGISTER_GLOBAL("ast.TypeEqual").Params({Arg("a"), Arg("b")}).SetBody([](Type a, Type b) { return TypeEqual(a, b); });

}  // namespace
}  // namespace spine::compiler
