// Rewriter: str literals, containers, class instances and block
// expressions, mapped onto the native library of codegen/*.h.
#include <sstream>

#include "spine/compiler/method_table.h"
#include "spine/compiler/rewriter.h"

namespace spine::compiler {

void Rewriter::EmitStrLiteral(const std::string& bytes, std::ostream& os) {
  // Octal escapes (always three digits) for anything but plain printable
  // ASCII: unambiguous, and the literal's bytes are exactly the UTF-8.
  bool ascii = true;
  os << "spine_cg::Str::View(\"";
  for (unsigned char c : bytes) {
    ascii = ascii && c < 0x80;
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') {
      os << static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\%03o", c);
      os << buf;
    }
  }
  os << "\", " << bytes.size() << ", " << (ascii ? 1 : 0) << ")";
}

void Rewriter::ObjectCompare(const PrimBinaryOpNode* n, const char* test, std::ostream& os) {
  std::string traits = "spine_cg::Traits<" + CType(n->a.type()) + ">";
  std::string t(test);
  bool eq = t == "== 0" || t == "!= 0";
  Sequence({n->a, n->b}, [&](const std::vector<std::string>& a) {
    if (eq) {
      os << "(" << (t == "!= 0" ? "!" : "") << traits << "::Eq(" << a[0] << ", " << a[1] << "))";
    } else {
      os << "(" << traits << "::Cmp(" << a[0] << ", " << a[1] << ") " << test << ")";
    }
  }, os);
}

void Rewriter::VisitExpr_(const ListLiteralNode* n, std::ostream& os) {
  std::string t = Temp();
  os << "({ auto " << t << " = " << CType(n->checked_type) << "::New(" << n->items.size() << "); ";
  for (const PrimExpr& e : n->items) os << t << ".Append(" << Render(e) << "); ";
  os << t << "; })";
}

void Rewriter::VisitExpr_(const SetLiteralNode* n, std::ostream& os) {
  std::string t = Temp();
  os << "({ auto " << t << " = " << CType(n->checked_type) << "::New(); ";
  for (const PrimExpr& e : n->items) os << "spine_cg::set_add(" << t << ", " << Render(e) << "); ";
  os << t << "; })";
}

void Rewriter::VisitExpr_(const DictLiteralNode* n, std::ostream& os) {
  // Python evaluates key, value, key, value, ...; each pair is sequenced.
  std::string t = Temp();
  os << "({ auto " << t << " = " << CType(n->checked_type) << "::New(); ";
  for (size_t i = 0; i < n->keys.size(); ++i) {
    os << "(void)(";
    Sequence({n->keys[static_cast<int64_t>(i)], n->values[static_cast<int64_t>(i)]},
             [&](const std::vector<std::string>& a) {
               os << "spine_cg::dict_setitem(" << t << ", " << a[0] << ", " << a[1] << ")";
             }, os);
    os << "); ";
  }
  os << t << "; })";
}

void Rewriter::VisitExpr_(const TupleLiteralNode* n, std::ostream& os) {
  // Braced initialisation runs its elements in order.
  os << CType(n->checked_type) << "{";
  for (const PrimExpr& e : n->items) os << Render(e) << ", {";
  os << std::string(n->items.size(), '}') << "}";
}

void Rewriter::VisitExpr_(const ContainerGetItemNode* n, std::ostream& os) {
  const Type& t = n->object.type();
  if (const auto* u = t.As<TupleTypeNode>()) {
    int64_t size = static_cast<int64_t>(u->fields.size());
    auto path = [](int64_t i) {
      std::string p;
      for (int64_t k = 0; k < i; ++k) p += ".tail";
      return p + ".head";
    };
    if (const auto* c = n->index.As<IntImmNode>(); c && c->datatype == kInt64) {
      int64_t i = c->value < 0 ? c->value + size : c->value;
      os << "(" << Render(n->object) << ")" << path(i);
      return;
    }
    Sequence({n->object, n->index}, [&](const std::vector<std::string>& a) {
      std::string tt = Temp(), ti = Temp();
      os << "({ auto " << tt << " = " << a[0] << "; int64_t " << ti << " = spine_cg::CheckIndex(" << a[1] << ", "
         << size << ", \"tuple index out of range\"); ";
      for (int64_t i = 0; i + 1 < size; ++i) os << ti << " == " << i << " ? " << tt << path(i) << " : ";
      os << tt << path(size - 1) << "; })";
    }, os);
    return;
  }
  const char* fn = IsVarTupleType(t) ? "spine_cg::tuple_getitem"
                   : t.As<ListTypeNode>() ? "spine_cg::list_getitem"
                   : t.As<StringTypeNode>() ? "spine_cg::str_getitem"
                                            : "spine_cg::dict_getitem";
  Call(fn, {n->object, n->index}, os);
}

void Rewriter::VisitExpr_(const ContainerSetItemNode* n, std::ostream& os) {
  // Python: the value first, then the container, then the index.
  const char* fn = n->object.type().As<ListTypeNode>() ? "spine_cg::list_setitem" : "spine_cg::dict_setitem";
  Sequence({n->value, n->object, n->index}, [&](const std::vector<std::string>& a) {
    os << fn << "(" << a[1] << ", " << a[2] << ", " << a[0] << ")";
  }, os);
}

void Rewriter::VisitExpr_(const ContainerDelItemNode* n, std::ostream& os) {
  Call(n->object.type().As<ListTypeNode>() ? "spine_cg::list_delitem" : "spine_cg::dict_delitem",
       {n->object, n->index}, os);
}

void Rewriter::VisitExpr_(const ContainerGetSliceNode* n, std::ostream& os) {
  bool is_str = n->object.type().As<StringTypeNode>() != nullptr;
  std::string o = Temp();
  os << "({ " << CType(n->object.type()) << " " << o << " = " << Render(n->object) << "; ";
  std::string parts[3];
  const PrimExpr* exprs[3] = {&n->start, &n->stop, &n->step};
  for (int i = 0; i < 3; ++i) {
    if (!exprs[i]->defined()) continue;
    parts[i] = Temp();
    os << "int64_t " << parts[i] << " = " << Render(*exprs[i]) << "; ";
  }
  // A slice of a tuple[T, ...] is a tuple of the sliced items.
  if (IsVarTupleType(n->checked_type)) os << CType(n->checked_type) << "(";
  os << (is_str ? "spine_cg::str_slice(" : "spine_cg::list_slice(") << o << ", spine_cg::AdjustSlice("
     << (is_str ? "spine_cg::str_len(" + o + ")" : o + ".size()");
  for (int i = 0; i < 3; ++i) os << ", " << (parts[i].empty() ? "false, 0" : "true, " + parts[i]);
  os << "))" << (IsVarTupleType(n->checked_type) ? ")" : "") << "; })";
}

void Rewriter::VisitExpr_(const ContainerMethodCallNode* n, std::ostream& os) {
  MethodInfo m = LookupMethod(n->object.type(), n->method, n->args);
  std::vector<PrimExpr> operands{n->object};
  for (const PrimExpr& a : n->args) operands.push_back(a);
  Call("spine_cg::" + m.function, operands, os);
}

void Rewriter::VisitExpr_(const ClassNewNode* n, std::ostream& os) {
  const auto* c = n->checked_type.As<ClassTypeNode>();
  std::string init = c->name + ".__init__";
  auto it = functions_->find(init);
  if (it == functions_->end()) rt::ThrowValueError("class '" + c->name + "' has no __init__ in this module");
  const PrimFunc& f = it->second;
  if (f->params.size() != n->args.size() + 1) rt::ThrowTypeError(init + ": wrong number of arguments");
  for (size_t i = 0; i < n->args.size(); ++i) {
    if (!TypeEqual(n->args[static_cast<int64_t>(i)].type(), f->params[static_cast<int64_t>(i + 1)].type())) {
      rt::ThrowTypeError(init + ": argument " + std::to_string(i + 1) + " has the wrong type");
    }
  }
  // Arguments first (in order), then the instance, then __init__.
  std::string self = Temp();
  os << "({ ";
  std::vector<std::string> names;
  for (const PrimExpr& a : n->args) {
    std::string t = Temp();
    os << CType(a.type()) << " " << t << " = " << Render(a) << "; ";
    names.push_back(t);
  }
  os << "auto " << self << " = " << CType(n->checked_type) << "::New(); " << FuncSymbol(init) << "(" << self;
  for (const std::string& a : names) os << ", spine_cg::Move(" << a << ")";
  os << "); " << self << "; })";
}

// A field of None is CPython's AttributeError: spine_cg::Deref falls back.
void Rewriter::VisitExpr_(const ClassGetAttrNode* n, std::ostream& os) {
  os << "spine_cg::Deref(" << Render(n->object) << ")->f_" << n->attr;
}

void Rewriter::VisitExpr_(const ClassSetAttrNode* n, std::ostream& os) {
  // Python: the value first, then the instance.
  Sequence({n->value, n->object}, [&](const std::vector<std::string>& a) {
    os << "(spine_cg::Deref(" << a[1] << ")->f_" << n->attr << " = " << a[0] << ", (void)0)";
  }, os);
}

void Rewriter::VisitExpr_(const ClassRefOpNode* n, std::ostream& os) {
  std::string cls = ClassStruct(n->cls.As<ClassTypeNode>()->name);
  if (n->op == "none") {
    os << CType(n->cls) << "()";
    return;
  }
  const char* helper = n->op == "cast" ? "RefCast" : n->op == "checked_cast" ? "RefCheckedCast"
                       : n->op == "not_none" ? "NotNone" : n->op == "is_none" ? "IsNone"
                       : n->op == "isinstance" ? "IsInstance" : "TypeId";
  os << "spine_cg::" << helper << "<" << cls << ">(" << Render(n->object) << ")";
}

void Rewriter::VisitExpr_(const ModuleInstanceNode* n, std::ostream& os) {
  const auto* c = n->checked_type.As<ClassTypeNode>();
  std::string init = c->name + ".__init__";
  auto it = functions_->find(init);
  if (it == functions_->end() || it->second->params.size() != 1) {
    rt::ThrowTypeError("module instance '" + n->name + "': " + c->name + "() must take no arguments");
  }
  // Made on first use, by the class's __init__ (the object CPython made when the module ran).
  std::string g = Temp();
  os << "({ auto& " << g << " = spine_cg::ModuleSlot<" << ClassStruct(c->name) << ", " << n->slot << ">::Get(); if (!"
     << g << ".get()) { " << g << " = " << CType(n->checked_type) << "::New(); " << FuncSymbol(init) << "(" << g
     << "); } " << g << "; })";
}

void Rewriter::VisitExpr_(const BlockExprNode* n, std::ostream& os) {
  std::ostringstream body;
  int saved = indent_;
  indent_ = 0;
  VisitStmt(n->body, body);
  indent_ = saved;
  std::string text = body.str();
  for (char& c : text) c = c == '\n' ? ' ' : c;
  os << "({ " << text << Render(n->value) << "; })";
}

}  // namespace spine::compiler
