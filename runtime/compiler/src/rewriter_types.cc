// The C++ face of types: value types, function symbols and class structs.
#include <functional>
#include <map>
#include <set>

#include "spine/compiler/rewriter.h"

namespace spine::compiler {

std::string Rewriter::CType(rt::DataType t) {
  if (t == kInt64) return "int64_t";
  if (t == kFloat64) return "double";
  if (t == kBool) return "bool";
  rt::ThrowTypeError("code generation does not support type " + t.ToString() + " yet");
}

std::string Rewriter::CType(const Type& t) {
  if (const auto* p = t.As<PrimTypeNode>()) return CType(p->dtype);
  if (t.As<StringTypeNode>()) return "spine_cg::Str";
  if (t.As<NoneTypeNode>()) return "void";
  if (t.As<ObjectTypeNode>()) return "spine_cg::Box";
  if (const auto* l = t.As<ListTypeNode>()) {
    return std::string(l->is_tuple ? "spine_cg::VarTuple<" : "spine_cg::List<") + CType(l->item_type) + ">";
  }
  if (const auto* s = t.As<SetTypeNode>()) return "spine_cg::Set<" + CType(s->item_type) + ">";
  if (const auto* o = t.As<OptionalTypeNode>()) return "spine_cg::Opt<" + CType(o->item_type) + ">";
  if (const auto* d = t.As<DictTypeNode>()) {
    return "spine_cg::Dict<" + CType(d->key_type) + ", " + CType(d->value_type) + ">";
  }
  if (const auto* u = t.As<TupleTypeNode>()) {
    std::string s = "spine_cg::Tuple<";
    for (size_t i = 0; i < u->fields.size(); ++i) s += (i ? ", " : "") + CType(u->fields[static_cast<int64_t>(i)]);
    return s + ">";
  }
  if (const auto* c = t.As<ClassTypeNode>()) return "spine_cg::Ref<" + ClassStruct(c->name) + ">";
  if (const auto* it = t.As<IteratorTypeNode>()) {
    if (it->kind == "list") return "spine_cg::ListIter<" + CType(it->item_type) + ">";
    if (it->kind == "str") return "spine_cg::StrIter";
    if (it->kind == "set") return "spine_cg::SetIter<" + CType(it->item_type) + ">";
    const auto* d = it->sources[0].As<DictTypeNode>();
    const char* proj = it->kind == "keys" ? "KeysOf" : it->kind == "values" ? "ValuesOf" : "ItemsOf";
    return "spine_cg::DictIter<" + CType(d->key_type) + ", " + CType(d->value_type) + ", spine_cg::" + proj + ">";
  }
  rt::ThrowTypeError("code generation does not support type " + TypeText(t));
}

std::string Rewriter::FuncSymbol(const std::string& name) {
  size_t dot = name.find('.');
  if (dot == std::string::npos) return "f_" + name;
  // m_<length of class>_<class>_<method>: unambiguous for any identifiers.
  return "m_" + std::to_string(dot) + "_" + name.substr(0, dot) + "_" + name.substr(dot + 1);
}

namespace {

// Every class reachable from @p t, each after its base (C++ derives the
// struct from the base's) and, where no cycle prevents it, after the
// classes its fields use (forward declarations cover the rest: a field is
// a Ref, which needs no complete type).
void CollectClasses(const Type& t, std::vector<const ClassTypeNode*>* out, std::set<std::string>* seen) {
  if (const auto* c = t.As<ClassTypeNode>()) {
    if (seen->count(c->name)) return;
    seen->insert(c->name);
    if (c->base.defined()) CollectClasses(c->base, out, seen);
    for (const Type& f : c->field_types) CollectClasses(f, out, seen);
    out->push_back(c);
    return;
  }
  if (const auto* l = t.As<ListTypeNode>()) return CollectClasses(l->item_type, out, seen);
  if (const auto* s = t.As<SetTypeNode>()) return CollectClasses(s->item_type, out, seen);
  if (const auto* o = t.As<OptionalTypeNode>()) return CollectClasses(o->item_type, out, seen);
  if (const auto* d = t.As<DictTypeNode>()) {
    CollectClasses(d->key_type, out, seen);
    return CollectClasses(d->value_type, out, seen);
  }
  if (const auto* u = t.As<TupleTypeNode>()) {
    for (const Type& f : u->fields) CollectClasses(f, out, seen);
  }
}

}  // namespace

void Rewriter::EmitClasses(const rt::Array<PrimFunc>& functions, std::ostream& os) {
  // Every class has an __init__ method taking the instance, and any class a
  // function uses is reachable from some signature or from a class's fields.
  std::vector<const ClassTypeNode*> classes;
  std::set<std::string> seen;
  for (const PrimFunc& f : functions) {
    for (const PrimVar& p : f->params) CollectClasses(p.type(), &classes, &seen);
    CollectClasses(f->ret_type, &classes, &seen);
  }
  for (const ClassTypeNode* c : classes) os << "struct " << ClassStruct(c->name) << ";\n";
  // The last id of each class's subtree (ids are given in preorder): isinstance is a range test.
  std::map<std::string, int64_t> subtree_end;
  for (const ClassTypeNode* c : classes) {
    for (const ClassTypeNode* a = c; a; a = a->base.defined() ? a->base.As<ClassTypeNode>() : nullptr) {
      int64_t& end = subtree_end[a->name];
      end = end > c->type_id ? end : c->type_id;
    }
  }
  for (const ClassTypeNode* c : classes) {
    const auto* base = c->base.defined() ? c->base.As<ClassTypeNode>() : nullptr;
    std::string name = ClassStruct(c->name);
    os << "struct " << name;
    if (base) os << " : " << ClassStruct(base->name);
    os << " {\n";
    if (!base) os << "  int64_t rc = 1;\n";
    if (c->type_id >= 0) {
      // A hierarchy: the most derived constructor leaves its id; a reference to
      // a base releases the whole object (virtual destructor).
      if (!base) os << "  int64_t tid;\n  virtual ~" << name << "() {}\n";
      os << "  static constexpr int64_t kTid = " << c->type_id << ", kTidEnd = " << subtree_end[c->name] << ";\n";
      os << "  " << name << "() { this->tid = kTid; }\n";
    }
    size_t inherited = base ? base->field_names.size() : 0;
    for (size_t i = inherited; i < c->field_names.size(); ++i) {
      const Type& t = c->field_types[static_cast<int64_t>(i)];
      os << "  " << CType(t) << " f_" << c->field_names[static_cast<int64_t>(i)].view() << (IsScalarType(t) ? "{};\n" : ";\n");
    }
    os << "};\n\n";
  }
}

}  // namespace spine::compiler
