// BlockExpr constructor.
#include "spine/compiler/block_expr.h"

#include "spine/runtime/error.h"

namespace spine::compiler {

BlockExpr BlockExpr::Make(Stmt body, PrimExpr value) {
  if (!body.defined() || !value.defined()) rt::ThrowTypeError("BlockExpr: undefined operand");
  auto n = rt::MakeObject<BlockExprNode>();
  SetExprType(n.get(), value.type());
  n->body = std::move(body);
  n->value = std::move(value);
  return BlockExpr(rt::object_p<rt::object_t>(n));
}

}  // namespace spine::compiler
