// Constructors of the container expressions: the type rules of subscripts,
// slices, literals and method calls (method_table.cc).
#include "spine/compiler/container_expr.h"

#include "spine/compiler/method_table.h"
#include "spine/runtime/error.h"

namespace spine::compiler {

namespace {

void Require(const PrimExpr& e, const char* what) {
  if (!e.defined()) rt::ThrowTypeError(std::string(what) + ": undefined operand");
  if (e.type().As<NoneTypeNode>()) rt::ThrowTypeError(std::string(what) + ": a None-valued call is not a value");
}

void RequireType(const PrimExpr& e, const Type& want, const char* what) {
  Require(e, what);
  if (!TypeEqual(e.type(), want)) {
    rt::ThrowTypeError(std::string(what) + ": expected " + TypeText(want) + ", got " + TypeText(e.type()));
  }
}

bool IsInt(const PrimExpr& e) { return IsScalarType(e.type()) && e.dtype() == kInt64; }

template <typename N>
rt::object_p<N> NewNode(Type t) {
  auto n = rt::MakeObject<N>();
  SetExprType(n.get(), std::move(t));
  return n;
}

// The result type of tuple[...][index]: a constant picks the field; any int works when all fields agree.
Type TupleItemType(const TupleTypeNode* t, const PrimExpr& index) {
  int64_t n = static_cast<int64_t>(t->fields.size());
  if (const auto* c = index.As<IntImmNode>(); c && c->datatype == kInt64) {
    int64_t i = c->value < 0 ? c->value + n : c->value;
    if (i < 0 || i >= n) rt::ThrowIndexError("tuple index out of range");
    return t->fields[i];
  }
  if (!IsInt(index)) rt::ThrowTypeError("ContainerGetItem: tuple indices must be int");
  for (int64_t i = 1; i < n; ++i) {
    if (!TypeEqual(t->fields[i], t->fields[0])) {
      rt::ThrowTypeError("ContainerGetItem: a variable index needs a tuple of one element type");
    }
  }
  if (n == 0) rt::ThrowIndexError("tuple index out of range");
  return t->fields[0];
}

}  // namespace

ListLiteral ListLiteral::Make(Type type, rt::Array<PrimExpr> items) {
  const auto* l = type.As<ListTypeNode>();
  if (!l) rt::ThrowTypeError("ListLiteral: type must be a ListType");
  for (const PrimExpr& e : items) RequireType(e, l->item_type, "ListLiteral");
  auto n = NewNode<ListLiteralNode>(std::move(type));
  n->items = std::move(items);
  return ListLiteral(rt::object_p<rt::object_t>(n));
}

SetLiteral SetLiteral::Make(Type type, rt::Array<PrimExpr> items) {
  const auto* s = type.As<SetTypeNode>();
  if (!s) rt::ThrowTypeError("SetLiteral: type must be a SetType");
  for (const PrimExpr& e : items) RequireType(e, s->item_type, "SetLiteral");
  auto n = NewNode<SetLiteralNode>(std::move(type));
  n->items = std::move(items);
  return SetLiteral(rt::object_p<rt::object_t>(n));
}

DictLiteral DictLiteral::Make(Type type, rt::Array<PrimExpr> keys, rt::Array<PrimExpr> values) {
  const auto* d = type.As<DictTypeNode>();
  if (!d) rt::ThrowTypeError("DictLiteral: type must be a DictType");
  if (keys.size() != values.size()) rt::ThrowValueError("DictLiteral: keys and values differ in number");
  for (const PrimExpr& e : keys) RequireType(e, d->key_type, "DictLiteral");
  for (const PrimExpr& e : values) RequireType(e, d->value_type, "DictLiteral");
  auto n = NewNode<DictLiteralNode>(std::move(type));
  n->keys = std::move(keys);
  n->values = std::move(values);
  return DictLiteral(rt::object_p<rt::object_t>(n));
}

TupleLiteral TupleLiteral::Make(rt::Array<PrimExpr> items) {
  rt::Array<Type> fields;
  for (const PrimExpr& e : items) {
    Require(e, "TupleLiteral");
    fields.push_back(e.type());
  }
  auto n = NewNode<TupleLiteralNode>(TupleType::Make(fields));
  n->items = std::move(items);
  return TupleLiteral(rt::object_p<rt::object_t>(n));
}

ContainerGetItem ContainerGetItem::Make(PrimExpr object, PrimExpr index) {
  Require(object, "ContainerGetItem");
  Require(index, "ContainerGetItem");
  const Type& t = object.type();
  Type result;
  if (const auto* l = t.As<ListTypeNode>()) {
    if (!IsInt(index)) rt::ThrowTypeError("ContainerGetItem: list indices must be int");
    result = l->item_type;
  } else if (t.As<StringTypeNode>()) {
    if (!IsInt(index)) rt::ThrowTypeError("ContainerGetItem: string indices must be int");
    result = t;
  } else if (const auto* d = t.As<DictTypeNode>()) {
    RequireType(index, d->key_type, "ContainerGetItem");
    result = d->value_type;
  } else if (const auto* u = t.As<TupleTypeNode>()) {
    result = TupleItemType(u, index);
  } else {
    rt::ThrowTypeError("ContainerGetItem: " + TypeText(t) + " is not subscriptable natively");
  }
  auto n = NewNode<ContainerGetItemNode>(result);
  n->object = std::move(object);
  n->index = std::move(index);
  return ContainerGetItem(rt::object_p<rt::object_t>(n));
}

ContainerSetItem ContainerSetItem::Make(PrimExpr object, PrimExpr index, PrimExpr value) {
  Require(object, "ContainerSetItem");
  Require(index, "ContainerSetItem");
  const Type& t = object.type();
  if (const auto* l = t.As<ListTypeNode>()) {
    if (!IsInt(index)) rt::ThrowTypeError("ContainerSetItem: list indices must be int");
    RequireType(value, l->item_type, "ContainerSetItem");
  } else if (const auto* d = t.As<DictTypeNode>()) {
    RequireType(index, d->key_type, "ContainerSetItem");
    RequireType(value, d->value_type, "ContainerSetItem");
  } else {
    rt::ThrowTypeError("ContainerSetItem: " + TypeText(t) + " does not support item assignment natively");
  }
  auto n = NewNode<ContainerSetItemNode>(NoneType::Make());
  n->object = std::move(object);
  n->index = std::move(index);
  n->value = std::move(value);
  return ContainerSetItem(rt::object_p<rt::object_t>(n));
}

ContainerDelItem ContainerDelItem::Make(PrimExpr object, PrimExpr index) {
  Require(object, "ContainerDelItem");
  Require(index, "ContainerDelItem");
  const Type& t = object.type();
  if (t.As<ListTypeNode>()) {
    if (!IsInt(index)) rt::ThrowTypeError("ContainerDelItem: list indices must be int");
  } else if (const auto* d = t.As<DictTypeNode>()) {
    RequireType(index, d->key_type, "ContainerDelItem");
  } else {
    rt::ThrowTypeError("ContainerDelItem: " + TypeText(t) + " does not support item deletion natively");
  }
  auto n = NewNode<ContainerDelItemNode>(NoneType::Make());
  n->object = std::move(object);
  n->index = std::move(index);
  return ContainerDelItem(rt::object_p<rt::object_t>(n));
}

ContainerGetSlice ContainerGetSlice::Make(PrimExpr object, PrimExpr start, PrimExpr stop, PrimExpr step) {
  Require(object, "ContainerGetSlice");
  const Type& t = object.type();
  if (!t.As<StringTypeNode>() && !t.As<ListTypeNode>()) {
    rt::ThrowTypeError("ContainerGetSlice: " + TypeText(t) + " cannot be sliced natively");
  }
  for (const PrimExpr* e : {&start, &stop, &step}) {
    if (e->defined() && !IsInt(*e)) rt::ThrowTypeError("ContainerGetSlice: slice indices must be int");
  }
  auto n = NewNode<ContainerGetSliceNode>(t);
  n->object = std::move(object);
  n->start = std::move(start);
  n->stop = std::move(stop);
  n->step = std::move(step);
  return ContainerGetSlice(rt::object_p<rt::object_t>(n));
}

ContainerMethodCall ContainerMethodCall::Make(PrimExpr object, std::string method, rt::Array<PrimExpr> args) {
  Require(object, "ContainerMethodCall");
  MethodInfo info = LookupMethod(object.type(), method, args);
  auto n = NewNode<ContainerMethodCallNode>(info.result);
  n->object = std::move(object);
  n->method = std::move(method);
  n->args = std::move(args);
  return ContainerMethodCall(rt::object_p<rt::object_t>(n));
}

}  // namespace spine::compiler
