// PrimCall: calls of module functions/methods and of the built-in ops.
#include "spine/compiler/rewriter.h"

namespace spine::compiler {

void Rewriter::VisitExpr_(const PrimCallNode* n, std::ostream& os) {
  if (const auto* g = n->op.As<GlobalVarNode>()) return EmitGlobalCall(g, n, os);
  if (IsVarTupleType(n->checked_type)) {
    // The list functions (concat, repeat, copy) build a List<T>; the result is a tuple of its items.
    os << CType(n->checked_type) << "(";
    EmitOp(n->op.As<OpNode>()->name, n, os);
    os << ")";
    return;
  }
  EmitOp(n->op.As<OpNode>()->name, n, os);
}

void Rewriter::EmitGlobalCall(const GlobalVarNode* g, const PrimCallNode* n, std::ostream& os) {
  auto it = functions_->find(g->name_hint);
  if (it == functions_->end()) rt::ThrowValueError("call of unknown function '" + g->name_hint + "'");
  const PrimFunc& callee = it->second;
  if (callee->params.size() != n->args.size()) {
    rt::ThrowTypeError("call of '" + g->name_hint + "' with " + std::to_string(n->args.size()) +
                       " arguments, it takes " + std::to_string(callee->params.size()));
  }
  if (!TypeEqual(callee->ret_type, n->checked_type)) {
    rt::ThrowTypeError("call of '" + g->name_hint + "': wrong result type");
  }
  std::vector<PrimExpr> args;
  for (size_t i = 0; i < n->args.size(); ++i) {
    const PrimExpr& a = n->args[static_cast<int64_t>(i)];
    // Parameters are typed exactly, as at the module boundary: no silent int -> float.
    if (!TypeEqual(a.type(), callee->params[static_cast<int64_t>(i)].type())) {
      rt::ThrowTypeError("call of '" + g->name_hint + "': argument " + std::to_string(i + 1) + " has the wrong type");
    }
    args.push_back(a);
  }
  Call(FuncSymbol(g->name_hint), args, os);
}

namespace {
bool IsFloat(const PrimExpr& e) { return IsScalarType(e.type()) && e.dtype() == kFloat64; }
}  // namespace

void Rewriter::EmitOp(const std::string& op, const PrimCallNode* n, std::ostream& os) {
  std::vector<PrimExpr> args;
  for (const PrimExpr& a : n->args) args.push_back(a);
  if (op == "raise_in_python") {  // an op without operands
    os << "(spine_cg::raise_in_python(), false)";
    return;
  }
  // The others: the handler's fault is in scope (codegen/raised.h).
  static const std::map<std::string, std::string> kCaught = {{"caught_message", "spine_cg::CaughtText"},
                                                             {"caught_repr", "spine_cg::CaughtRepr"},
                                                             {"caught_type_name", "spine_cg::CaughtTypeName"}};
  auto read = kCaught.find(op);
  if (read != kCaught.end() || op == "raise_caught" || op == "caught_is") {
    if (caught_.empty()) rt::ThrowValueError(op + " outside an except handler");
    const std::string& f = caught_.back();
    if (read != kCaught.end()) {
      os << read->second << "(" << f;
      for (const PrimExpr& mask : args) os << ", " << mask.As<IntImmNode>()->value << "LL";
      os << ")";
    } else if (op == "caught_is") {
      os << "(((" << args[0].As<IntImmNode>()->value << "LL >> " << f << ".kind) & 1) != 0)";
    } else {
      os << "(spine_cg::RethrowFault(" << f << "), false)";
    }
    return;
  }
  if (op == "box_caught" || op == "box_rethrow") {  // codegen/boxed.h, given the handler's fault
    if (caught_.empty()) rt::ThrowValueError(op + " outside an except handler");
    const std::string& f = caught_.back();
    if (op == "box_caught") {
      os << "spine_cg::CaughtObject(" << f << ", " << f << "_handling)";  // every catch declares it (rewriter.cc)
    } else {
      os << "(spine_cg::Rethrow(" << f << ", ";
      VisitExpr(args[0], os);
      os << "), false)";
    }
    return;
  }
  if (op == "opt_none") {  // no operands: the Optional type says everything
    os << CType(n->checked_type) << "{}";
    return;
  }
  if (op == "box_unbox") {  // the call's type says what to read the object as
    Call("spine_cg::Unbox<" + CType(n->checked_type) + ">", args, os);
    return;
  }
  if (op.compare(0, 4, "box_") == 0) {  // codegen/boxed.h: one function per op
    Call("spine_cg::" + op, args, os);
    return;
  }
  const PrimExpr& x = args[0];
  bool f = IsFloat(x);
  const Type& t0 = x.type();
  if (op == "neg") {
    os << (f ? "(-" : "spine_cg::neg_i(");
    EmitAs(x, f ? kFloat64 : kInt64, os);
    os << ")";
  } else if (op == "pos") {
    EmitAs(x, f ? kFloat64 : kInt64, os);
  } else if (op == "abs") {
    os << (f ? "__builtin_fabs(" : "spine_cg::abs_i(");
    EmitAs(x, f ? kFloat64 : kInt64, os);
    os << ")";
  } else if ((op == "min" || op == "max") && args.size() == 1) {
    os << "spine_cg::list_minmax(";
    VisitExpr(x, os);
    os << (op == "max" ? ", true)" : ", false)");
  } else if (op == "min" || op == "max") {
    // Python: min(a, b) is b if b < a else a (the first of equals wins); max mirrors it.
    std::string ta = Temp(), tb = Temp(), ct = CType(n->checked_type);
    os << "({ " << ct << " " << ta << " = " << Render(args[0]) << "; " << ct << " " << tb << " = " << Render(args[1])
       << "; spine_cg::Less(" << (op == "min" ? tb + ", " + ta : ta + ", " + tb) << ") ? " << tb << " : " << ta << "; })";
  } else if (op == "float") {
    EmitAs(x, kFloat64, os);
  } else if (op == "int") {
    if (t0.As<StringTypeNode>() && args.size() == 2) {
      Sequence(args, [&](const std::vector<std::string>& a) {
        os << "spine_cg::str_to_int(" << a[0] << ", int64_t(" << a[1] << "))";
      }, os);
    } else if (t0.As<StringTypeNode>()) {
      Call("spine_cg::str_to_int", args, os);
    } else if (f) {
      Call("spine_cg::int_f", args, os);
    } else {
      EmitAs(x, kInt64, os);
    }
  } else if (op == "round") {
    // round_f(x), round_fn(x, n) of a float; round_in(x, n) of an int (or a bool), which round(x) is as is.
    if (!f && args.size() == 1) {
      EmitAs(x, kInt64, os);
    } else {
      Sequence(args, [&](const std::vector<std::string>& a) {
        os << (!f ? "spine_cg::round_in(int64_t(" : args.size() == 1 ? "spine_cg::round_f((" : "spine_cg::round_fn((")
           << a[0] << ")";
        if (a.size() == 2) os << ", int64_t(" << a[1] << ")";
        os << ")";
      }, os);
    }
  } else if (op == "float_is_integer") {
    Call("spine_cg::float_is_integer", args, os);
  } else if (op == "bin" || op == "oct" || op == "hex") {
    Sequence(args, [&](const std::vector<std::string>& a) { os << "spine_cg::int_" << op << "(int64_t(" << a[0] << "))"; },
             os);
  } else if (op == "bool") {
    if (x.dtype() == kBool) {
      VisitExpr(x, os);
    } else {
      os << "(";
      VisitExpr(x, os);
      os << (f ? " != 0.0)" : " != 0)");
    }
  } else if (op == "check_range_step") {
    Call("spine_cg::range_step", args, os);
  } else if (op == "str") {
    if (t0.As<StringTypeNode>()) {
      VisitExpr(x, os);
    } else {
      Call(x.dtype() == kBool ? "spine_cg::str_from_bool" : "spine_cg::str_from_int", args, os);
    }
  } else if (op == "format" || op == "repr") {
    // Overloaded on the operand's C++ type (int64_t, bool, double, Str): each rendered as exactly that.
    Sequence(args, [&](const std::vector<std::string>& a) {
      const char* cast = t0.As<StringTypeNode>() ? "" : f ? "double" : x.dtype() == kBool ? "bool" : "int64_t";
      os << "spine_cg::" << op << "_value(" << cast << "(" << a[0] << ")";
      if (a.size() > 1) os << ", " << a[1];
      os << ")";
    }, os);
  } else if (op == "len") {
    if (t0.As<StringTypeNode>()) {
      Call("spine_cg::str_len", args, os);
    } else if (const auto* u = t0.As<TupleTypeNode>()) {
      // Evaluated for its faults, then the constant length.
      os << "((void)(" << Render(x) << "), int64_t(" << u->fields.size() << "))";
    } else {
      os << "int64_t((" << Render(x) << ").size())";
    }
  } else if (op == "contains") {
    const char* fn = t0.As<StringTypeNode>() ? "spine_cg::str_contains"
                     : t0.As<ListTypeNode>() ? "spine_cg::list_contains"
                     : t0.As<DictTypeNode>() ? "spine_cg::dict_contains"
                                             : "spine_cg::set_contains";
    Call(fn, args, os);
  } else if (op == "concat") {
    Call(t0.As<StringTypeNode>() ? "spine_cg::str_concat" : "spine_cg::list_concat", args, os);
  } else if (op == "repeat") {
    Call(t0.As<StringTypeNode>() ? "spine_cg::str_repeat" : "spine_cg::list_repeat", args, os);
  } else if (op == "ord") {
    Call("spine_cg::str_ord", args, os);
  } else if (op == "chr") {
    Call("spine_cg::str_chr", args, os);
  } else if (op == "sum") {
    if (args.size() == 1) {
      os << "spine_cg::list_sum(";
      VisitExpr(x, os);
      os << ", int64_t(0))";
    } else {
      Call("spine_cg::list_sum", args, os);
    }
  } else if (op == "sorted") {
    Call(t0.As<SetTypeNode>() ? "spine_cg::set_sorted" : "spine_cg::list_sorted", args, os);
  } else if (op == "list_copy" || op == "tuple_copy") {
    Call("spine_cg::list_copy", args, os);
  } else if (op == "str_chars") {
    Call("spine_cg::str_chars", args, os);
  } else if (op == "set_from_list") {
    Call("spine_cg::set_from_list", args, os);
  } else if (op == "set_folded" || op == "set_frozen" || op == "set_from_keys") {
    Call(("spine_cg::" + op).c_str(), args, os);
  } else if (op.rfind("iter_", 0) == 0 && op != "iter_next" && op != "iter_value") {
    std::string kind = op.substr(5);
    Sequence(args, [&](const std::vector<std::string>& a) {
      os << CType(n->checked_type) << "{" << a[0];
      if (kind == "str") os << ", 0, spine_cg::Str()";
      os << "}";
    }, os);
  } else if (op == "iter_next") {
    os << Render(x) << ".Next()";
  } else if (op == "iter_value") {
    os << Render(x) << ".cur";
  } else if (op == "opt_some") {
    os << CType(n->checked_type) << "::Some(" << Render(x) << ")";
  } else if (op == "opt_is_none") {
    os << "(!(" << Render(x) << ").has)";
  } else if (op == "opt_value") {
    Call("spine_cg::opt_value", args, os);
  } else if (op == "raise_text" || op == "raise_called") {
    os << "(";
    Call("spine_cg::" + op, args, os);
    os << ", false)";
  } else if (op.rfind("math_", 0) == 0 && (op == "math_floor" || op == "math_ceil" || op == "math_trunc") && !f) {
    EmitAs(x, kInt64, os);  // of an int: the int itself
  } else if (op.rfind("math_", 0) == 0 || op == "pow" || op == "pow_mod" || op.rfind("bit_", 0) == 0 || op == "lshift" ||
             op == "rshift" || op == "invert") {
    EmitNumeric(op, args, os);
  } else {
    rt::ThrowValueError("code generation does not know op '" + op + "'");
  }
}

void Rewriter::EmitNumeric(const std::string& op, const std::vector<PrimExpr>& args,
                           std::ostream& os) {
  // The C++ function and the type its operands are converted to (Python converts ints to floats
  // for math's float functions; bools are ints).
  std::string fn, cast = "double";
  bool all_bool = true;
  for (const PrimExpr& a : args) all_bool = all_bool && a.dtype() == kBool;
  if (op == "pow") {
    bool any_float = false;
    for (const PrimExpr& a : args) any_float = any_float || IsFloat(a);
    fn = any_float ? "spine_cg::pow_f" : "spine_cg::pow_i";
    cast = any_float ? "double" : "int64_t";
  } else if (op.rfind("bit_", 0) == 0) {
    fn = "spine_cg::" + op.substr(4) + (all_bool ? "_b" : "_i");
    cast = all_bool ? "bool" : "int64_t";
  } else if (op == "lshift" || op == "rshift" || op == "invert") {
    fn = "spine_cg::" + op + "_i";
    cast = "int64_t";
  } else if (op == "math_gcd" || op == "math_isqrt" || op == "math_factorial" || op == "pow_mod") {
    fn = "spine_cg::" + op;
    cast = "int64_t";
  } else {
    fn = "spine_cg::" + op;
  }
  Sequence(args, [&](const std::vector<std::string>& a) {
    os << fn << "(";
    for (size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << cast << "(" << a[i] << ")";
    os << ")";
  }, os);
}

}  // namespace spine::compiler
