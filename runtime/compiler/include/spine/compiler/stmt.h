/**
 * @file stmt.h
 * @brief The statement family: expression statements, variable definition
 * and assignment, return, blocks, if, while, break and continue.
 */
#ifndef SPINE_COMPILER_STMT_H_
#define SPINE_COMPILER_STMT_H_

#include "spine/compiler/expr.h"

namespace spine::compiler {

/** @brief Root of all statements. */
class StmtNode : public AstNode {
 public:
  SPINE_AST_NODE(StmtNode, AstNode, "Stmt")
};
/** @brief Reference to a statement. */
class Stmt : public AstRef {
  SPINE_AST_REF(Stmt, AstRef, StmtNode)
};

/** @brief Evaluate an expression for its effects (e.g. a call) and drop the value. */
class ExprStmtNode : public StmtNode {
 public:
  SPINE_AST_NODE(ExprStmtNode, StmtNode, "ExprStmt")
  BaseExpr expr;  /**< The expression. */
  /** Fields: expr. */
  void VisitAttrs(AttrVisitor* v) override { v->Visit("expr", &expr); }
};
/** @brief Reference to an ExprStmtNode. */
class ExprStmt : public Stmt {
  SPINE_AST_REF(ExprStmt, Stmt, ExprStmtNode)
  /** Wrap @p e. */
  static ExprStmt Make(BaseExpr e);
};

/**
 * @brief First definition of a variable, with its initial value (a typed
 * C++ declaration). Without a value, an object variable starts unset; the
 * frontend proves it is assigned before any read.
 */
class AllocaVarStmtNode : public StmtNode {
 public:
  SPINE_AST_NODE(AllocaVarStmtNode, StmtNode, "AllocaVarStmt")
  PrimVar var;         /**< The variable being defined. */
  BaseExpr init_value; /**< Its initial value (same type); may be undefined. */
  /** Fields: var, init_value. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("var", &var);
    v->Visit("init_value", &init_value);
  }
};
/** @brief Reference to an AllocaVarStmtNode. */
class AllocaVarStmt : public Stmt {
  SPINE_AST_REF(AllocaVarStmt, Stmt, AllocaVarStmtNode)
  /** Define @p var as @p init (or unset if @p init is undefined); types must match. */
  static AllocaVarStmt Make(PrimVar var, PrimExpr init);
};

/** @brief Assignment to an existing target. */
class AssignStmtNode : public StmtNode {
 public:
  SPINE_AST_NODE(AssignStmtNode, StmtNode, "AssignStmt")
  BaseExpr lhs;  /**< Target (a PrimVar). */
  BaseExpr rhs;  /**< Value (same type). */
  /** Fields: lhs, rhs. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("lhs", &lhs);
    v->Visit("rhs", &rhs);
  }
};
/** @brief Reference to an AssignStmtNode. */
class AssignStmt : public Stmt {
  SPINE_AST_REF(AssignStmt, Stmt, AssignStmtNode)
  /** `lhs = rhs`; lhs must be a PrimVar of rhs's type. */
  static AssignStmt Make(PrimVar lhs, PrimExpr rhs);
};

/** @brief Return a value, or None (undefined value) from a function declared `-> None`. */
class ReturnStmtNode : public StmtNode {
 public:
  SPINE_AST_NODE(ReturnStmtNode, StmtNode, "ReturnStmt")
  BaseExpr value;  /**< Returned value; undefined for None. */
  /** Fields: value. */
  void VisitAttrs(AttrVisitor* v) override { v->Visit("value", &value); }
};
/** @brief Reference to a ReturnStmtNode. */
class ReturnStmt : public Stmt {
  SPINE_AST_REF(ReturnStmt, Stmt, ReturnStmtNode)
  /** `return value` (`return` for an undefined @p value). */
  static ReturnStmt Make(PrimExpr value);
};

/** @brief A block: statements run in order. */
class SeqStmtNode : public StmtNode {
 public:
  SPINE_AST_NODE(SeqStmtNode, StmtNode, "SeqStmt")
  rt::Array<Stmt> seq;  /**< The statements. */
  /** Fields: seq. */
  void VisitAttrs(AttrVisitor* v) override { v->Visit("seq", &seq); }
};
/** @brief Reference to a SeqStmtNode. */
class SeqStmt : public Stmt {
  SPINE_AST_REF(SeqStmt, Stmt, SeqStmtNode)
  /** A block of @p seq. */
  static SeqStmt Make(rt::Array<Stmt> seq);
};

/** @brief Two-way branch; else_case may be undefined. */
class IfStmtNode : public StmtNode {
 public:
  SPINE_AST_NODE(IfStmtNode, StmtNode, "IfStmt")
  PrimExpr cond;   /**< bool condition. */
  Stmt then_case;  /**< Runs if true. */
  Stmt else_case;  /**< Runs if false; may be undefined. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("cond", &cond);
    v->Visit("then_case", &then_case);
    v->Visit("else_case", &else_case);
  }
};
/** @brief Reference to an IfStmtNode. */
class IfStmt : public Stmt {
  SPINE_AST_REF(IfStmt, Stmt, IfStmtNode)
  /** `if cond: then_case else: else_case`; cond must be bool. */
  static IfStmt Make(PrimExpr cond, Stmt then_case, Stmt else_case);
};

/** @brief Loop while a condition holds. */
class WhileStmtNode : public StmtNode {
 public:
  SPINE_AST_NODE(WhileStmtNode, StmtNode, "WhileStmt")
  PrimExpr cond;  /**< bool condition, evaluated before every iteration. */
  Stmt body;      /**< Loop body. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("cond", &cond);
    v->Visit("body", &body);
  }
};
/** @brief Reference to a WhileStmtNode. */
class WhileStmt : public Stmt {
  SPINE_AST_REF(WhileStmt, Stmt, WhileStmtNode)
  /** `while cond: body`; cond must be bool. */
  static WhileStmt Make(PrimExpr cond, Stmt body);
};

/**
 * @brief try/except: handler i runs when body faults with a kind whose bit
 * is set in masks[i] (bit k: SpineFaultKind k); the first matching handler
 * wins, any other fault goes on unwinding. FALLBACK ("CPython computes
 * this") is never caught: the whole call then runs in CPython.
 */
class TryStmtNode : public StmtNode {
 public:
  SPINE_AST_NODE(TryStmtNode, StmtNode, "TryStmt")
  Stmt body;                   /**< The guarded block. */
  rt::Array<PrimExpr> masks;   /**< One int64 IntImm per handler. */
  rt::Array<Stmt> handlers;    /**< The except blocks, in order. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("body", &body);
    v->Visit("masks", &masks);
    v->Visit("handlers", &handlers);
  }
};
/** @brief Reference to a TryStmtNode. */
class TryStmt : public Stmt {
  SPINE_AST_REF(TryStmt, Stmt, TryStmtNode)
  /** `try: body except ...: handlers[i]`; masks must not include FALLBACK. */
  static TryStmt Make(Stmt body, rt::Array<PrimExpr> masks, rt::Array<Stmt> handlers);
};

/**
 * @brief try/finally: final runs after body, and also when body faults with
 * any kind but FALLBACK, which then goes on unwinding (a fault in final
 * replaces it, as in CPython). FALLBACK skips final: CPython runs the whole
 * call again, final included. The frontend lets no return/break/continue
 * leave body or final.
 */
class FinallyStmtNode : public StmtNode {
 public:
  SPINE_AST_NODE(FinallyStmtNode, StmtNode, "FinallyStmt")
  Stmt body;   /**< The guarded block. */
  Stmt final;  /**< The finally block. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("body", &body);
    v->Visit("final", &final);
  }
};
/** @brief Reference to a FinallyStmtNode. */
class FinallyStmt : public Stmt {
  SPINE_AST_REF(FinallyStmt, Stmt, FinallyStmtNode)
  /** `try: body finally: final`. */
  static FinallyStmt Make(Stmt body, Stmt final);
};

/** @brief Leave the innermost loop. */
class BreakStmtNode : public StmtNode {
 public:
  SPINE_AST_NODE(BreakStmtNode, StmtNode, "Break")
};
/** @brief Reference to a BreakStmtNode. */
class BreakStmt : public Stmt {
  SPINE_AST_REF(BreakStmt, Stmt, BreakStmtNode)
  /** A break. */
  static BreakStmt Make();
};

/** @brief Start the next iteration of the innermost loop. */
class ContinueStmtNode : public StmtNode {
 public:
  SPINE_AST_NODE(ContinueStmtNode, StmtNode, "Continue")
};
/** @brief Reference to a ContinueStmtNode. */
class ContinueStmt : public Stmt {
  SPINE_AST_REF(ContinueStmt, Stmt, ContinueStmtNode)
  /** A continue. */
  static ContinueStmt Make();
};

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_STMT_H_
