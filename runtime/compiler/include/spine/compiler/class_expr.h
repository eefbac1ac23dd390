/**
 * @file class_expr.h
 * @brief Expressions over instances of user classes: construction (which
 * runs the class's `__init__`), field reads and field assignment. Method
 * calls are PrimCalls of the method's GlobalVar (`Class.method`) with the
 * instance as first argument.
 */
#ifndef SPINE_COMPILER_CLASS_EXPR_H_
#define SPINE_COMPILER_CLASS_EXPR_H_

#include <string>

#include "spine/compiler/expr.h"

namespace spine::compiler {

/** @brief `Class(args...)`: evaluates the arguments, makes an instance, runs `Class.__init__(self, args...)`. */
class ClassNewNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(ClassNewNode, PrimExprNode, "ClassNew")
  rt::Array<PrimExpr> args;  /**< Arguments of __init__ after self. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("checked_type", &checked_type);
    v->Visit("args", &args);
  }
};
/** @brief Reference to a ClassNewNode. */
class ClassNew : public PrimExpr {
  SPINE_AST_REF(ClassNew, PrimExpr, ClassNewNode)
  /** A new instance of @p cls (a ClassType); the code generator checks @p args against `__init__`. */
  static ClassNew Make(Type cls, rt::Array<PrimExpr> args);
};

/** @brief `object.attr` (a declared field). */
class ClassGetAttrNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(ClassGetAttrNode, PrimExprNode, "ClassGetAttr")
  PrimExpr object;   /**< The instance. */
  std::string attr;  /**< Field name. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("checked_type", &checked_type);
    v->Visit("object", &object);
    v->Visit("attr", &attr);
  }
};
/** @brief Reference to a ClassGetAttrNode. */
class ClassGetAttr : public PrimExpr {
  SPINE_AST_REF(ClassGetAttr, PrimExpr, ClassGetAttrNode)
  /** Field read; TypeError for unknown fields. */
  static ClassGetAttr Make(PrimExpr object, std::string attr);
};

/** @brief `object.attr = value` (type None); Python evaluates value, then object. */
class ClassSetAttrNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(ClassSetAttrNode, PrimExprNode, "ClassSetAttr")
  PrimExpr object;   /**< The instance. */
  std::string attr;  /**< Field name. */
  PrimExpr value;    /**< New value (the field's type). */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("object", &object);
    v->Visit("attr", &attr);
    v->Visit("value", &value);
  }
};
/** @brief Reference to a ClassSetAttrNode. */
class ClassSetAttr : public PrimExpr {
  SPINE_AST_REF(ClassSetAttr, PrimExpr, ClassSetAttrNode)
  /** Field assignment; TypeError for unknown fields or a value of another type. */
  static ClassSetAttr Make(PrimExpr object, std::string attr, PrimExpr value);
};

/**
 * @brief Operations on a class reference as a whole (classes of a hierarchy,
 * and None, the null reference, for any class). `op` is one of:
 * "none" (None as a @p cls reference; no object), "cast" (the object as
 * @p cls, a base or subclass of its class; the frontend has proved the
 * dynamic class), "checked_cast" (`typing.cast`: None passes, an instance
 * outside @p cls's subtree falls back to CPython), "not_none" (the object;
 * None falls back: CPython raises its AttributeError), "is_none" (bool),
 * "isinstance" (bool: not None and within @p cls's subtree) and
 * "type_id" (int: the object's class id; None falls back).
 */
class ClassRefOpNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(ClassRefOpNode, PrimExprNode, "ClassRefOp")
  std::string op;      /**< See above. */
  PrimExpr object;     /**< The instance (undefined for "none"). */
  Type cls;            /**< The class the op is about. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("checked_type", &checked_type);
    v->Visit("op", &op);
    v->Visit("object", &object);
    v->Visit("cls", &cls);
  }
};
/** @brief Reference to a ClassRefOpNode. */
class ClassRefOp : public PrimExpr {
  SPINE_AST_REF(ClassRefOp, PrimExpr, ClassRefOpNode)
  /** Checks that @p object and @p cls fit @p op (casts stay within one hierarchy). */
  static ClassRefOp Make(std::string op, PrimExpr object, Type cls);
};

/**
 * @brief A module-level instance (`area = WorkArea()` at the top of the
 * program): one object per loaded module, made by its class's `__init__`
 * (no arguments) the first time native code reads it, and kept while the
 * module is loaded, so changes to it last from call to call.
 */
class ModuleInstanceNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(ModuleInstanceNode, PrimExprNode, "ModuleInstance")
  std::string name;  /**< The module-level name. */
  int64_t slot = 0;  /**< Its number in the module (names the storage). */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("checked_type", &checked_type);
    v->Visit("name", &name);
    v->Visit("slot", &slot);
  }
};
/** @brief Reference to a ModuleInstanceNode. */
class ModuleInstance : public PrimExpr {
  SPINE_AST_REF(ModuleInstance, PrimExpr, ModuleInstanceNode)
  /** The instance of class @p cls named @p name, stored in @p slot (>= 0). */
  static ModuleInstance Make(std::string name, int64_t slot, Type cls);
};

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_CLASS_EXPR_H_
