/**
 * @file function.h
 * @brief Functions and modules: PrimFunc (typed parameters, body, return
 * type) and IRModule (a named set of functions).
 */
#ifndef SPINE_COMPILER_FUNCTION_H_
#define SPINE_COMPILER_FUNCTION_H_

#include <string>

#include "spine/compiler/stmt.h"
#include "spine/compiler/type.h"

namespace spine::compiler {

/** @brief Base of all function definitions. */
class BaseFuncNode : public BaseExprNode {
 public:
  SPINE_AST_NODE(BaseFuncNode, BaseExprNode, "BaseFunc")
};
/** @brief Reference to a function. */
class BaseFunc : public BaseExpr {
  SPINE_AST_REF(BaseFunc, BaseExpr, BaseFuncNode)
};

/**
 * @brief A function whose parameters are typed PrimVars. A method of a
 * class is named `Class.method` and takes the instance as first parameter;
 * methods are called natively only (they get no `__c_api` wrapper).
 */
class PrimFuncNode : public BaseFuncNode {
 public:
  SPINE_AST_NODE(PrimFuncNode, BaseFuncNode, "PrimFunc")
  std::string name;                 /**< Global symbol (the Python name). */
  rt::Array<PrimVar> params;        /**< Parameters, in order. */
  rt::Array<PrimExpr> defaults;     /**< Defaults of the trailing parameters (none supported yet by codegen). */
  Stmt body;                        /**< Function body. */
  Type ret_type;                    /**< Declared return type (NoneType for `-> None` methods). */
  /**
   * List and dict parameters the function changes in place: after a
   * successful call from outside, the caller's object gets their contents
   * (arguments are copied in, so this is how the caller sees the change).
   */
  rt::Array<PrimVar> writeback;
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("name", &name);
    v->Visit("params", &params);
    v->Visit("defaults", &defaults);
    v->Visit("body", &body);
    v->Visit("ret_type", &ret_type);
    v->Visit("writeback", &writeback);
  }
};
/** @brief Reference to a PrimFuncNode. */
class PrimFunc : public BaseFunc {
  SPINE_AST_REF(PrimFunc, BaseFunc, PrimFuncNode)
  /** A function; the name must be a Python identifier or `Class.method`. */
  static PrimFunc Make(std::string name, rt::Array<PrimVar> params, rt::Array<PrimExpr> defaults, Stmt body,
                       Type ret_type);
  /** True for `Class.method`. */
  bool IsMethod() const;
};

/** @brief A module: functions with unique names, in insertion order. */
class IRModuleNode : public AstNode {
 public:
  SPINE_AST_NODE(IRModuleNode, AstNode, "IRModule")
  rt::Array<GlobalVar> globals;  /**< Symbols, parallel to functions. */
  rt::Array<BaseFunc> functions; /**< Definitions. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("globals", &globals);
    v->Visit("functions", &functions);
  }
};
/** @brief Reference to an IRModuleNode. */
class IRModule : public AstRef {
  SPINE_AST_REF(IRModule, AstRef, IRModuleNode)
  /** An empty module. */
  static IRModule Make();
  /** Add @p fn under its name; throws ValueError if the name is taken. Returns its symbol. */
  GlobalVar Add(const PrimFunc& fn) const;
  /** The function named @p name, or an undefined reference. */
  PrimFunc Lookup(const std::string& name) const;
};

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_FUNCTION_H_
