// Type constructors and the queries the type rules and the code generator
// share (equality, text, hashability, mutability).
#include "spine/compiler/type.h"

#include "spine/runtime/error.h"

namespace spine::compiler {

namespace {

template <typename R, typename N>
R MakeType() {
  return R(rt::object_p<rt::object_t>(rt::MakeObject<N>()));
}

bool IsIdentifier(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

void RequireValueType(const Type& t, const char* what) {
  if (!t.defined()) rt::ThrowTypeError(std::string(what) + ": undefined type");
  if (t.As<NoneTypeNode>() || t.As<IteratorTypeNode>()) {
    rt::ThrowTypeError(std::string(what) + ": " + TypeText(t) + " is not a value type");
  }
}

// True if @p t reaches the class named @p name through its fields or elements.
bool Reaches(const Type& t, const std::string& name) {
  if (const auto* c = t.As<ClassTypeNode>()) {
    if (c->name == name) return true;
    for (const Type& f : c->field_types) {
      if (Reaches(f, name)) return true;
    }
    return false;
  }
  if (const auto* l = t.As<ListTypeNode>()) return Reaches(l->item_type, name);
  if (const auto* s = t.As<SetTypeNode>()) return Reaches(s->item_type, name);
  if (const auto* o = t.As<OptionalTypeNode>()) return Reaches(o->item_type, name);
  if (const auto* d = t.As<DictTypeNode>()) return Reaches(d->key_type, name) || Reaches(d->value_type, name);
  if (const auto* u = t.As<TupleTypeNode>()) {
    for (const Type& f : u->fields) {
      if (Reaches(f, name)) return true;
    }
  }
  return false;
}

}  // namespace

PrimType PrimType::Make(rt::DataType dtype) {
  auto n = rt::MakeObject<PrimTypeNode>();
  n->dtype = dtype;
  return PrimType(rt::object_p<rt::object_t>(n));
}

StringType StringType::Make() { return MakeType<StringType, StringTypeNode>(); }
NoneType NoneType::Make() { return MakeType<NoneType, NoneTypeNode>(); }
ObjectType ObjectType::Make() { return MakeType<ObjectType, ObjectTypeNode>(); }

ListType ListType::Make(Type item, bool is_tuple) {
  RequireValueType(item, "ListType");
  auto n = rt::MakeObject<ListTypeNode>();
  n->item_type = std::move(item);
  n->is_tuple = is_tuple ? 1 : 0;
  return ListType(rt::object_p<rt::object_t>(n));
}

SetType SetType::Make(Type item) {
  RequireValueType(item, "SetType");
  if (!IsHashableType(item)) rt::ThrowTypeError("SetType: members of type " + TypeText(item) + " are not supported");
  auto n = rt::MakeObject<SetTypeNode>();
  n->item_type = std::move(item);
  return SetType(rt::object_p<rt::object_t>(n));
}

DictType DictType::Make(Type key, Type value) {
  RequireValueType(key, "DictType");
  RequireValueType(value, "DictType");
  if (!IsHashableType(key)) rt::ThrowTypeError("DictType: keys of type " + TypeText(key) + " are not supported");
  auto n = rt::MakeObject<DictTypeNode>();
  n->key_type = std::move(key);
  n->value_type = std::move(value);
  return DictType(rt::object_p<rt::object_t>(n));
}

TupleType TupleType::Make(rt::Array<Type> fields) {
  for (const Type& f : fields) RequireValueType(f, "TupleType");
  auto n = rt::MakeObject<TupleTypeNode>();
  n->fields = std::move(fields);
  return TupleType(rt::object_p<rt::object_t>(n));
}

OptionalType OptionalType::Make(Type item) {
  RequireValueType(item, "OptionalType");
  if (item.As<OptionalTypeNode>()) rt::ThrowTypeError("OptionalType: Optional[" + TypeText(item) + "] is " + TypeText(item));
  auto n = rt::MakeObject<OptionalTypeNode>();
  n->item_type = std::move(item);
  return OptionalType(rt::object_p<rt::object_t>(n));
}

ClassType ClassType::Make(std::string name, rt::Array<rt::Str> field_names, rt::Array<Type> field_types) {
  if (!IsIdentifier(name)) rt::ThrowValueError("ClassType: '" + name + "' is not an ASCII identifier");
  if (field_names.size() != field_types.size()) rt::ThrowValueError("ClassType: field names and types differ in number");
  for (size_t i = 0; i < field_names.size(); ++i) {
    std::string f(field_names[static_cast<int64_t>(i)].view());
    if (!IsIdentifier(f)) rt::ThrowValueError("ClassType: field '" + f + "' is not an ASCII identifier");
    for (size_t j = 0; j < i; ++j) {
      if (field_names[static_cast<int64_t>(j)].view() == f) rt::ThrowValueError("ClassType: field '" + f + "' twice");
    }
    Type t = field_types[static_cast<int64_t>(i)];
    RequireValueType(t, "ClassType");
    // Instances could then form reference cycles, which counting never frees.
    if (Reaches(t, name)) rt::ThrowTypeError("ClassType: field '" + f + "' of " + name + " refers back to " + name);
  }
  auto n = rt::MakeObject<ClassTypeNode>();
  n->name = std::move(name);
  n->field_names = std::move(field_names);
  n->field_types = std::move(field_types);
  return ClassType(rt::object_p<rt::object_t>(n));
}

ClassType ClassType::Declare(std::string name, Type base, int64_t type_id) {
  if (!IsIdentifier(name)) rt::ThrowValueError("ClassType: '" + name + "' is not an ASCII identifier");
  if (type_id < 0) rt::ThrowValueError("ClassType: a class of a hierarchy needs a type id >= 0");
  const auto* b = base.defined() ? base.As<ClassTypeNode>() : nullptr;
  if (base.defined() && (!b || b->type_id < 0)) rt::ThrowTypeError("ClassType: the base of " + name + " is not a class of a hierarchy");
  auto n = rt::MakeObject<ClassTypeNode>();
  n->name = std::move(name);
  n->base = std::move(base);
  n->type_id = type_id;
  n->defined_fields = false;
  return ClassType(rt::object_p<rt::object_t>(n));
}

void ClassType::Define(rt::Array<rt::Str> field_names, rt::Array<Type> field_types) const {
  auto* n = const_cast<ClassTypeNode*>(static_cast<const ClassTypeNode*>(get()));
  if (n->defined_fields) rt::ThrowValueError("ClassType: " + n->name + " has its fields already");
  if (field_names.size() != field_types.size()) rt::ThrowValueError("ClassType: field names and types differ in number");
  const auto* b = n->base.defined() ? n->base.As<ClassTypeNode>() : nullptr;
  if (b && !b->defined_fields) rt::ThrowValueError("ClassType: define the base of " + n->name + " first");
  size_t inherited = b ? b->field_names.size() : 0;
  if (field_names.size() < inherited) rt::ThrowValueError("ClassType: " + n->name + " lacks its base's fields");
  for (size_t i = 0; i < field_names.size(); ++i) {
    auto at = static_cast<int64_t>(i);
    std::string f(field_names[at].view());
    if (!IsIdentifier(f)) rt::ThrowValueError("ClassType: field '" + f + "' is not an ASCII identifier");
    for (size_t j = 0; j < i; ++j) {
      if (field_names[static_cast<int64_t>(j)].view() == f) rt::ThrowValueError("ClassType: field '" + f + "' twice");
    }
    RequireValueType(field_types[at], "ClassType");
    if (i < inherited && (b->field_names[at].view() != f || !TypeEqual(b->field_types[at], field_types[at]))) {
      rt::ThrowTypeError("ClassType: field '" + f + "' of " + n->name + " differs from its base's");
    }
  }
  n->field_names = std::move(field_names);
  n->field_types = std::move(field_types);
  n->defined_fields = true;
}

bool IsSubclass(const ClassTypeNode* c, const ClassTypeNode* ancestor) {
  for (; c; c = c->base.defined() ? c->base.As<ClassTypeNode>() : nullptr) {
    if (c == ancestor || c->name == ancestor->name) return true;
  }
  return false;
}

int64_t ClassType::FieldIndex(const std::string& name) const {
  const auto* n = static_cast<const ClassTypeNode*>(get());
  for (size_t i = 0; i < n->field_names.size(); ++i) {
    if (n->field_names[static_cast<int64_t>(i)].view() == name) return static_cast<int64_t>(i);
  }
  return -1;
}

IteratorType IteratorType::Make(std::string kind, rt::Array<Type> sources) {
  auto want = [&](size_t n) {
    if (sources.size() != n) rt::ThrowTypeError("IteratorType " + kind + ": wrong number of sources");
    for (const Type& s : sources) {
      if (!s.defined()) rt::ThrowTypeError("IteratorType " + kind + ": undefined source");
    }
  };
  Type item;
  if (kind == "list") {
    want(1);
    const auto* l = sources[0].As<ListTypeNode>();
    if (!l) rt::ThrowTypeError("IteratorType list: source must be a list");
    item = l->item_type;
  } else if (kind == "str") {
    want(1);
    if (!sources[0].As<StringTypeNode>()) rt::ThrowTypeError("IteratorType str: source must be a str");
    item = StringType::Make();
  } else if (kind == "set") {
    want(1);
    const auto* st = sources[0].As<SetTypeNode>();
    if (!st) rt::ThrowTypeError("IteratorType set: source must be a set");
    item = st->item_type;
  } else if (kind == "keys" || kind == "values" || kind == "items") {
    want(1);
    const auto* d = sources[0].As<DictTypeNode>();
    if (!d) rt::ThrowTypeError("IteratorType " + kind + ": source must be a dict");
    item = kind == "keys" ? d->key_type
                          : kind == "values" ? d->value_type : Type(TupleType::Make(rt::Array<Type>{d->key_type, d->value_type}));
  } else {
    rt::ThrowValueError("IteratorType: unknown kind '" + kind + "'");
  }
  auto n = rt::MakeObject<IteratorTypeNode>();
  n->kind = std::move(kind);
  n->sources = std::move(sources);
  n->item_type = std::move(item);
  return IteratorType(rt::object_p<rt::object_t>(n));
}

Type ScalarType(rt::DataType t) {
  static const PrimType i = PrimType::Make(rt::DataType::Int(64));
  static const PrimType f = PrimType::Make(rt::DataType::Float(64));
  static const PrimType b = PrimType::Make(rt::DataType::Bool());
  if (t == rt::DataType::Int(64)) return i;
  if (t == rt::DataType::Float(64)) return f;
  if (t == rt::DataType::Bool()) return b;
  return PrimType::Make(t);
}

bool TypeEqual(const Type& a, const Type& b) {
  if (a.get() == b.get()) return true;
  if (!a.defined() || !b.defined() || a.Index() != b.Index()) return false;
  if (const auto* p = a.As<PrimTypeNode>()) return p->dtype == b.As<PrimTypeNode>()->dtype;
  if (a.As<StringTypeNode>() || a.As<NoneTypeNode>() || a.As<ObjectTypeNode>()) return true;
  if (const auto* l = a.As<ListTypeNode>()) {
    return l->is_tuple == b.As<ListTypeNode>()->is_tuple && TypeEqual(l->item_type, b.As<ListTypeNode>()->item_type);
  }
  if (const auto* s = a.As<SetTypeNode>()) return TypeEqual(s->item_type, b.As<SetTypeNode>()->item_type);
  if (const auto* o = a.As<OptionalTypeNode>()) return TypeEqual(o->item_type, b.As<OptionalTypeNode>()->item_type);
  if (const auto* d = a.As<DictTypeNode>()) {
    const auto* e = b.As<DictTypeNode>();
    return TypeEqual(d->key_type, e->key_type) && TypeEqual(d->value_type, e->value_type);
  }
  if (const auto* c = a.As<ClassTypeNode>()) return c->name == b.As<ClassTypeNode>()->name;
  const rt::Array<Type>* fa = nullptr;
  const rt::Array<Type>* fb = nullptr;
  if (const auto* t = a.As<TupleTypeNode>()) {
    fa = &t->fields, fb = &b.As<TupleTypeNode>()->fields;
  } else if (const auto* it = a.As<IteratorTypeNode>()) {
    if (it->kind != b.As<IteratorTypeNode>()->kind) return false;
    fa = &it->sources, fb = &b.As<IteratorTypeNode>()->sources;
  } else {
    return false;
  }
  if (fa->size() != fb->size()) return false;
  for (size_t i = 0; i < fa->size(); ++i) {
    if (!TypeEqual((*fa)[static_cast<int64_t>(i)], (*fb)[static_cast<int64_t>(i)])) return false;
  }
  return true;
}

std::string TypeText(const Type& t) {
  if (!t.defined()) return "<undefined>";
  if (const auto* p = t.As<PrimTypeNode>()) return p->dtype.ToString();
  if (t.As<StringTypeNode>()) return "str";
  if (t.As<NoneTypeNode>()) return "None";
  if (t.As<ObjectTypeNode>()) return "object";
  if (const auto* l = t.As<ListTypeNode>()) {
    return l->is_tuple ? "tuple[" + TypeText(l->item_type) + ", ...]" : "list[" + TypeText(l->item_type) + "]";
  }
  if (const auto* s = t.As<SetTypeNode>()) return "set[" + TypeText(s->item_type) + "]";
  if (const auto* d = t.As<DictTypeNode>()) return "dict[" + TypeText(d->key_type) + ", " + TypeText(d->value_type) + "]";
  if (const auto* c = t.As<ClassTypeNode>()) return c->name;
  if (const auto* o = t.As<OptionalTypeNode>()) return "Optional[" + TypeText(o->item_type) + "]";
  auto list = [](const rt::Array<Type>& items) {
    std::string s;
    for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + TypeText(items[static_cast<int64_t>(i)]);
    return s;
  };
  if (const auto* u = t.As<TupleTypeNode>()) return "tuple[" + list(u->fields) + "]";
  if (const auto* it = t.As<IteratorTypeNode>()) return "iterator[" + it->kind + ": " + TypeText(it->item_type) + "]";
  return t.get()->Name();
}

rt::DataType RuntimeDataType(const Type& t) {
  if (const auto* p = t.As<PrimTypeNode>()) return p->dtype;
  return rt::DataType::Handle();
}

bool IsScalarType(const Type& t) {
  const auto* p = t.As<PrimTypeNode>();
  return p && (p->dtype == rt::DataType::Int(64) || p->dtype == rt::DataType::Float(64) || p->dtype == rt::DataType::Bool());
}

bool IsHashableType(const Type& t) {
  if (const auto* p = t.As<PrimTypeNode>()) return p->dtype == rt::DataType::Int(64) || p->dtype == rt::DataType::Bool();
  if (t.As<StringTypeNode>() || t.As<ObjectTypeNode>()) return true;  // object: CPython hashes it (or raises)
  if (const auto* l = t.As<ListTypeNode>()) return l->is_tuple && IsHashableType(l->item_type);
  if (const auto* u = t.As<TupleTypeNode>()) {
    for (const Type& f : u->fields) {
      if (!IsHashableType(f)) return false;
    }
    return true;
  }
  return false;
}

bool ContainsFloat(const Type& t) {
  if (const auto* p = t.As<PrimTypeNode>()) return p->dtype == rt::DataType::Float(64);
  if (const auto* l = t.As<ListTypeNode>()) return ContainsFloat(l->item_type);
  if (const auto* s = t.As<SetTypeNode>()) return ContainsFloat(s->item_type);
  if (const auto* o = t.As<OptionalTypeNode>()) return ContainsFloat(o->item_type);
  if (const auto* d = t.As<DictTypeNode>()) return ContainsFloat(d->key_type) || ContainsFloat(d->value_type);
  if (const auto* u = t.As<TupleTypeNode>()) {
    for (const Type& f : u->fields) {
      if (ContainsFloat(f)) return true;
    }
  }
  return false;
}

bool IsOrderedType(const Type& t) {
  if (IsScalarType(t) || t.As<StringTypeNode>() || t.As<ObjectTypeNode>()) return true;
  if (const auto* l = t.As<ListTypeNode>()) return IsOrderedType(l->item_type);
  if (const auto* u = t.As<TupleTypeNode>()) {
    for (const Type& f : u->fields) {
      if (!IsOrderedType(f)) return false;
    }
    return true;
  }
  return false;
}

bool IsVarTupleType(const Type& t) {
  const auto* l = t.As<ListTypeNode>();
  return l && l->is_tuple;
}

bool IsMutableType(const Type& t) {
  if (const auto* l = t.As<ListTypeNode>(); l && l->is_tuple) return IsMutableType(l->item_type);
  if (t.As<ListTypeNode>() || t.As<SetTypeNode>() || t.As<DictTypeNode>() || t.As<ClassTypeNode>()) return true;
  if (const auto* o = t.As<OptionalTypeNode>()) return IsMutableType(o->item_type);
  if (const auto* u = t.As<TupleTypeNode>()) {
    for (const Type& f : u->fields) {
      if (IsMutableType(f)) return true;
    }
  }
  return false;
}

}  // namespace spine::compiler
