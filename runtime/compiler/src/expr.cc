// Expression constructors and the type rules of the subset (seed 001:
// "comparisons give bool, float literals give float64, arithmetic merges
// the operand types"). Invalid trees are rejected here, at construction, so
// that every later pass may assume a well-typed tree.
#include "spine/compiler/expr.h"

#include <algorithm>

#include "spine/runtime/error.h"

namespace spine::compiler {

bool IsSupportedScalar(rt::DataType t) noexcept { return t == kInt64 || t == kFloat64 || t == kBool; }

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
  n->datatype = t;
  return R(rt::object_p<rt::object_t>(n));
}

template <typename R, typename N>
R MakeArith(PrimExpr a, PrimExpr b, const char* what) {
  RequireScalar(a, what);
  RequireScalar(b, what);
  rt::DataType t = Arith(a.dtype(), b.dtype());
  return MakeBinary<R, N>(std::move(a), std::move(b), t);
}

template <typename R, typename N>
R MakeCompare(PrimExpr a, PrimExpr b, const char* what) {
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
  n->datatype = t;
  n->value = value;
  return IntImm(rt::object_p<rt::object_t>(n));
}

FloatImm FloatImm::Make(double value) {
  auto n = rt::MakeObject<FloatImmNode>();
  n->datatype = kFloat64;
  n->value = value;
  return FloatImm(rt::object_p<rt::object_t>(n));
}

StringImm StringImm::Make(std::string value) {
  auto n = rt::MakeObject<StringImmNode>();
  n->datatype = rt::DataType::Handle();
  n->value = std::move(value);
  return StringImm(rt::object_p<rt::object_t>(n));
}

PrimVar PrimVar::Make(std::string name, rt::DataType t) {
  if (name.empty()) rt::ThrowValueError("PrimVar: empty name");
  auto n = rt::MakeObject<PrimVarNode>();
  n->var_name = std::move(name);
  n->datatype = t;
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
PrimEQ PrimEQ::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimEQ, PrimEQNode>(a, b, "PrimEQ"); }
PrimNE PrimNE::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimNE, PrimNENode>(a, b, "PrimNE"); }
PrimLT PrimLT::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimLT, PrimLTNode>(a, b, "PrimLT"); }
PrimLE PrimLE::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimLE, PrimLENode>(a, b, "PrimLE"); }
PrimGT PrimGT::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimGT, PrimGTNode>(a, b, "PrimGT"); }
PrimGE PrimGE::Make(PrimExpr a, PrimExpr b) { return MakeCompare<PrimGE, PrimGENode>(a, b, "PrimGE"); }
PrimAnd PrimAnd::Make(PrimExpr a, PrimExpr b) { return MakeLogic<PrimAnd, PrimAndNode>(a, b, "PrimAnd"); }
PrimOr PrimOr::Make(PrimExpr a, PrimExpr b) { return MakeLogic<PrimOr, PrimOrNode>(a, b, "PrimOr"); }

PrimNot PrimNot::Make(PrimExpr a) {
  RequireScalar(a, "PrimNot");
  if (a.dtype() != kBool) rt::ThrowTypeError("PrimNot needs a bool operand; convert with the 'bool' op");
  auto n = rt::MakeObject<PrimNotNode>();
  n->a = std::move(a);
  n->datatype = kBool;
  return PrimNot(rt::object_p<rt::object_t>(n));
}

PrimIfThenElse PrimIfThenElse::Make(PrimExpr cond, PrimExpr then_case, PrimExpr else_case) {
  RequireScalar(cond, "PrimIfThenElse");
  RequireScalar(then_case, "PrimIfThenElse");
  RequireScalar(else_case, "PrimIfThenElse");
  if (cond.dtype() != kBool) rt::ThrowTypeError("PrimIfThenElse: condition must be bool");
  if (then_case.dtype() != else_case.dtype()) {
    rt::ThrowTypeError("PrimIfThenElse: branches have different types " + TypeText(then_case.dtype()) + " and " +
                       TypeText(else_case.dtype()));
  }
  auto n = rt::MakeObject<PrimIfThenElseNode>();
  n->datatype = then_case.dtype();
  n->cond = std::move(cond);
  n->then_case = std::move(then_case);
  n->else_case = std::move(else_case);
  return PrimIfThenElse(rt::object_p<rt::object_t>(n));
}

PrimLet PrimLet::Make(PrimVar var, PrimExpr value, PrimExpr body) {
  RequireScalar(var, "PrimLet");
  RequireScalar(value, "PrimLet");
  RequireScalar(body, "PrimLet");
  if (var.dtype() != value.dtype()) rt::ThrowTypeError("PrimLet: variable and value types differ");
  auto n = rt::MakeObject<PrimLetNode>();
  n->datatype = body.dtype();
  n->var = std::move(var);
  n->value = std::move(value);
  n->body = std::move(body);
  return PrimLet(rt::object_p<rt::object_t>(n));
}

const std::vector<std::string>& BuiltinOpNames() {
  // neg/pos: unary -/+; abs/min/max/float/int/bool: the Python builtins;
  // check_range_step: returns its argument, ValueError if zero (range()).
  static const std::vector<std::string> names = {"neg", "pos", "abs", "min", "max",
                                                 "float", "int", "bool", "check_range_step"};
  return names;
}

Op Op::Get(const std::string& name) {
  const auto& names = BuiltinOpNames();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    rt::ThrowValueError("unknown built-in op '" + name + "'");
  }
  auto n = rt::MakeObject<OpNode>();
  n->name = name;
  return Op(rt::object_p<rt::object_t>(n));
}

GlobalVar GlobalVar::Make(std::string name) {
  auto n = rt::MakeObject<GlobalVarNode>();
  n->name_hint = std::move(name);
  return GlobalVar(rt::object_p<rt::object_t>(n));
}

namespace {

// Result type of built-in op @p name applied to @p args; throws on misuse.
rt::DataType OpResultType(const std::string& name, const rt::Array<PrimExpr>& args) {
  auto want = [&](size_t n) {
    if (args.size() != n) {
      rt::ThrowTypeError("op " + name + " takes " + std::to_string(n) + " argument(s), got " +
                         std::to_string(args.size()));
    }
    for (const PrimExpr& a : args) RequireScalar(a, name.c_str());
  };
  if (name == "min" || name == "max") {
    want(2);
    // The result is one of the operands, so mixed types would make the type depend on the values.
    if (args[0].dtype() != args[1].dtype()) rt::ThrowTypeError("op " + name + " needs operands of one type");
    return args[0].dtype();
  }
  want(1);
  rt::DataType t = args[0].dtype();
  if (name == "neg" || name == "pos" || name == "abs") return t == kFloat64 ? kFloat64 : kInt64;
  if (name == "float") return kFloat64;
  if (name == "int") return kInt64;
  if (name == "bool") return kBool;
  if (name == "check_range_step") {
    if (t != kInt64) rt::ThrowTypeError("op check_range_step needs an int64");
    return kInt64;
  }
  rt::ThrowValueError("unknown built-in op '" + name + "'");
}

}  // namespace

PrimCall PrimCall::Make(rt::DataType t, BaseExpr op, rt::Array<PrimExpr> args) {
  if (const auto* o = op.As<OpNode>()) {
    t = OpResultType(o->name, args);
  } else if (op.As<GlobalVarNode>()) {
    for (const PrimExpr& a : args) RequireScalar(a, "PrimCall");
  } else {
    rt::ThrowTypeError("PrimCall: op must be an Op or a GlobalVar");
  }
  auto n = rt::MakeObject<PrimCallNode>();
  n->datatype = t;
  n->op = std::move(op);
  n->args = std::move(args);
  return PrimCall(rt::object_p<rt::object_t>(n));
}

}  // namespace spine::compiler
