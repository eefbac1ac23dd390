/**
 * @file container_expr.h
 * @brief Expressions over str and the containers (what the
 * frontend lowers to): literals, subscripts, slices, item assignment/deletion and
 * method calls. Item assignment and deletion are expressions of type None
 * used as ExprStmt, like method calls that return None.
 */
#ifndef SPINE_COMPILER_CONTAINER_EXPR_H_
#define SPINE_COMPILER_CONTAINER_EXPR_H_

#include <string>

#include "spine/compiler/expr.h"

namespace spine::compiler {

/** @brief Layout shared by the list, set and tuple displays. */
class ItemsExprNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(ItemsExprNode, PrimExprNode, "ItemsExpr")
  rt::Array<PrimExpr> items;  /**< Elements, evaluated left to right. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("checked_type", &checked_type);
    v->Visit("items", &items);
  }
};

/** Declare display node `Name##Node` (an ItemsExprNode). */
#define SPINE_AST_DISPLAY(Name, TypeName)                 \
  class Name##Node : public ItemsExprNode {               \
   public:                                                \
    SPINE_AST_NODE(Name##Node, ItemsExprNode, TypeName)   \
  };

SPINE_AST_DISPLAY(ListLiteral, "ListLiteral")    // [a, b, ...] of a given list type (so [] has one)
SPINE_AST_DISPLAY(SetLiteral, "SetLiteral")      // {a, b, ...} of a given set type
SPINE_AST_DISPLAY(TupleLiteral, "TupleLiteral")  // (a, b, ...); the type is the tuple of the element types

/** @brief Reference to a ListLiteralNode. */
class ListLiteral : public PrimExpr {
  SPINE_AST_REF(ListLiteral, PrimExpr, ListLiteralNode)
  /** A list of type @p type (a ListType) holding @p items of its element type. */
  static ListLiteral Make(Type type, rt::Array<PrimExpr> items);
};
/** @brief Reference to a SetLiteralNode. */
class SetLiteral : public PrimExpr {
  SPINE_AST_REF(SetLiteral, PrimExpr, SetLiteralNode)
  /** A set of type @p type (a SetType) holding @p items. */
  static SetLiteral Make(Type type, rt::Array<PrimExpr> items);
};
/** @brief Reference to a TupleLiteralNode. */
class TupleLiteral : public PrimExpr {
  SPINE_AST_REF(TupleLiteral, PrimExpr, TupleLiteralNode)
  /** A tuple of @p items. */
  static TupleLiteral Make(rt::Array<PrimExpr> items);
};

/** @brief `{k: v, ...}` of a given dict type; later duplicates overwrite, as in Python. */
class DictLiteralNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(DictLiteralNode, PrimExprNode, "DictLiteral")
  rt::Array<PrimExpr> keys;    /**< Keys. */
  rt::Array<PrimExpr> values;  /**< Values (key, value, key, value... evaluated in that order). */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("checked_type", &checked_type);
    v->Visit("keys", &keys);
    v->Visit("values", &values);
  }
};
/** @brief Reference to a DictLiteralNode. */
class DictLiteral : public PrimExpr {
  SPINE_AST_REF(DictLiteral, PrimExpr, DictLiteralNode)
  /** A dict of type @p type (a DictType). */
  static DictLiteral Make(Type type, rt::Array<PrimExpr> keys, rt::Array<PrimExpr> values);
};

/**
 * @brief `obj[index]`: list and str by int (negative from the end,
 * IndexError), dict by key (KeyError), tuple by a constant (or any int when
 * all elements share one type).
 */
class ContainerGetItemNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(ContainerGetItemNode, PrimExprNode, "ContainerGetItem")
  PrimExpr object;  /**< Container, evaluated first. */
  PrimExpr index;   /**< Index or key. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("checked_type", &checked_type);
    v->Visit("object", &object);
    v->Visit("index", &index);
  }
};
/** @brief Reference to a ContainerGetItemNode. */
class ContainerGetItem : public PrimExpr {
  SPINE_AST_REF(ContainerGetItem, PrimExpr, ContainerGetItemNode)
  /** `object[index]`. */
  static ContainerGetItem Make(PrimExpr object, PrimExpr index);
};

/** @brief `object[index] = value` (list, dict); Python evaluates value, object, index in that order. */
class ContainerSetItemNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(ContainerSetItemNode, PrimExprNode, "ContainerSetItem")
  PrimExpr object;  /**< Container. */
  PrimExpr index;   /**< Index or key. */
  PrimExpr value;   /**< New value. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("object", &object);
    v->Visit("index", &index);
    v->Visit("value", &value);
  }
};
/** @brief Reference to a ContainerSetItemNode. */
class ContainerSetItem : public PrimExpr {
  SPINE_AST_REF(ContainerSetItem, PrimExpr, ContainerSetItemNode)
  /** `object[index] = value` (type None). */
  static ContainerSetItem Make(PrimExpr object, PrimExpr index, PrimExpr value);
};

/** @brief `del object[index]` (list by int, dict by key). */
class ContainerDelItemNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(ContainerDelItemNode, PrimExprNode, "ContainerDelItem")
  PrimExpr object;  /**< Container. */
  PrimExpr index;   /**< Index or key. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("object", &object);
    v->Visit("index", &index);
  }
};
/** @brief Reference to a ContainerDelItemNode. */
class ContainerDelItem : public PrimExpr {
  SPINE_AST_REF(ContainerDelItem, PrimExpr, ContainerDelItemNode)
  /** `del object[index]` (type None). */
  static ContainerDelItem Make(PrimExpr object, PrimExpr index);
};

/** @brief `object[start:stop:step]` of a str or list; absent parts are undefined. */
class ContainerGetSliceNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(ContainerGetSliceNode, PrimExprNode, "ContainerGetSlice")
  PrimExpr object;  /**< str or list. */
  PrimExpr start;   /**< int, or undefined. */
  PrimExpr stop;    /**< int, or undefined. */
  PrimExpr step;    /**< int, or undefined (a zero step is ValueError). */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("checked_type", &checked_type);
    v->Visit("object", &object);
    v->Visit("start", &start);
    v->Visit("stop", &stop);
    v->Visit("step", &step);
  }
};
/** @brief Reference to a ContainerGetSliceNode. */
class ContainerGetSlice : public PrimExpr {
  SPINE_AST_REF(ContainerGetSlice, PrimExpr, ContainerGetSliceNode)
  /** A slice; the result has the object's type. */
  static ContainerGetSlice Make(PrimExpr object, PrimExpr start, PrimExpr stop, PrimExpr step);
};

/** @brief `object.method(args...)` on str, list, dict or set (see method_table.h). */
class ContainerMethodCallNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(ContainerMethodCallNode, PrimExprNode, "ContainerMethodCall")
  PrimExpr object;            /**< Receiver, evaluated first. */
  std::string method;         /**< Method name. */
  rt::Array<PrimExpr> args;   /**< Arguments, left to right. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("checked_type", &checked_type);
    v->Visit("object", &object);
    v->Visit("method", &method);
    v->Visit("args", &args);
  }
};
/** @brief Reference to a ContainerMethodCallNode. */
class ContainerMethodCall : public PrimExpr {
  SPINE_AST_REF(ContainerMethodCall, PrimExpr, ContainerMethodCallNode)
  /** A method call; TypeError for unknown methods or wrong argument types. */
  static ContainerMethodCall Make(PrimExpr object, std::string method, rt::Array<PrimExpr> args);
};

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_CONTAINER_EXPR_H_
