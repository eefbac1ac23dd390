// Expression constructors and the type rules of the subset
// ("comparisons give bool, float literals give float64, arithmetic merges
// the operand types"). Invalid trees are rejected here, at construction, so
// that every later pass may assume a well-typed tree.
#include "spine/compiler/expr.h"

#include <algorithm>

#include "spine/runtime/error.h"

namespace spine::compiler {

bool IsSupportedScalar(rt::DataType t) noexcept { return t == kInt64 || t == kFloat64 || t == kBool; }

void SetExprType(PrimExprNode* n, Type t) {
  n->datatype = RuntimeDataType(t);
  n->checked_type = std::move(t);
}

namespace {

std::string TypeText(rt::DataType t) { return t.ToString(); }

void RequireScalar(const PrimExpr& e, const char* what) {
  if (!e.defined()) rt::ThrowTypeError(std::string(what) + ": operand is undefined");
  if (!IsSupportedScalar(e.dtype())) {
    rt::ThrowTypeError(std::string(what) + ": unsupported operand type " + TypeText(e.dtype()));
  }
}

// Python's numeric tower restricted to bool < int < float.
rt::DataType Arith(rt::DataType a, rt::DataType b) {
  if (a == kFloat64 || b == kFloat64) return kFloat64;
  return kInt64;
}

template <typename R, typename N>
R MakeBinary(PrimExpr a, PrimExpr b, rt::DataType t) {
  auto n = rt::MakeObject<N>();
  n->a = std::move(a);
  n->b = std::move(b);
  SetExprType(n.get(), ScalarType(t));
  return R(rt::object_p<rt::object_t>(n));
}

void RequireValue(const PrimExpr& e, const char* what) {
  if (!e.defined()) rt::ThrowTypeError(std::string(what) + ": operand is undefined");
  if (e.type().As<NoneTypeNode>()) rt::ThrowTypeError(std::string(what) + ": a None-valued call is not a value");
}

// Comparison of two objects: one type; containers holding floats are refused
// (CPython compares their elements by identity first, which NaN makes visible).
template <typename R, typename N>
R MakeObjectCompare(PrimExpr a, PrimExpr b, const char* what, bool ordering) {
  RequireValue(a, what);
  RequireValue(b, what);
  const Type& t = a.type();
  if (!TypeEqual(t, b.type())) {
    rt::ThrowTypeError(std::string(what) + ": cannot compare " + TypeText(t) + " with " + TypeText(b.type()));
  }
  if (t.As<IteratorTypeNode>()) rt::ThrowTypeError(std::string(what) + ": iterators are not compared");
  if (ContainsFloat(t)) {
    rt::ThrowTypeError(std::string(what) + ": " + TypeText(t) + " holds floats, which CPython compares by identity first");
  }
  if (ordering && !IsOrderedType(t)) rt::ThrowTypeError(std::string(what) + ": " + TypeText(t) + " is not ordered");
  return MakeBinary<R, N>(std::move(a), std::move(b), kBool);
}

template <typename R, typename N>
R MakeArith(PrimExpr a, PrimExpr b, const char* what) {
  RequireScalar(a, what);
  RequireScalar(b, what);
  rt::DataType t = Arith(a.dtype(), b.dtype());
  return MakeBinary<R, N>(std::move(a), std::move(b), t);
}

template <typename R, typename N>
R MakeCompare(PrimExpr a, PrimExpr b, const char* what, bool ordering) {
  if (a.defined() && b.defined() && (!IsScalarType(a.type()) || !IsScalarType(b.type()))) {
    return MakeObjectCompare<R, N>(std::move(a), std::move(b), what, ordering);
  }
  RequireScalar(a, what);
  RequireScalar(b, what);
  return MakeBinary<R, N>(std::move(a), std::move(b), kBool);
}

template <typename R, typename N>
R MakeLogic(PrimExpr a, PrimExpr b, const char* what) {
  RequireScalar(a, what);
  RequireScalar(b, what);
  if (a.dtype() != kBool || b.dtype() != kBool) {
    rt::ThrowTypeError(std::string(what) + " needs bool operands; lower value-returning and/or with PrimLet");
  }
  return MakeBinary<R, N>(std::move(a), std::move(b), kBool);
}

}  // namespace

IntImm IntImm::Make(rt::DataType t, int64_t value) {
  if (t != kInt64 && t != kBool) rt::ThrowTypeError("IntImm: type must be int64 or bool, got " + TypeText(t));
  if (t == kBool && value != 0 && value != 1) rt::ThrowValueError("IntImm: a bool constant must be 0 or 1");
  auto n = rt::MakeObject<IntImmNode>();
  SetExprType(n.get(), ScalarType(t));
  n->value = value;
  return IntImm(rt::object_p<rt::object_t>(n));
}

FloatImm FloatImm::Make(double value) {
  auto n = rt::MakeObject<FloatImmNode>();
  SetExprType(n.get(), ScalarType(kFloat64));
  n->value = value;
  return FloatImm(rt::object_p<rt::object_t>(n));
}

StringImm StringImm::Make(std::string value) {
  auto n = rt::MakeObject<StringImmNode>();
  SetExprType(n.get(), StringType::Make());
  n->value = std::move(value);
  return StringImm(rt::object_p<rt::object_t>(n));
}

PrimVar PrimVar::Make(std::string name, rt::DataType t) { return Make(std::move(name), ScalarType(t)); }

PrimVar PrimVar::Make(std::string name, Type t) {
  if (name.empty()) rt::ThrowValueError("PrimVar: empty name");
  if (!t.defined() || t.As<NoneTypeNode>()) rt::ThrowTypeError("PrimVar: '" + name + "' needs a value type");
  auto n = rt::MakeObject<PrimVarNode>();
  n->var_name = std::move(name);
  SetExprType(n.get(), std::move(t));
  return PrimVar(rt::object_p<rt::object_t>(n));
}

PrimAdd PrimAdd::Make(PrimExpr a, PrimExpr b) { return MakeArith<PrimAdd, PrimAddNode>(a, b, "PrimAdd"); }
PrimSub PrimSub::Make(PrimExpr a, PrimExpr b) { return MakeArith<PrimSub, PrimSubNode>(a, b, "PrimSub"); }
PrimMul PrimMul::Make(PrimExpr a, PrimExpr b) { return MakeArith<PrimMul, PrimMulNode>(a, b, "PrimMul"); }
PrimFloorDiv PrimFloorDiv::Make(PrimExpr a, PrimExpr b) {
  return MakeArith<PrimFloorDiv, PrimFloorDivNode>(a, b, "PrimFloorDiv");
}
PrimFloorMod PrimFloorMod::Make(PrimExpr a, PrimExpr b) {
  return MakeArith<PrimFloorMod, PrimFloorModNode>(a, b, "PrimFloorMod");
}
PrimDiv PrimDiv::Make(PrimExpr a, PrimExpr b) {
  RequireScalar(a, "PrimDiv");
  RequireScalar(b, "PrimDiv");
  return MakeBinary<PrimDiv, PrimDivNode>(std::move(a), std::move(b), kFloat64);
}
PrimEQ PrimEQ::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimEQ, PrimEQNode>(a, b, "PrimEQ", false); }
PrimNE PrimNE::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimNE, PrimNENode>(a, b, "PrimNE", false); }
PrimLT PrimLT::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimLT, PrimLTNode>(a, b, "PrimLT", true); }
PrimLE PrimLE::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimLE, PrimLENode>(a, b, "PrimLE", true); }
PrimGT PrimGT::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimGT, PrimGTNode>(a, b, "PrimGT", true); }
PrimGE PrimGE::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimGE, PrimGENode>(a, b, "PrimGE", true); }
PrimAnd PrimAnd::Make(PrimExpr a, PrimExpr b) { return MakeLogic<PrimAnd, PrimAndNode>(a, b, "PrimAnd"); }
PrimOr PrimOr::Make(PrimExpr a, PrimExpr b) { return MakeLogic<PrimOr, PrimOrNode>(a, b, "PrimOr"); }

PrimNot PrimNot::Make(PrimExpr a) {
  RequireScalar(a, "PrimNot");
  if (a.dtype() != kBool) rt::ThrowTypeError("PrimNot needs a bool operand; convert with the 'bool' op");
  auto n = rt::MakeObject<PrimNotNode>();
  n->a = std::move(a);
  SetExprType(n.get(), ScalarType(kBool));
  return PrimNot(rt::object_p<rt::object_t>(n));
}

PrimIfThenElse PrimIfThenElse::Make(PrimExpr cond, PrimExpr then_case, PrimExpr else_case) {
  RequireScalar(cond, "PrimIfThenElse");
  RequireValue(then_case, "PrimIfThenElse");
  RequireValue(else_case, "PrimIfThenElse");
  if (cond.dtype() != kBool) rt::ThrowTypeError("PrimIfThenElse: condition must be bool");
  if (!TypeEqual(then_case.type(), else_case.type())) {
    rt::ThrowTypeError("PrimIfThenElse: branches have different types " + TypeText(then_case.type()) + " and " +
                       TypeText(else_case.type()));
  }
  auto n = rt::MakeObject<PrimIfThenElseNode>();
  SetExprType(n.get(), then_case.type());
  n->cond = std::move(cond);
  n->then_case = std::move(then_case);
  n->else_case = std::move(else_case);
  return PrimIfThenElse(rt::object_p<rt::object_t>(n));
}

PrimLet PrimLet::Make(PrimVar var, PrimExpr value, PrimExpr body) {
  RequireValue(var, "PrimLet");
  RequireValue(value, "PrimLet");
  RequireValue(body, "PrimLet");
  if (!TypeEqual(var.type(), value.type())) rt::ThrowTypeError("PrimLet: variable and value types differ");
  auto n = rt::MakeObject<PrimLetNode>();
  SetExprType(n.get(), body.type());
  n->var = std::move(var);
  n->value = std::move(value);
  n->body = std::move(body);
  return PrimLet(rt::object_p<rt::object_t>(n));
}

PrimCall PrimCall::Make(Type t, BaseExpr op, rt::Array<PrimExpr> args) {
  if (const auto* o = op.As<OpNode>(); o && o->name == "opt_none") {
    if (args.size() != 0 || !t.defined() || !t.As<OptionalTypeNode>()) {
      rt::ThrowTypeError("PrimCall: opt_none takes no operands and an Optional result type");
    }
  } else if (o && o->name == "box_unbox") {  // a boxed value read as the type the call names
    if (args.size() != 1 || !args[0].defined() || !args[0]->checked_type.As<ObjectTypeNode>() || !t.defined() ||
        t.As<NoneTypeNode>() || t.As<ObjectTypeNode>()) {
      rt::ThrowTypeError("PrimCall: box_unbox takes one object and a typed result");
    }
  } else if (o) {
    t = OpResultType(o->name, args);
  } else if (op.As<GlobalVarNode>()) {
    for (const PrimExpr& a : args) RequireValue(a, "PrimCall");
    if (!t.defined()) rt::ThrowTypeError("PrimCall: undefined result type");
  } else {
    rt::ThrowTypeError("PrimCall: op must be an Op or a GlobalVar");
  }
  auto n = rt::MakeObject<PrimCallNode>();
  SetExprType(n.get(), std::move(t));
  n->op = std::move(op);
  n->args = std::move(args);
  return PrimCall(rt::object_p<rt::object_t>(n));
}

}  // namespace spine::compiler
