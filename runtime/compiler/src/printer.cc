// AstPrinter: Python-like text; `name: type` on definitions so types are visible.
#include "spine/compiler/printer.h"

#include <cstdio>

namespace spine::compiler {

namespace {
std::string FloatText(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}
// Python's repr of a str, enough for printing: quotes and backslash escapes.
std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}
}  // namespace

Doc AstPrinter::Print(const rt::object_r& node) {
  if (!node.defined()) return Doc() << "None";
  if (node.As<PrimExprNode>()) return VisitExpr(node.AsRef<PrimExpr>());
  if (node.As<StmtNode>()) return VisitStmt(node.AsRef<Stmt>());
  if (node.As<TypeNode>()) return VisitType(node.AsRef<Type>());
  if (const auto* f = node.As<PrimFuncNode>()) return PrintFunc(f);
  if (const auto* g = node.As<GlobalVarNode>()) return Doc() << "@" << g->name_hint;
  if (const auto* o = node.As<OpNode>()) return Doc() << o->name;
  if (const auto* m = node.As<IRModuleNode>()) {
    Doc d;
    bool first = true;
    for (const BaseFunc& f : m->functions) {
      if (!first) d << Doc::NewLine() << Doc::NewLine();
      first = false;
      d << Print(f);
    }
    return d;
  }
  rt::ThrowTypeError("ast.AsText: cannot print a '" + node.get()->Name() + "'");
}

Doc AstPrinter::PrintFunc(const PrimFuncNode* f) {
  Doc d;
  d << "def " << f->name << "(";
  size_t i = 0;
  for (const PrimVar& p : f->params) {
    if (i++) d << ", ";
    d << p->var_name << ": " << TypeText(p.type());
  }
  d << ") -> " << Print(f->ret_type) << ":";
  return d << Block(f->body);
}

Doc AstPrinter::Block(const Stmt& s) {
  Doc body;
  // A SeqStmt prints one line per statement; anything else is a one-statement block.
  if (const auto* seq = s.As<SeqStmtNode>()) {
    if (seq->seq.size() == 0) body << Doc::NewLine() << "pass";
    for (const Stmt& st : seq->seq) body << Doc::NewLine() << Print(st);
  } else {
    body << Doc::NewLine() << Print(s);
  }
  return Doc::Indent(2, body);
}

Doc AstPrinter::Binary(const PrimBinaryOpNode* n, const char* op) {
  return Doc() << "(" << Print(n->a) << " " << op << " " << Print(n->b) << ")";
}

Doc AstPrinter::VisitExpr_(const IntImmNode* n) {
  if (n->datatype == kBool) return Doc() << (n->value ? "True" : "False");
  return Doc() << std::to_string(n->value);
}
Doc AstPrinter::VisitExpr_(const FloatImmNode* n) { return Doc() << FloatText(n->value); }
Doc AstPrinter::VisitExpr_(const StringImmNode* n) { return Doc() << Quote(n->value); }
Doc AstPrinter::VisitExpr_(const PrimVarNode* n) { return Doc() << n->var_name; }
Doc AstPrinter::VisitExpr_(const PrimNotNode* n) { return Doc() << "(not " << Print(n->a) << ")"; }
Doc AstPrinter::VisitExpr_(const PrimIfThenElseNode* n) {
  return Doc() << "(" << Print(n->then_case) << " if " << Print(n->cond) << " else " << Print(n->else_case) << ")";
}
Doc AstPrinter::VisitExpr_(const PrimLetNode* n) {
  return Doc() << "(" << n->var->var_name << " := " << Print(n->value) << "; " << Print(n->body) << ")";
}
Doc AstPrinter::VisitExpr_(const PrimCallNode* n) {
  Doc d;
  d << Print(n->op) << "(";
  size_t i = 0;
  for (const PrimExpr& a : n->args) {
    if (i++) d << ", ";
    d << Print(a);
  }
  return d << ")";
}

Doc AstPrinter::VisitStmt_(const ExprStmtNode* n) { return Print(n->expr); }
Doc AstPrinter::VisitStmt_(const AllocaVarStmtNode* n) {
  Doc d;
  d << n->var->var_name << ": " << TypeText(n->var.type());
  if (n->init_value.defined()) d << " = " << Print(n->init_value);
  return d;
}
Doc AstPrinter::VisitStmt_(const AssignStmtNode* n) { return Doc() << Print(n->lhs) << " = " << Print(n->rhs); }
Doc AstPrinter::VisitStmt_(const ReturnStmtNode* n) {
  return n->value.defined() ? Doc() << "return " << Print(n->value) : Doc() << "return";
}
Doc AstPrinter::VisitStmt_(const SeqStmtNode* n) {
  Doc d;
  size_t i = 0;
  for (const Stmt& s : n->seq) {
    if (i++) d << Doc::NewLine();
    d << Print(s);
  }
  return d;
}
Doc AstPrinter::VisitStmt_(const IfStmtNode* n) {
  Doc d;
  d << "if " << Print(n->cond) << ":" << Block(n->then_case);
  if (n->else_case.defined()) d << Doc::NewLine() << "else:" << Block(n->else_case);
  return d;
}
Doc AstPrinter::VisitStmt_(const WhileStmtNode* n) {
  return Doc() << "while " << Print(n->cond) << ":" << Block(n->body);
}
Doc AstPrinter::VisitStmt_(const TryStmtNode* n) {
  Doc d;
  d << "try:" << Block(n->body);
  for (size_t i = 0; i < n->handlers.size(); ++i) {
    d << Doc::NewLine() << "except (fault kinds " << Print(n->masks[static_cast<int64_t>(i)]) << "):"
      << Block(n->handlers[static_cast<int64_t>(i)]);
  }
  return d;
}
Doc AstPrinter::VisitStmt_(const FinallyStmtNode* n) {
  return Doc() << "try:" << Block(n->body) << Doc::NewLine() << "finally:" << Block(n->final);
}
Doc AstPrinter::VisitStmt_(const BreakStmtNode*) { return Doc() << "break"; }
Doc AstPrinter::VisitStmt_(const ContinueStmtNode*) { return Doc() << "continue"; }

Doc AstPrinter::TypeDoc(const TypeNode* n) {
  return Doc() << TypeText(Type(rt::object_p<rt::object_t>(const_cast<TypeNode*>(n))));
}

Doc AstPrinter::Items(const rt::Array<PrimExpr>& items) {
  Doc d;
  size_t i = 0;
  for (const PrimExpr& a : items) {
    if (i++) d << ", ";
    d << Print(a);
  }
  return d;
}

Doc AstPrinter::VisitExpr_(const ListLiteralNode* n) { return Doc() << "[" << Items(n->items) << "]"; }
Doc AstPrinter::VisitExpr_(const SetLiteralNode* n) {
  if (n->items.size() == 0) return Doc() << "set()";
  return Doc() << "{" << Items(n->items) << "}";
}
Doc AstPrinter::VisitExpr_(const DictLiteralNode* n) {
  Doc d;
  d << "{";
  for (size_t i = 0; i < n->keys.size(); ++i) {
    if (i) d << ", ";
    d << Print(n->keys[static_cast<int64_t>(i)]) << ": " << Print(n->values[static_cast<int64_t>(i)]);
  }
  return d << "}";
}
Doc AstPrinter::VisitExpr_(const TupleLiteralNode* n) {
  return Doc() << "(" << Items(n->items) << (n->items.size() == 1 ? ",)" : ")");
}
Doc AstPrinter::VisitExpr_(const ContainerGetItemNode* n) { return Doc() << Print(n->object) << "[" << Print(n->index) << "]"; }
Doc AstPrinter::VisitExpr_(const ContainerSetItemNode* n) {
  return Doc() << Print(n->object) << "[" << Print(n->index) << "] = " << Print(n->value);
}
Doc AstPrinter::VisitExpr_(const ContainerDelItemNode* n) {
  return Doc() << "del " << Print(n->object) << "[" << Print(n->index) << "]";
}
Doc AstPrinter::VisitExpr_(const ContainerGetSliceNode* n) {
  Doc d;
  d << Print(n->object) << "[";
  if (n->start.defined()) d << Print(n->start);
  d << ":";
  if (n->stop.defined()) d << Print(n->stop);
  if (n->step.defined()) d << ":" << Print(n->step);
  return d << "]";
}
Doc AstPrinter::VisitExpr_(const ContainerMethodCallNode* n) {
  return Doc() << Print(n->object) << "." << n->method << "(" << Items(n->args) << ")";
}
Doc AstPrinter::VisitExpr_(const ClassNewNode* n) {
  return Doc() << TypeText(n->checked_type) << "(" << Items(n->args) << ")";
}
Doc AstPrinter::VisitExpr_(const ClassGetAttrNode* n) { return Doc() << Print(n->object) << "." << n->attr; }
Doc AstPrinter::VisitExpr_(const ClassSetAttrNode* n) {
  return Doc() << Print(n->object) << "." << n->attr << " = " << Print(n->value);
}
Doc AstPrinter::VisitExpr_(const ClassRefOpNode* n) {
  Doc d;
  d << n->op << "[" << TypeText(n->cls) << "](";
  if (n->object.defined()) d << Print(n->object);
  return d << ")";
}
Doc AstPrinter::VisitExpr_(const ModuleInstanceNode* n) { return Doc() << n->name; }
Doc AstPrinter::VisitExpr_(const BlockExprNode* n) {
  return Doc() << "block:" << Block(n->body) << Doc::NewLine() << "-> " << Print(n->value);
}

std::string AsText(const rt::object_r& node) {
  AstPrinter p;
  return p.Print(node).str();
}

}  // namespace spine::compiler
