// The `ast.*` constructors of the scalar expressions, statements and
// functions (the frontend builds C++ nodes by name through the
// registry) and `ast.AsText`. Types: type_registry.cc; container and class
// expressions: container_registry.cc.
#include "registry_util.h"
#include "spine/compiler/function.h"
#include "spine/compiler/printer.h"
#include "spine/runtime/registry.h"

namespace spine::compiler {
namespace {

using rt::Arg;
using rt::McValue;


REGISTER_GLOBAL("ast.IntImm").Params({Arg("datatype"), Arg("value")}).SetBody([](std::string t, int64_t v) {
  return IntImm::Make(rt::DataType::Parse(t), v);
});
REGISTER_GLOBAL("ast.FloatImm").Params({Arg("value")}).SetBody([](double v) { return FloatImm::Make(v); });
REGISTER_GLOBAL("ast.StringImm").Params({Arg("value")}).SetBody([](std::string v) {
  return StringImm::Make(std::move(v));
});
REGISTER_GLOBAL("ast.PrimVar").Params({Arg("name"), Arg("datatype")}).SetBody([](std::string n, McValue t) {
  return PrimVar::Make(std::move(n), TypeArg(t));
});

#define SPINE_REGISTER_BINARY(Name)                                                         \
  REGISTER_GLOBAL("ast." #Name).Params({Arg("a"), Arg("b")}).SetBody([](PrimExpr a, PrimExpr b) { \
    return Name::Make(std::move(a), std::move(b));                                          \
  })
SPINE_REGISTER_BINARY(PrimAdd);
SPINE_REGISTER_BINARY(PrimSub);
SPINE_REGISTER_BINARY(PrimMul);
SPINE_REGISTER_BINARY(PrimDiv);
SPINE_REGISTER_BINARY(PrimFloorDiv);
SPINE_REGISTER_BINARY(PrimFloorMod);
SPINE_REGISTER_BINARY(PrimEQ);
SPINE_REGISTER_BINARY(PrimNE);
SPINE_REGISTER_BINARY(PrimLT);
SPINE_REGISTER_BINARY(PrimLE);
SPINE_REGISTER_BINARY(PrimGT);
SPINE_REGISTER_BINARY(PrimGE);
SPINE_REGISTER_BINARY(PrimAnd);
SPINE_REGISTER_BINARY(PrimOr);
#undef SPINE_REGISTER_BINARY

REGISTER_GLOBAL("ast.PrimNot").Params({Arg("a")}).SetBody([](PrimExpr a) { return PrimNot::Make(std::move(a)); });
REGISTER_GLOBAL("ast.PrimIfThenElse")
    .Params({Arg("cond"), Arg("then_case"), Arg("else_case")})
    .SetBody([](PrimExpr c, PrimExpr t, PrimExpr e) { return PrimIfThenElse::Make(c, t, e); });
REGISTER_GLOBAL("ast.PrimLet").Params({Arg("var"), Arg("value"), Arg("body")}).SetBody(
    [](PrimVar v, PrimExpr value, PrimExpr body) { return PrimLet::Make(v, value, body); });
REGISTER_GLOBAL("ast.Op").Params({Arg("name")}).SetBody([](std::string n) { return Op::Get(n); });
REGISTER_GLOBAL("ast.GlobalVar").Params({Arg("name")}).SetBody([](std::string n) { return GlobalVar::Make(n); });
REGISTER_GLOBAL("ast.PrimCall").Params({Arg("datatype"), Arg("op"), Arg("args")}).SetBody(
    [](McValue t, BaseExpr op, McValue args) {
      return PrimCall::Make(TypeArg(t), std::move(op), ToArray<PrimExpr>(args, "ast.PrimCall"));
    });

REGISTER_GLOBAL("ast.ExprStmt").Params({Arg("expr")}).SetBody([](BaseExpr e) { return ExprStmt::Make(e); });
REGISTER_GLOBAL("ast.AllocaVarStmt").Params({Arg("var"), Arg("init_value", McValue())}).SetBody([](PrimVar v, McValue e) {
  return AllocaVarStmt::Make(v, Optional<PrimExpr>(e));
});
REGISTER_GLOBAL("ast.AssignStmt").Params({Arg("lhs"), Arg("rhs")}).SetBody([](PrimVar v, PrimExpr e) {
  return AssignStmt::Make(v, e);
});
REGISTER_GLOBAL("ast.ReturnStmt").Params({Arg("value", McValue())}).SetBody([](McValue e) {
  return ReturnStmt::Make(Optional<PrimExpr>(e));
});
REGISTER_GLOBAL("ast.SeqStmt").Params({Arg("seq")}).SetBody([](McValue seq) {
  return SeqStmt::Make(ToArray<Stmt>(seq, "ast.SeqStmt"));
});
REGISTER_GLOBAL("ast.IfStmt")
    .Params({Arg("cond"), Arg("then_case"), Arg("else_case", McValue())})
    .SetBody([](PrimExpr c, Stmt t, McValue e) { return IfStmt::Make(c, t, Optional<Stmt>(e)); });
REGISTER_GLOBAL("ast.WhileStmt").Params({Arg("cond"), Arg("body")}).SetBody([](PrimExpr c, Stmt b) {
  return WhileStmt::Make(c, b);
});
REGISTER_GLOBAL("ast.TryStmt")
    .Params({Arg("body"), Arg("masks"), Arg("handlers")})
    .SetBody([](Stmt b, McValue masks, McValue handlers) {
      return TryStmt::Make(b, ToArray<PrimExpr>(masks, "ast.TryStmt"), ToArray<Stmt>(handlers, "ast.TryStmt"));
    });
REGISTER_GLOBAL("ast.FinallyStmt").Params({Arg("body"), Arg("final")}).SetBody([](Stmt b, Stmt f) {
  return FinallyStmt::Make(b, f);
});
REGISTER_GLOBAL("ast.Break").SetBody([] { return BreakStmt::Make(); });
REGISTER_GLOBAL("ast.Continue").SetBody([] { return ContinueStmt::Make(); });

REGISTER_GLOBAL("ast.PrimFunc")
    .Params({Arg("name"), Arg("params"), Arg("defaults"), Arg("body"), Arg("ret_type")})
    .SetBody([](std::string name, McValue params, McValue defaults, Stmt body, Type ret) {
      return PrimFunc::Make(std::move(name), ToArray<PrimVar>(params, "ast.PrimFunc"),
                            ToArray<PrimExpr>(defaults, "ast.PrimFunc"), std::move(body), std::move(ret));
    });
// The list, dict and set parameters whose contents go back to the caller (PrimFuncNode::writeback).
REGISTER_GLOBAL("ast.PrimFuncWriteBack").Params({Arg("function"), Arg("params")}).SetBody([](PrimFunc f, McValue ps) {
  rt::Array<PrimVar> vars = ToArray<PrimVar>(ps, "ast.PrimFuncWriteBack");
  for (const PrimVar& v : vars) {
    bool is_param = false;
    for (const PrimVar& p : f->params) is_param = is_param || p.same_as(v);
    if (!is_param || !(v.type().As<ListTypeNode>() || v.type().As<DictTypeNode>() || v.type().As<SetTypeNode>())) {
      rt::ThrowTypeError("ast.PrimFuncWriteBack: not a list, dict or set parameter");
    }
  }
  const_cast<PrimFuncNode*>(f.operator->())->writeback = std::move(vars);
  return f;
});
REGISTER_GLOBAL("ast.IRModule").Params({Arg("functions", McValue())}).SetBody([](McValue fns) {
  IRModule m = IRModule::Make();
  if (!fns.IsNull()) {
    for (const PrimFunc& f : ToArray<PrimFunc>(fns, "ast.IRModule")) m.Add(f);
  }
  return m;
});
REGISTER_GLOBAL("ast.IRModuleAdd").Params({Arg("module"), Arg("function")}).SetBody([](IRModule m, PrimFunc f) {
  return m.Add(f);
});
REGISTER_GLOBAL("ast.AsText").Params({Arg("node")}).SetBody([](AstRef n) { return AsText(n); });

}  // namespace
}  // namespace spine::compiler
