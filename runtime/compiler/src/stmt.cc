// Statement constructors: type checks at construction (see expr.cc).
#include "spine/compiler/stmt.h"

#include "spine/runtime/error.h"

namespace spine::compiler {

ExprStmt ExprStmt::Make(BaseExpr e) {
  if (!e.defined()) rt::ThrowTypeError("ExprStmt: undefined expression");
  auto n = rt::MakeObject<ExprStmtNode>();
  n->expr = std::move(e);
  return ExprStmt(rt::object_p<rt::object_t>(n));
}

AllocaVarStmt AllocaVarStmt::Make(PrimVar var, PrimExpr init) {
  if (!var.defined()) rt::ThrowTypeError("AllocaVarStmt: undefined variable");
  if (init.defined() && !TypeEqual(var.type(), init.type())) {
    rt::ThrowTypeError("AllocaVarStmt: '" + var->var_name + "' is " + TypeText(var.type()) + ", value is " +
                       TypeText(init.type()));
  }
  auto n = rt::MakeObject<AllocaVarStmtNode>();
  n->var = std::move(var);
  n->init_value = std::move(init);
  return AllocaVarStmt(rt::object_p<rt::object_t>(n));
}

AssignStmt AssignStmt::Make(PrimVar lhs, PrimExpr rhs) {
  if (!lhs.defined() || !rhs.defined()) rt::ThrowTypeError("AssignStmt: undefined operand");
  if (!TypeEqual(lhs.type(), rhs.type())) {
    rt::ThrowTypeError("AssignStmt: '" + lhs->var_name + "' is " + TypeText(lhs.type()) + ", value is " +
                       TypeText(rhs.type()));
  }
  auto n = rt::MakeObject<AssignStmtNode>();
  n->lhs = std::move(lhs);
  n->rhs = std::move(rhs);
  return AssignStmt(rt::object_p<rt::object_t>(n));
}

ReturnStmt ReturnStmt::Make(PrimExpr value) {
  auto n = rt::MakeObject<ReturnStmtNode>();
  n->value = std::move(value);
  return ReturnStmt(rt::object_p<rt::object_t>(n));
}

SeqStmt SeqStmt::Make(rt::Array<Stmt> seq) {
  for (const Stmt& s : seq) {
    if (!s.defined()) rt::ThrowTypeError("SeqStmt: undefined statement");
  }
  auto n = rt::MakeObject<SeqStmtNode>();
  n->seq = std::move(seq);
  return SeqStmt(rt::object_p<rt::object_t>(n));
}

IfStmt IfStmt::Make(PrimExpr cond, Stmt then_case, Stmt else_case) {
  if (!cond.defined() || cond.dtype() != kBool) rt::ThrowTypeError("IfStmt: condition must be bool");
  if (!then_case.defined()) rt::ThrowTypeError("IfStmt: undefined then branch");
  auto n = rt::MakeObject<IfStmtNode>();
  n->cond = std::move(cond);
  n->then_case = std::move(then_case);
  n->else_case = std::move(else_case);
  return IfStmt(rt::object_p<rt::object_t>(n));
}

WhileStmt WhileStmt::Make(PrimExpr cond, Stmt body) {
  if (!cond.defined() || cond.dtype() != kBool) rt::ThrowTypeError("WhileStmt: condition must be bool");
  if (!body.defined()) rt::ThrowTypeError("WhileStmt: undefined body");
  auto n = rt::MakeObject<WhileStmtNode>();
  n->cond = std::move(cond);
  n->body = std::move(body);
  return WhileStmt(rt::object_p<rt::object_t>(n));
}

BreakStmt BreakStmt::Make() { return BreakStmt(rt::object_p<rt::object_t>(rt::MakeObject<BreakStmtNode>())); }

ContinueStmt ContinueStmt::Make() {
  return ContinueStmt(rt::object_p<rt::object_t>(rt::MakeObject<ContinueStmtNode>()));
}

}  // namespace spine::compiler
