/**
 * @file boxed_ops.h
 * @brief The built-in ops on boxed values (ObjectType): `box_*`, each one
 * of CPython's abstract object operations (codegen/boxed.h), typed here.
 */
#ifndef SPINE_COMPILER_BOXED_OPS_H_
#define SPINE_COMPILER_BOXED_OPS_H_

#include <string>

#include "spine/compiler/expr.h"

namespace spine::compiler {

/** True if @p name is one of the `box_*` ops. */
bool IsBoxedOp(const std::string& name);

/** The result type of box op @p name on @p args; TypeError if they do not fit. */
Type BoxedOpResultType(const std::string& name, const rt::Array<PrimExpr>& args);

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_BOXED_OPS_H_
