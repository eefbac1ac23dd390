// Rewriter: PrimFunc -> C++ definition. See rewriter.h and codegen_support.h.
#include "spine/compiler/rewriter.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

namespace spine::compiler {

std::string Rewriter::CType(rt::DataType t) {
  if (t == kInt64) return "int64_t";
  if (t == kFloat64) return "double";
  if (t == kBool) return "bool";
  rt::ThrowTypeError("code generation does not support type " + t.ToString() + " yet");
}

std::string Rewriter::VarName(const PrimVarNode* v) {
  auto it = var_dict_.find(v);
  if (it != var_dict_.end()) return it->second;
  // Distinct symbols may share a source name (temporaries, separate
  // functions); the node is the identity. Frontend temporaries contain
  // characters C++ does not allow, so names are sanitised and then made unique.
  std::string base = "v_";
  for (char c : v->var_name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    base += ok ? c : '_';
  }
  std::string name = base;
  for (int n = 1; used_names_.count(name); ++n) name = base + "_" + std::to_string(n);
  used_names_.insert(name);
  var_dict_.emplace(v, name);
  return name;
}

std::string Rewriter::Temp() { return "t_" + std::to_string(temp_count_++); }

void Rewriter::Line(std::ostream& os) const { os << std::string(static_cast<size_t>(indent_) * 2, ' '); }

void Rewriter::EmitAs(const PrimExpr& e, rt::DataType t, std::ostream& os) {
  if (e.dtype() == t) {
    VisitExpr(e, os);
  } else {
    os << "static_cast<" << CType(t) << ">(";
    VisitExpr(e, os);
    os << ")";
  }
}

namespace {
// Leaves cannot fault, so their evaluation order is unobservable.
bool IsLeaf(const PrimExpr& e) {
  return e.As<PrimVarNode>() || e.As<IntImmNode>() || e.As<FloatImmNode>();
}
}  // namespace

std::string Rewriter::Render(const PrimExpr& e, rt::DataType t) {
  std::ostringstream os;
  EmitAs(e, t, os);
  return os.str();
}

void Rewriter::Ordered(const PrimExpr& a, rt::DataType ta, const PrimExpr& b, rt::DataType tb,
                       const std::function<void(const std::string&, const std::string&)>& combine,
                       std::ostream& os) {
  // C++ leaves the order of operand (and argument) evaluation unspecified;
  // Python evaluates left to right, and which operand faults first decides
  // the exception. Two non-trivial operands are therefore sequenced.
  if (IsLeaf(a) || IsLeaf(b)) {
    combine(Render(a, ta), Render(b, tb));
    return;
  }
  std::string x = Temp(), y = Temp();
  os << "({ " << CType(ta) << " " << x << " = " << Render(a, ta) << "; " << CType(tb) << " " << y << " = "
     << Render(b, tb) << "; ";
  combine(x, y);
  os << "; })";
}

void Rewriter::Arith(const PrimBinaryOpNode* n, const char* op, const char* int_fn, std::ostream& os) {
  rt::DataType t = n->datatype;
  Ordered(n->a, t, n->b, t, [&](const std::string& x, const std::string& y) {
    if (t == kFloat64) {
      os << "(" << x << " " << op << " " << y << ")";
    } else {
      os << "spine_cg::" << int_fn << "(" << x << ", " << y << ")";
    }
  }, os);
}

void Rewriter::Compare(const PrimBinaryOpNode* n, const char* op, const char* name, std::ostream& os) {
  bool fa = n->a.dtype() == kFloat64, fb = n->b.dtype() == kFloat64;
  rt::DataType ta = fa ? kFloat64 : kInt64, tb = fb ? kFloat64 : kInt64;
  Ordered(n->a, ta, n->b, tb, [&](const std::string& x, const std::string& y) {
    if (fa == fb) {
      os << "(" << x << " " << op << " " << y << ")";
    } else {
      // int vs float: exact comparison, not the int rounded to a float.
      os << "spine_cg::" << name << (fa ? "_fi(" : "_if(") << x << ", " << y << ")";
    }
  }, os);
}

void Rewriter::Helper(const PrimBinaryOpNode* n, rt::DataType t, const char* fn, std::ostream& os) {
  Ordered(n->a, t, n->b, t, [&](const std::string& x, const std::string& y) {
    os << "spine_cg::" << fn << "(" << x << ", " << y << ")";
  }, os);
}

void Rewriter::VisitExpr_(const IntImmNode* n, std::ostream& os) {
  if (n->datatype == kBool) {
    os << (n->value ? "true" : "false");
  } else if (n->value == INT64_MIN) {
    os << "(-INT64_C(9223372036854775807) - 1)";
  } else {
    os << "INT64_C(" << n->value << ")";
  }
}

void Rewriter::VisitExpr_(const FloatImmNode* n, std::ostream& os) {
  double v = n->value;
  if (std::isnan(v)) {
    os << "__builtin_nan(\"\")";
  } else if (std::isinf(v)) {
    os << (v > 0 ? "__builtin_inf()" : "(-__builtin_inf())");
  } else {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%a", v);  // hex float: exact
    os << "(" << buf << ")";
  }
}

void Rewriter::VisitExpr_(const PrimVarNode* n, std::ostream& os) { os << VarName(n); }

void Rewriter::VisitExpr_(const PrimDivNode* n, std::ostream& os) {
  bool ints = n->a.dtype() != kFloat64 && n->b.dtype() != kFloat64;
  Helper(n, ints ? kInt64 : kFloat64, ints ? "truediv_i" : "truediv_f", os);
}

void Rewriter::VisitExpr_(const PrimFloorDivNode* n, std::ostream& os) {
  Helper(n, n->datatype, n->datatype == kFloat64 ? "floordiv_f" : "floordiv_i", os);
}

void Rewriter::VisitExpr_(const PrimFloorModNode* n, std::ostream& os) {
  Helper(n, n->datatype, n->datatype == kFloat64 ? "floormod_f" : "floormod_i", os);
}

void Rewriter::VisitExpr_(const PrimAndNode* n, std::ostream& os) {
  os << "(";
  VisitExpr(n->a, os);
  os << " && ";
  VisitExpr(n->b, os);
  os << ")";
}

void Rewriter::VisitExpr_(const PrimOrNode* n, std::ostream& os) {
  os << "(";
  VisitExpr(n->a, os);
  os << " || ";
  VisitExpr(n->b, os);
  os << ")";
}

void Rewriter::VisitExpr_(const PrimNotNode* n, std::ostream& os) {
  os << "(!";
  VisitExpr(n->a, os);
  os << ")";
}

void Rewriter::VisitExpr_(const PrimIfThenElseNode* n, std::ostream& os) {
  os << "(";
  VisitExpr(n->cond, os);
  os << " ? ";
  VisitExpr(n->then_case, os);
  os << " : ";
  VisitExpr(n->else_case, os);
  os << ")";
}

void Rewriter::VisitExpr_(const PrimLetNode* n, std::ostream& os) {
  // A GNU statement expression: the value is computed once, in order.
  os << "({ " << CType(n->var.dtype()) << " " << VarName(n->var.operator->()) << " = ";
  VisitExpr(n->value, os);
  os << "; ";
  VisitExpr(n->body, os);
  os << "; })";
}

void Rewriter::VisitExpr_(const PrimCallNode* n, std::ostream& os) {
  if (const auto* g = n->op.As<GlobalVarNode>()) {
    auto it = functions_->find(g->name_hint);
    if (it == functions_->end()) rt::ThrowValueError("call of unknown function '" + g->name_hint + "'");
    const PrimFunc& callee = it->second;
    if (callee->params.size() != n->args.size()) {
      rt::ThrowTypeError("call of '" + g->name_hint + "' with " + std::to_string(n->args.size()) +
                         " arguments, it takes " + std::to_string(callee->params.size()));
    }
    if (callee.ret_dtype() != n->datatype) rt::ThrowTypeError("call of '" + g->name_hint + "': wrong result type");
    size_t complex_args = 0;
    for (size_t i = 0; i < n->args.size(); ++i) {
      const PrimExpr& a = n->args[static_cast<int64_t>(i)];
      // Parameters are typed exactly, as at the module boundary: no silent int -> float.
      if (a.dtype() != callee->params[static_cast<int64_t>(i)].dtype()) {
        rt::ThrowTypeError("call of '" + g->name_hint + "': argument " + std::to_string(i + 1) + " has the wrong type");
      }
      if (!IsLeaf(a)) ++complex_args;
    }
    // Arguments in Python's left-to-right order (C++ does not specify one).
    std::vector<std::string> rendered;
    bool bind = complex_args > 1;
    if (bind) os << "({ ";
    for (const PrimExpr& a : n->args) {
      std::string text = Render(a, a.dtype());
      if (bind) {
        std::string t = Temp();
        os << CType(a.dtype()) << " " << t << " = " << text << "; ";
        text = t;
      }
      rendered.push_back(text);
    }
    os << FuncSymbol(g->name_hint) << "(";
    for (size_t i = 0; i < rendered.size(); ++i) os << (i ? ", " : "") << rendered[i];
    os << ")";
    if (bind) os << "; })";
    return;
  }
  const std::string& op = n->op.As<OpNode>()->name;
  const PrimExpr& x = n->args[0];
  bool f = x.dtype() == kFloat64;
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
  } else if (op == "min" || op == "max") {
    // Python: min(a, b) is b if b < a else a (the first of equals wins); max mirrors it.
    std::string ta = Temp(), tb = Temp(), ct = CType(n->datatype);
    os << "({ " << ct << " " << ta << " = ";
    VisitExpr(n->args[0], os);
    os << "; " << ct << " " << tb << " = ";
    VisitExpr(n->args[1], os);
    os << "; " << tb << (op == "min" ? " < " : " > ") << ta << " ? " << tb << " : " << ta << "; })";
  } else if (op == "float") {
    EmitAs(x, kFloat64, os);
  } else if (op == "int") {
    if (f) {
      os << "spine_cg::int_f(";
      VisitExpr(x, os);
      os << ")";
    } else {
      EmitAs(x, kInt64, os);
    }
  } else if (op == "bool") {
    if (x.dtype() == kBool) {
      VisitExpr(x, os);
    } else {
      os << "(";
      VisitExpr(x, os);
      os << (f ? " != 0.0)" : " != 0)");
    }
  } else if (op == "check_range_step") {
    os << "spine_cg::range_step(";
    VisitExpr(x, os);
    os << ")";
  } else {
    rt::ThrowValueError("code generation does not know op '" + op + "'");
  }
}

void Rewriter::Block(const Stmt& s, std::ostream& os) {
  os << " {\n";
  ++indent_;
  VisitStmt(s, os);
  --indent_;
  Line(os);
  os << "}";
}

void Rewriter::VisitStmt_(const ExprStmtNode* n, std::ostream& os) {
  Line(os);
  os << "(void)";
  VisitExpr(n->expr.AsRef<PrimExpr>(), os);
  os << ";\n";
}

void Rewriter::VisitStmt_(const AllocaVarStmtNode* n, std::ostream& os) {
  Line(os);
  os << CType(n->var.dtype()) << " " << VarName(n->var.operator->()) << " = ";
  VisitExpr(n->init_value.AsRef<PrimExpr>(), os);
  os << ";\n";
}

void Rewriter::VisitStmt_(const AssignStmtNode* n, std::ostream& os) {
  Line(os);
  VisitExpr(n->lhs.AsRef<PrimExpr>(), os);
  os << " = ";
  VisitExpr(n->rhs.AsRef<PrimExpr>(), os);
  os << ";\n";
}

void Rewriter::VisitStmt_(const ReturnStmtNode* n, std::ostream& os) {
  PrimExpr v = n->value.AsRef<PrimExpr>();
  // The declared type is what the caller gets; CPython would return the value unconverted.
  if (v.dtype() != ret_type_) {
    rt::ThrowTypeError("return of " + v.dtype().ToString() + " from a function declared " + ret_type_.ToString());
  }
  Line(os);
  os << "return ";
  VisitExpr(v, os);
  os << ";\n";
}

void Rewriter::VisitStmt_(const SeqStmtNode* n, std::ostream& os) {
  for (const Stmt& s : n->seq) VisitStmt(s, os);
}

void Rewriter::VisitStmt_(const IfStmtNode* n, std::ostream& os) {
  Line(os);
  os << "if (";
  VisitExpr(n->cond, os);
  os << ")";
  Block(n->then_case, os);
  if (n->else_case.defined()) {
    os << " else";
    Block(n->else_case, os);
  }
  os << "\n";
}

void Rewriter::VisitStmt_(const WhileStmtNode* n, std::ostream& os) {
  Line(os);
  os << "while (";
  VisitExpr(n->cond, os);
  os << ")";
  ++loop_depth_;
  Block(n->body, os);
  --loop_depth_;
  os << "\n";
}

void Rewriter::VisitStmt_(const BreakStmtNode*, std::ostream& os) {
  if (loop_depth_ == 0) rt::ThrowValueError("'break' outside loop");
  Line(os);
  os << "break;\n";
}

void Rewriter::VisitStmt_(const ContinueStmtNode*, std::ostream& os) {
  if (loop_depth_ == 0) rt::ThrowValueError("'continue' outside loop");
  Line(os);
  os << "continue;\n";
}

std::string Rewriter::Prototype(const PrimFunc& f) {
  std::string s = CType(f.ret_dtype()) + " " + FuncSymbol(f->name) + "(";
  size_t i = 0;
  for (const PrimVar& p : f->params) {
    if (i++) s += ", ";
    s += CType(p.dtype()) + " " + VarName(p.operator->());
  }
  return s + ")";
}

void Rewriter::EmitFunction(const PrimFunc& f, std::ostream& os) {
  if (f->defaults.size() != 0) rt::ThrowValueError(f->name + ": default arguments are not supported by codegen yet");
  ret_type_ = f.ret_dtype();
  os << Prototype(f) << " {\n";
  indent_ = 1;
  Line(os);
  os << "spine_cg::DepthGuard depth_guard;\n";
  VisitStmt(f->body, os);
  // The frontend proves every path returns; a hand-built tree that does not
  // gets a fallback instead of undefined behaviour.
  Line(os);
  os << "spine_cg::Raise(SPINE_FAULT_FALLBACK, \"function ended without return\");\n";
  indent_ = 0;
  os << "}\n";
}

}  // namespace spine::compiler
