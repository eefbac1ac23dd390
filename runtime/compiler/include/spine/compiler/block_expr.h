/**
 * @file block_expr.h
 * @brief BlockExpr: statements, then a value. Comprehensions and
 * any()/all() lower to it, so the loop runs exactly where Python evaluates
 * the expression (not hoisted out of a short-circuit or before earlier
 * operands). Generated as a GNU statement expression.
 */
#ifndef SPINE_COMPILER_BLOCK_EXPR_H_
#define SPINE_COMPILER_BLOCK_EXPR_H_

#include "spine/compiler/stmt.h"

namespace spine::compiler {

/** @brief `{ body; value }`. The body may not return, break or continue out of the block. */
class BlockExprNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(BlockExprNode, PrimExprNode, "BlockExpr")
  Stmt body;       /**< Runs first. */
  PrimExpr value;  /**< Then the result. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("checked_type", &checked_type);
    v->Visit("body", &body);
    v->Visit("value", &value);
  }
};
/** @brief Reference to a BlockExprNode. */
class BlockExpr : public PrimExpr {
  SPINE_AST_REF(BlockExpr, PrimExpr, BlockExprNode)
  /** A block with result @p value. */
  static BlockExpr Make(Stmt body, PrimExpr value);
};

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_BLOCK_EXPR_H_
