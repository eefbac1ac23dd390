/**
 * @file type.h
 * @brief The Type family: object types that describe variables, expressions
 * and function results. PrimType wraps a scalar DataType.
 */
#ifndef SPINE_COMPILER_TYPE_H_
#define SPINE_COMPILER_TYPE_H_

#include "spine/compiler/node.h"

namespace spine::compiler {

/** @brief Base of every type node. */
class TypeNode : public AstNode {
 public:
  SPINE_AST_NODE(TypeNode, AstNode, "Type")
};

/** @brief Reference to a type. */
class Type : public AstRef {
  SPINE_AST_REF(Type, AstRef, TypeNode)
};

/** @brief A scalar type (int64, float64, bool). */
class PrimTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(PrimTypeNode, TypeNode, "PrimType")
  rt::DataType dtype;  /**< The scalar format. */
  /** Fields: dtype. */
  void VisitAttrs(AttrVisitor* v) override { v->Visit("dtype", &dtype); }
};

/** @brief Reference to a PrimTypeNode. */
class PrimType : public Type {
  SPINE_AST_REF(PrimType, Type, PrimTypeNode)
  /** A new PrimType of @p dtype. */
  static PrimType Make(rt::DataType dtype);
};

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_TYPE_H_
