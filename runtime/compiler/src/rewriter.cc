// Rewriter: PrimFunc -> C++ definition, scalar expressions and statements.
// Ops: rewriter_ops.cc; str/containers/classes: rewriter_container.cc;
// C++ types and class structs: rewriter_types.cc.
#include "spine/compiler/rewriter.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "spine/compiler/module_abi.h"

namespace spine::compiler {

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
// Leaves cannot fault or change anything, so their evaluation order is unobservable.
bool IsLeaf(const PrimExpr& e) {
  return e.As<PrimVarNode>() || e.As<IntImmNode>() || e.As<FloatImmNode>() || e.As<StringImmNode>();
}
}  // namespace

std::string Rewriter::Render(const PrimExpr& e, rt::DataType t) {
  std::ostringstream os;
  EmitAs(e, t, os);
  return os.str();
}

std::string Rewriter::Render(const PrimExpr& e) {
  std::ostringstream os;
  VisitExpr(e, os);
  return os.str();
}

void Rewriter::Sequence(const std::vector<PrimExpr>& operands,
                        const std::function<void(const std::vector<std::string>&)>& combine, std::ostream& os) {
  size_t complex = 0;
  for (const PrimExpr& e : operands) complex += e.defined() && !IsLeaf(e);
  std::vector<std::string> names;
  if (complex < 2) {
    for (const PrimExpr& e : operands) names.push_back(e.defined() ? Render(e) : std::string());
    combine(names);
    return;
  }
  // Python's left-to-right order: each non-trivial operand into a temporary, in order.
  os << "({ ";
  for (const PrimExpr& e : operands) {
    if (!e.defined() || IsLeaf(e)) {
      names.push_back(e.defined() ? Render(e) : std::string());
      continue;
    }
    std::string t = Temp();
    os << CType(e.type()) << " " << t << " = " << Render(e) << "; ";
    names.push_back("spine_cg::Move(" + t + ")");
  }
  combine(names);
  os << "; })";
}

void Rewriter::Call(const std::string& fn, const std::vector<PrimExpr>& operands, std::ostream& os) {
  Sequence(operands, [&](const std::vector<std::string>& a) {
    os << fn << "(";
    for (size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << a[i];
    os << ")";
  }, os);
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
  if (!IsScalarType(n->a.type())) {
    std::string o(op);
    const char* test = o == "==" ? "== 0" : o == "!=" ? "!= 0" : o == "<" ? "< 0" : o == "<=" ? "<= 0" : o == ">" ? "> 0" : ">= 0";
    ObjectCompare(n, test, os);
    return;
  }
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
  os << "({ " << CType(n->var.type()) << " " << VarName(n->var.operator->()) << " = ";
  VisitExpr(n->value, os);
  os << "; ";
  VisitExpr(n->body, os);
  os << "; })";
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
  os << "(void)(";
  VisitExpr(n->expr.AsRef<PrimExpr>(), os);
  os << ");\n";
}

void Rewriter::VisitStmt_(const AllocaVarStmtNode* n, std::ostream& os) {
  Line(os);
  os << CType(n->var.type()) << " " << VarName(n->var.operator->());
  if (n->init_value.defined()) {
    os << " = ";
    VisitExpr(n->init_value.AsRef<PrimExpr>(), os);
  } else {
    os << "{}";
  }
  os << ";\n";
}

void Rewriter::VisitStmt_(const AssignStmtNode* n, std::ostream& os) {
  Line(os);
  VisitExpr(n->lhs.AsRef<PrimExpr>(), os);
  os << " = ";
  VisitExpr(n->rhs.AsRef<PrimExpr>(), os);
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

void Rewriter::VisitStmt_(const TryStmtNode* n, std::ostream& os) {
  // Zero cost until a fault: the handler tests the kind, and anything it does
  // not take (FALLBACK always) goes on unwinding with `throw;`.
  std::string fault = Temp();
  Line(os);
  os << "try";
  Block(n->body, os);
  os << " catch (const spine_cg::Fault& " << fault << ") {\n";
  int64_t taken = 0;
  for (const PrimExpr& m : n->masks) taken |= m.As<IntImmNode>()->value;
  // Handlers that take exception objects (box_caught): the one taken is handled until the catch is left.
  Line(os);
  os << "spine_cg::Handling " << fault << "_handling;\n";
  if (!((taken >> SPINE_FAULT_PYTHON) & 1)) {
    // A boxed operation's exception (of a function this one calls) reaching handlers that match
    // native faults only: CPython runs the call, whose except clauses match it.
    Line(os);
    os << "if (" << fault << ".kind == SPINE_FAULT_PYTHON) spine_cg::Raise(SPINE_FAULT_FALLBACK, \"a Python "
       << "exception native handlers cannot match\");\n";
  } else {
    // Handlers of exception objects cannot build one of the program's classes: CPython runs the call.
    Line(os);
    os << "if (" << fault << ".kind >= spine_cg::kFirstClassFault) spine_cg::Raise(SPINE_FAULT_FALLBACK, \"an "
       << "exception of the program's class handlers of Python objects cannot match\");\n";
  }
  caught_.push_back(fault);
  for (size_t i = 0; i < n->handlers.size(); ++i) {
    Line(os);
    os << (i ? "else if" : "if") << " ((" << n->masks[static_cast<int64_t>(i)].As<IntImmNode>()->value << "LL >> "
       << fault << ".kind) & 1)";
    Block(n->handlers[static_cast<int64_t>(i)], os);
    os << "\n";
  }
  caught_.pop_back();
  Line(os);
  os << "else throw;\n";
  Line(os);
  os << "}\n";
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

std::string Rewriter::Prototype(const PrimFunc& f) {
  std::string s = CType(f->ret_type) + " " + FuncSymbol(f->name) + "(";
  size_t i = 0;
  for (const PrimVar& p : f->params) {
    if (i++) s += ", ";
    s += CType(p.type()) + " " + VarName(p.operator->());
  }
  return s + ")";
}

void Rewriter::EmitFunction(const PrimFunc& f, std::ostream& os) {
  if (f->defaults.size() != 0) rt::ThrowValueError(f->name + ": default arguments are not supported by codegen yet");
  ret_type_ = f->ret_type;
  os << Prototype(f) << " {\n";
  indent_ = 1;
  Line(os);
  os << "spine_cg::DepthGuard depth_guard;\n";
  VisitStmt(f->body, os);
  // The frontend proves every path of a value function returns; a
  // hand-built tree that does not gets a fallback instead of undefined
  // behaviour. A None function may end anywhere.
  if (!ret_type_.As<NoneTypeNode>()) {
    Line(os);
    os << "spine_cg::Raise(SPINE_FAULT_FALLBACK, \"function ended without return\");\n";
  }
  indent_ = 0;
  os << "}\n";
}

}  // namespace spine::compiler
