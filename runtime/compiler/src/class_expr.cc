// Constructors of the class expressions.
#include "spine/compiler/class_expr.h"

#include "spine/runtime/error.h"

namespace spine::compiler {

namespace {

const ClassTypeNode* ClassOf(const PrimExpr& e, const char* what) {
  if (!e.defined()) rt::ThrowTypeError(std::string(what) + ": undefined object");
  const auto* c = e.type().As<ClassTypeNode>();
  if (!c) rt::ThrowTypeError(std::string(what) + ": " + TypeText(e.type()) + " is not a class instance");
  return c;
}

Type FieldType(const PrimExpr& object, const std::string& attr, const char* what) {
  const ClassTypeNode* c = ClassOf(object, what);
  int64_t i = object.type().AsRef<ClassType>().FieldIndex(attr);
  if (i < 0) rt::ThrowTypeError(std::string(what) + ": '" + c->name + "' has no field '" + attr + "'");
  return c->field_types[i];
}

}  // namespace

ClassNew ClassNew::Make(Type cls, rt::Array<PrimExpr> args) {
  if (!cls.As<ClassTypeNode>()) rt::ThrowTypeError("ClassNew: type must be a ClassType");
  for (const PrimExpr& a : args) {
    if (!a.defined() || a.type().As<NoneTypeNode>()) rt::ThrowTypeError("ClassNew: arguments must be values");
  }
  auto n = rt::MakeObject<ClassNewNode>();
  SetExprType(n.get(), std::move(cls));
  n->args = std::move(args);
  return ClassNew(rt::object_p<rt::object_t>(n));
}

ClassGetAttr ClassGetAttr::Make(PrimExpr object, std::string attr) {
  Type t = FieldType(object, attr, "ClassGetAttr");
  auto n = rt::MakeObject<ClassGetAttrNode>();
  SetExprType(n.get(), std::move(t));
  n->object = std::move(object);
  n->attr = std::move(attr);
  return ClassGetAttr(rt::object_p<rt::object_t>(n));
}

ClassSetAttr ClassSetAttr::Make(PrimExpr object, std::string attr, PrimExpr value) {
  Type t = FieldType(object, attr, "ClassSetAttr");
  if (!value.defined() || !TypeEqual(value.type(), t)) {
    rt::ThrowTypeError("ClassSetAttr: field '" + attr + "' is " + TypeText(t) + ", value is " +
                       (value.defined() ? TypeText(value.type()) : std::string("undefined")));
  }
  auto n = rt::MakeObject<ClassSetAttrNode>();
  SetExprType(n.get(), NoneType::Make());
  n->object = std::move(object);
  n->attr = std::move(attr);
  n->value = std::move(value);
  return ClassSetAttr(rt::object_p<rt::object_t>(n));
}

}  // namespace spine::compiler
