// The `ast.*` constructors of the container, class and block expressions.
#include "registry_util.h"
#include "spine/compiler/block_expr.h"
#include "spine/compiler/class_expr.h"
#include "spine/compiler/container_expr.h"
#include "spine/runtime/registry.h"

namespace spine::compiler {
namespace {

using rt::Arg;
using rt::McValue;

REGISTER_GLOBAL("ast.ListLiteral").Params({Arg("type"), Arg("items")}).SetBody([](Type t, McValue items) {
  return ListLiteral::Make(std::move(t), ToArray<PrimExpr>(items, "ast.ListLiteral"));
});
REGISTER_GLOBAL("ast.SetLiteral").Params({Arg("type"), Arg("items")}).SetBody([](Type t, McValue items) {
  return SetLiteral::Make(std::move(t), ToArray<PrimExpr>(items, "ast.SetLiteral"));
});
REGISTER_GLOBAL("ast.DictLiteral")
    .Params({Arg("type"), Arg("keys"), Arg("values")})
    .SetBody([](Type t, McValue keys, McValue values) {
      return DictLiteral::Make(std::move(t), ToArray<PrimExpr>(keys, "ast.DictLiteral"),
                               ToArray<PrimExpr>(values, "ast.DictLiteral"));
    });
REGISTER_GLOBAL("ast.TupleLiteral").Params({Arg("items")}).SetBody([](McValue items) {
  return TupleLiteral::Make(ToArray<PrimExpr>(items, "ast.TupleLiteral"));
});
REGISTER_GLOBAL("ast.ContainerGetItem").Params({Arg("object"), Arg("index")}).SetBody([](PrimExpr o, PrimExpr i) {
  return ContainerGetItem::Make(std::move(o), std::move(i));
});
REGISTER_GLOBAL("ast.ContainerSetItem")
    .Params({Arg("object"), Arg("index"), Arg("value")})
    .SetBody([](PrimExpr o, PrimExpr i, PrimExpr v) { return ContainerSetItem::Make(o, i, v); });
REGISTER_GLOBAL("ast.ContainerDelItem").Params({Arg("object"), Arg("index")}).SetBody([](PrimExpr o, PrimExpr i) {
  return ContainerDelItem::Make(std::move(o), std::move(i));
});
REGISTER_GLOBAL("ast.ContainerGetSlice")
    .Params({Arg("object"), Arg("start", McValue()), Arg("stop", McValue()), Arg("step", McValue())})
    .SetBody([](PrimExpr o, McValue a, McValue b, McValue c) {
      return ContainerGetSlice::Make(o, Optional<PrimExpr>(a), Optional<PrimExpr>(b), Optional<PrimExpr>(c));
    });
REGISTER_GLOBAL("ast.ContainerMethodCall")
    .Params({Arg("object"), Arg("method"), Arg("args")})
    .SetBody([](PrimExpr o, std::string m, McValue args) {
      return ContainerMethodCall::Make(std::move(o), std::move(m), ToArray<PrimExpr>(args, "ast.ContainerMethodCall"));
    });
REGISTER_GLOBAL("ast.ClassNew").Params({Arg("cls"), Arg("args")}).SetBody([](Type cls, McValue args) {
  return ClassNew::Make(std::move(cls), ToArray<PrimExpr>(args, "ast.ClassNew"));
});
REGISTER_GLOBAL("ast.ClassGetAttr").Params({Arg("object"), Arg("attr")}).SetBody([](PrimExpr o, std::string a) {
  return ClassGetAttr::Make(std::move(o), std::move(a));
});
REGISTER_GLOBAL("ast.ClassSetAttr")
    .Params({Arg("object"), Arg("attr"), Arg("value")})
    .SetBody([](PrimExpr o, std::string a, PrimExpr v) { return ClassSetAttr::Make(o, std::move(a), v); });
REGISTER_GLOBAL("ast.ClassRefOp")
    .Params({Arg("op"), Arg("object"), Arg("cls")})
    .SetBody([](std::string op, McValue o, Type cls) {
      return ClassRefOp::Make(std::move(op), Optional<PrimExpr>(o), std::move(cls));
    });
REGISTER_GLOBAL("ast.ModuleInstance")
    .Params({Arg("name"), Arg("slot"), Arg("cls")})
    .SetBody([](std::string name, int64_t slot, Type cls) {
      return ModuleInstance::Make(std::move(name), slot, std::move(cls));
    });
REGISTER_GLOBAL("ast.BlockExpr").Params({Arg("body"), Arg("value")}).SetBody([](Stmt body, PrimExpr value) {
  return BlockExpr::Make(std::move(body), std::move(value));
});

}  // namespace
}  // namespace spine::compiler
