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

TryStmt TryStmt::Make(Stmt body, rt::Array<PrimExpr> masks, rt::Array<Stmt> handlers) {
  if (!body.defined()) rt::ThrowTypeError("TryStmt: undefined body");
  if (masks.size() != handlers.size() || masks.size() == 0) rt::ThrowValueError("TryStmt: one mask per handler");
  for (const PrimExpr& m : masks) {
    const auto* imm = m.As<IntImmNode>();
    // Bit 1 is FALLBACK, which native code must never handle itself; kinds are 1..8 (PYTHON),
    // then the program's exception classes from codegen's kFirstClassFault (16) up to 62.
    if (!imm || imm->value < 0 || (imm->value & 2) || (imm->value & 0xfe00)) {
      rt::ThrowValueError("TryStmt: a mask is an int64 constant of fault kinds other than FALLBACK");
    }
  }
  for (const Stmt& h : handlers) {
    if (!h.defined()) rt::ThrowTypeError("TryStmt: undefined handler");
  }
  auto n = rt::MakeObject<TryStmtNode>();
  n->body = std::move(body);
  n->masks = std::move(masks);
  n->handlers = std::move(handlers);
  return TryStmt(rt::object_p<rt::object_t>(n));
}

FinallyStmt FinallyStmt::Make(Stmt body, Stmt final) {
  if (!body.defined() || !final.defined()) rt::ThrowTypeError("FinallyStmt: undefined block");
  auto n = rt::MakeObject<FinallyStmtNode>();
  n->body = std::move(body);
  n->final = std::move(final);
  return FinallyStmt(rt::object_p<rt::object_t>(n));
}

BreakStmt BreakStmt::Make() { return BreakStmt(rt::object_p<rt::object_t>(rt::MakeObject<BreakStmtNode>())); }

ContinueStmt ContinueStmt::Make() {
  return ContinueStmt(rt::object_p<rt::object_t>(rt::MakeObject<ContinueStmtNode>()));
}

}  // namespace spine::compiler
