/**
 * @file method_table.h
 * @brief The methods of str, list, dict and set that native code supports:
 * their type rules (used by ContainerMethodCall::Make) and the codegen
 * function implementing each (used by the Rewriter). One table, so typing
 * and generation cannot disagree.
 */
#ifndef SPINE_COMPILER_METHOD_TABLE_H_
#define SPINE_COMPILER_METHOD_TABLE_H_

#include <string>
#include <vector>

#include "spine/compiler/expr.h"

namespace spine::compiler {

/** @brief What a resolved method call is. */
struct MethodInfo {
  std::string function;  /**< spine_cg function called as function(object, args...). */
  Type result;           /**< Result type (NoneType for mutators). */
  bool mutates = false;  /**< True if it changes the receiver. */
};

/** Resolve `object.method(args)`; throws TypeError for unknown methods or argument types. */
MethodInfo LookupMethod(const Type& object, const std::string& method, const rt::Array<PrimExpr>& args);

/** Names of the methods of the container kind "str", "list", "dict" or "set" (for documentation and tests). */
std::vector<std::string> MethodNames(const std::string& kind);

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_METHOD_TABLE_H_
