/**
 * @file expr.h
 * @brief The expression family. BaseExpr is the root; PrimExpr produces a
 * value and carries its Type (`checked_type`) and, for the hot scalar path,
 * its DataType (handle for objects: str, containers, class instances).
 * Result types are computed by the constructors (Python's rules: any float
 * operand gives float, `/` gives float, bool arithmetic gives int,
 * comparisons and logic give bool), so a tree is well-typed by construction
 * and the code generator never guesses.
 */
#ifndef SPINE_COMPILER_EXPR_H_
#define SPINE_COMPILER_EXPR_H_

#include <string>
#include <vector>

#include "spine/compiler/type.h"
#include "spine/runtime/array.h"

namespace spine::compiler {

/** @brief Root of all expressions. */
class BaseExprNode : public AstNode {
 public:
  SPINE_AST_NODE(BaseExprNode, AstNode, "BaseExpr")
};
/** @brief Reference to any expression. */
class BaseExpr : public AstRef {
  SPINE_AST_REF(BaseExpr, AstRef, BaseExprNode)
};

/** @brief An expression that produces a value. */
class PrimExprNode : public BaseExprNode {
 public:
  SPINE_AST_NODE(PrimExprNode, BaseExprNode, "PrimExpr")
  rt::DataType datatype;  /**< Scalar format of the value (handle for objects). */
  Type checked_type;      /**< Full type of the value (PrimType for scalars). */
};
/** @brief Reference to a PrimExprNode. */
class PrimExpr : public BaseExpr {
  SPINE_AST_REF(PrimExpr, BaseExpr, PrimExprNode)
  /** The data type (the reference must be defined). */
  rt::DataType dtype() const noexcept { return (*this)->datatype; }
  /** The type (the reference must be defined). */
  const Type& type() const noexcept { return (*this)->checked_type; }
};

/** Set @p n's datatype and checked_type from @p t. */
void SetExprType(PrimExprNode* n, Type t);

/** The three scalar types of the subset. */
inline constexpr rt::DataType kInt64 = rt::DataType::Int(64);
/** float64. */
inline constexpr rt::DataType kFloat64 = rt::DataType::Float(64);
/** bool. */
inline constexpr rt::DataType kBool = rt::DataType::Bool();
/** True for int64, float64 and bool: the types the code generator supports. */
bool IsSupportedScalar(rt::DataType t) noexcept;

/** @brief Integer (or bool) constant. */
class IntImmNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(IntImmNode, PrimExprNode, "IntImm")
  int64_t value = 0;  /**< The constant. */
  /** Fields: datatype, value. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("datatype", &datatype);
    v->Visit("value", &value);
  }
};
/** @brief Reference to an IntImmNode. */
class IntImm : public PrimExpr {
  SPINE_AST_REF(IntImm, PrimExpr, IntImmNode)
  /** A constant of int64 or bool type (a bool value must be 0 or 1). */
  static IntImm Make(rt::DataType t, int64_t value);
};

/** @brief Float constant. */
class FloatImmNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(FloatImmNode, PrimExprNode, "FloatImm")
  double value = 0;  /**< The constant. */
  /** Fields: datatype, value. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("datatype", &datatype);
    v->Visit("value", &value);
  }
};
/** @brief Reference to a FloatImmNode. */
class FloatImm : public PrimExpr {
  SPINE_AST_REF(FloatImm, PrimExpr, FloatImmNode)
  /** A float64 constant. */
  static FloatImm Make(double value);
};

/** @brief String constant (type str). */
class StringImmNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(StringImmNode, PrimExprNode, "StringImm")
  std::string value;  /**< UTF-8 bytes. */
  /** Fields: datatype, value. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("datatype", &datatype);
    v->Visit("value", &value);
  }
};
/** @brief Reference to a StringImmNode. */
class StringImm : public PrimExpr {
  SPINE_AST_REF(StringImm, PrimExpr, StringImmNode)
  /** A string constant. */
  static StringImm Make(std::string value);
};

/** @brief A variable; identity (the node) is the symbol, the name is only a hint. */
class PrimVarNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(PrimVarNode, PrimExprNode, "PrimVar")
  std::string var_name;  /**< Source name. */
  /** Fields: var_name, datatype, checked_type. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("var_name", &var_name);
    v->Visit("datatype", &datatype);
    v->Visit("checked_type", &checked_type);
  }
};
/** @brief Reference to a PrimVarNode. */
class PrimVar : public PrimExpr {
  SPINE_AST_REF(PrimVar, PrimExpr, PrimVarNode)
  /** A new scalar variable. */
  static PrimVar Make(std::string name, rt::DataType t);
  /** A new variable of any value type. */
  static PrimVar Make(std::string name, Type t);
};

/** @brief Layout shared by all binary operators. */
class PrimBinaryOpNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(PrimBinaryOpNode, PrimExprNode, "PrimBinaryOp")
  PrimExpr a;  /**< Left operand. */
  PrimExpr b;  /**< Right operand. */
  /** Fields: datatype, a, b. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("datatype", &datatype);
    v->Visit("a", &a);
    v->Visit("b", &b);
  }
};

/**
 * Declare a binary operator node `Name##Node` and its reference `Name`, whose
 * Make() checks operand types and computes the result type.
 */
#define SPINE_AST_BINARY_OP(Name, TypeName)                      \
  class Name##Node : public PrimBinaryOpNode {                   \
   public:                                                       \
    SPINE_AST_NODE(Name##Node, PrimBinaryOpNode, TypeName)       \
  };                                                             \
  class Name : public PrimExpr {                                 \
    SPINE_AST_REF(Name, PrimExpr, Name##Node)                    \
    static Name Make(PrimExpr a, PrimExpr b);                    \
  };

SPINE_AST_BINARY_OP(PrimAdd, "PrimAdd")            // a + b
SPINE_AST_BINARY_OP(PrimSub, "PrimSub")            // a - b
SPINE_AST_BINARY_OP(PrimMul, "PrimMul")            // a * b
SPINE_AST_BINARY_OP(PrimDiv, "PrimDiv")            // a / b (true division, always float)
SPINE_AST_BINARY_OP(PrimFloorDiv, "PrimFloorDiv")  // a // b (Python signs)
SPINE_AST_BINARY_OP(PrimFloorMod, "PrimFloorMod")  // a % b (Python signs)
SPINE_AST_BINARY_OP(PrimEQ, "PrimEQ")              // a == b (also str, containers, classes by identity)
SPINE_AST_BINARY_OP(PrimNE, "PrimNE")              // a != b
SPINE_AST_BINARY_OP(PrimLT, "PrimLT")              // a < b (also str, list, tuple)
SPINE_AST_BINARY_OP(PrimLE, "PrimLE")              // a <= b
SPINE_AST_BINARY_OP(PrimGT, "PrimGT")              // a > b
SPINE_AST_BINARY_OP(PrimGE, "PrimGE")              // a >= b
SPINE_AST_BINARY_OP(PrimAnd, "PrimAnd")            // a and b, both bool
SPINE_AST_BINARY_OP(PrimOr, "PrimOr")              // a or b, both bool

/** @brief Logical negation of a bool. */
class PrimNotNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(PrimNotNode, PrimExprNode, "PrimNot")
  PrimExpr a;  /**< Operand (bool). */
  /** Fields: datatype, a. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("datatype", &datatype);
    v->Visit("a", &a);
  }
};
/** @brief Reference to a PrimNotNode. */
class PrimNot : public PrimExpr {
  SPINE_AST_REF(PrimNot, PrimExpr, PrimNotNode)
  /** `not a`; @p a must be bool. */
  static PrimNot Make(PrimExpr a);
};

/** @brief `cond ? then_case : else_case`, evaluating only the chosen branch. */
class PrimIfThenElseNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(PrimIfThenElseNode, PrimExprNode, "PrimIfThenElse")
  PrimExpr cond;       /**< bool condition. */
  PrimExpr then_case;  /**< Value if true. */
  PrimExpr else_case;  /**< Value if false (same type as then_case). */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("datatype", &datatype);
    v->Visit("cond", &cond);
    v->Visit("then_case", &then_case);
    v->Visit("else_case", &else_case);
  }
};
/** @brief Reference to a PrimIfThenElseNode. */
class PrimIfThenElse : public PrimExpr {
  SPINE_AST_REF(PrimIfThenElse, PrimExpr, PrimIfThenElseNode)
  /** Conditional; branches must have the same type. */
  static PrimIfThenElse Make(PrimExpr cond, PrimExpr then_case, PrimExpr else_case);
};

/**
 * @brief `let var = value in body`: evaluates value once, binds it, then
 * evaluates body. The frontend lowers chained comparisons and value-returning
 * `and`/`or` with it, so every operand is evaluated exactly once, in order.
 */
class PrimLetNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(PrimLetNode, PrimExprNode, "PrimLet")
  PrimVar var;    /**< Bound variable (same type as value). */
  PrimExpr value; /**< Evaluated first. */
  PrimExpr body;  /**< Result. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("datatype", &datatype);
    v->Visit("var", &var);
    v->Visit("value", &value);
    v->Visit("body", &body);
  }
};
/** @brief Reference to a PrimLetNode. */
class PrimLet : public PrimExpr {
  SPINE_AST_REF(PrimLet, PrimExpr, PrimLetNode)
  /** Let binding; var and value must have the same type. */
  static PrimLet Make(PrimVar var, PrimExpr value, PrimExpr body);
};

/** @brief A built-in operation called through PrimCall (neg, abs, min, max, len, contains, ...; see op_types.cc). */
class OpNode : public BaseExprNode {
 public:
  SPINE_AST_NODE(OpNode, BaseExprNode, "Op")
  std::string name;  /**< Operation name, one of BuiltinOpNames(). */
  /** Fields: name. */
  void VisitAttrs(AttrVisitor* v) override { v->Visit("name", &name); }
};
/** @brief Reference to an OpNode. */
class Op : public BaseExpr {
  SPINE_AST_REF(Op, BaseExpr, OpNode)
  /** The built-in @p name; throws ValueError for unknown names. */
  static Op Get(const std::string& name);
};

/** @brief The module-level symbol of a function; calls refer to it, not to the function body. */
class GlobalVarNode : public BaseExprNode {
 public:
  SPINE_AST_NODE(GlobalVarNode, BaseExprNode, "GlobalVar")
  std::string name_hint;  /**< Function name. */
  /** Fields: name_hint. */
  void VisitAttrs(AttrVisitor* v) override { v->Visit("name_hint", &name_hint); }
};
/** @brief Reference to a GlobalVarNode. */
class GlobalVar : public BaseExpr {
  SPINE_AST_REF(GlobalVar, BaseExpr, GlobalVarNode)
  /** A new symbol. */
  static GlobalVar Make(std::string name);
};

/** @brief Call of a built-in Op or of a GlobalVar. */
class PrimCallNode : public PrimExprNode {
 public:
  SPINE_AST_NODE(PrimCallNode, PrimExprNode, "PrimCall")
  BaseExpr op;               /**< Op or GlobalVar. */
  rt::Array<PrimExpr> args;  /**< Arguments, evaluated left to right. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("datatype", &datatype);
    v->Visit("checked_type", &checked_type);
    v->Visit("op", &op);
    v->Visit("args", &args);
  }
};
/** @brief Reference to a PrimCallNode. */
class PrimCall : public PrimExpr {
  SPINE_AST_REF(PrimCall, PrimExpr, PrimCallNode)
  /**
   * A call. For an Op the argument count and types are checked and the
   * result type computed (@p t is ignored); for a GlobalVar @p t is the
   * callee's declared return type.
   */
  static PrimCall Make(Type t, BaseExpr op, rt::Array<PrimExpr> args);
  /** Scalar form of Make. */
  static PrimCall Make(rt::DataType t, BaseExpr op, rt::Array<PrimExpr> args) {
    return Make(ScalarType(t), std::move(op), std::move(args));
  }
};

/** Names of the built-in ops PrimCall accepts. */
const std::vector<std::string>& BuiltinOpNames();
/** Result type of built-in op @p name on @p args; TypeError/ValueError when it does not apply. */
Type OpResultType(const std::string& name, const rt::Array<PrimExpr>& args);

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_EXPR_H_
