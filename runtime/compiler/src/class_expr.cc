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

ClassRefOp ClassRefOp::Make(std::string op, PrimExpr object, Type cls) {
  const auto* target = cls.defined() ? cls.As<ClassTypeNode>() : nullptr;
  if (!target) rt::ThrowTypeError("ClassRefOp: cls must be a ClassType");
  Type result = cls;
  if (op == "none") {
    if (object.defined()) rt::ThrowTypeError("ClassRefOp none: takes no object");
  } else {
    const ClassTypeNode* c = ClassOf(object, "ClassRefOp");
    bool related = IsSubclass(c, target) || IsSubclass(target, c);
    if (op == "cast" || op == "checked_cast") {
      if (!related) rt::ThrowTypeError("ClassRefOp " + op + ": " + c->name + " and " + target->name + " are unrelated");
      if (c->name != target->name && target->type_id < 0) rt::ThrowTypeError("ClassRefOp: " + target->name + " has no hierarchy");
    } else if (op == "isinstance" || op == "type_id") {
      if (c->type_id < 0 || target->type_id < 0) rt::ThrowTypeError("ClassRefOp " + op + ": classes without a hierarchy");
      result = ScalarType(op == "type_id" ? rt::DataType::Int(64) : rt::DataType::Bool());
    } else if (op == "is_none") {
      result = ScalarType(rt::DataType::Bool());
    } else if (op == "not_none") {
      if (c->name != target->name) rt::ThrowTypeError("ClassRefOp not_none: cls must be the object's class");
    } else {
      rt::ThrowValueError("ClassRefOp: unknown op '" + op + "'");
    }
  }
  auto n = rt::MakeObject<ClassRefOpNode>();
  SetExprType(n.get(), std::move(result));
  n->op = std::move(op);
  n->object = std::move(object);
  n->cls = std::move(cls);
  return ClassRefOp(rt::object_p<rt::object_t>(n));
}

ModuleInstance ModuleInstance::Make(std::string name, int64_t slot, Type cls) {
  if (!cls.defined() || !cls.As<ClassTypeNode>()) rt::ThrowTypeError("ModuleInstance: cls must be a ClassType");
  if (slot < 0) rt::ThrowValueError("ModuleInstance: slot must be >= 0");
  auto n = rt::MakeObject<ModuleInstanceNode>();
  SetExprType(n.get(), std::move(cls));
  n->name = std::move(name);
  n->slot = slot;
  return ModuleInstance(rt::object_p<rt::object_t>(n));
}

}  // namespace spine::compiler
