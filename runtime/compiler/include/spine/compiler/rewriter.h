/**
 * @file rewriter.h
 * @brief Code generation. Rewriter writes the C++
 * definition of PrimFuncs to a stream; SourceRewriter wraps them into a
 * loadable module: `name__c_api` wrappers and the registry symbols of
 * module_abi.h. Registered as `rewriter.BuildFunction` and
 * `rewriter.BuildFunctions`.
 */
#ifndef SPINE_COMPILER_REWRITER_H_
#define SPINE_COMPILER_REWRITER_H_

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "spine/compiler/functor.h"

namespace spine::compiler {

/**
 * @brief Emits C++ for functions. Every int64 operation goes through a
 * checked helper of codegen_support.h, every float operation follows
 * CPython's definition, str and containers map to the unboxed native
 * library (the headers under codegen/); expressions write to the stream without line
 * breaks, statements own their indentation and line. Operands Python
 * evaluates in order are bound to temporaries in that order whenever more
 * than one of them could fault (C++ leaves the order unspecified).
 */
class Rewriter : public ExprFunctor<void(const PrimExpr&, std::ostream&)>,
                 public StmtFunctor<void(const Stmt&, std::ostream&)> {
 public:
  /** @p functions: every function of the module by name (callees of GlobalVar calls). */
  explicit Rewriter(const std::map<std::string, PrimFunc>* functions) : functions_(functions) {}
  /** The C++ prototype of @p f (no trailing `;`). */
  std::string Prototype(const PrimFunc& f);
  /** Emit the definition of @p f. */
  void EmitFunction(const PrimFunc& f, std::ostream& os);
  /** C++ type of a scalar data type (int64_t, double, bool); throws for others. */
  static std::string CType(rt::DataType t);
  /** C++ type of any value type (void for None). */
  static std::string CType(const Type& t);
  /** C++ symbol of the function or method (`Class.method`) named @p name. */
  static std::string FuncSymbol(const std::string& name);
  /** C++ struct of a class. */
  static std::string ClassStruct(const std::string& name) { return "c_" + name; }
  /** Emit the structs of every class reachable from @p functions' types, fields before users. */
  static void EmitClasses(const rt::Array<PrimFunc>& functions, std::ostream& os);

 private:
  std::string VarName(const PrimVarNode* v);
  std::string Temp();
  void EmitAs(const PrimExpr& e, rt::DataType t, std::ostream& os);
  void Arith(const PrimBinaryOpNode* n, const char* op, const char* int_fn, std::ostream& os);
  void Compare(const PrimBinaryOpNode* n, const char* op, const char* name, std::ostream& os);
  void Helper(const PrimBinaryOpNode* n, rt::DataType t, const char* fn, std::ostream& os);
  std::string Render(const PrimExpr& e, rt::DataType t);
  std::string Render(const PrimExpr& e);
  void Ordered(const PrimExpr& a, rt::DataType ta, const PrimExpr& b, rt::DataType tb,
               const std::function<void(const std::string&, const std::string&)>& combine, std::ostream& os);
  void Sequence(const std::vector<PrimExpr>& operands,
                const std::function<void(const std::vector<std::string>&)>& combine, std::ostream& os);
  void Call(const std::string& fn, const std::vector<PrimExpr>& operands, std::ostream& os);
  void ObjectCompare(const PrimBinaryOpNode* n, const char* test, std::ostream& os);
  void EmitOp(const std::string& op, const PrimCallNode* n, std::ostream& os);
  // math_*, **, bit operators: a codegen/pymath.h function of converted operands, in Python's order.
  void EmitNumeric(const std::string& op, const std::vector<PrimExpr>& args, std::ostream& os);
  void EmitGlobalCall(const GlobalVarNode* g, const PrimCallNode* n, std::ostream& os);
  void EmitStrLiteral(const std::string& bytes, std::ostream& os);
  void Line(std::ostream& os) const;
  void Block(const Stmt& s, std::ostream& os);

  void VisitExpr_(const IntImmNode* n, std::ostream& os) override;
  void VisitExpr_(const FloatImmNode* n, std::ostream& os) override;
  void VisitExpr_(const PrimVarNode* n, std::ostream& os) override;
  void VisitExpr_(const PrimAddNode* n, std::ostream& os) override { Arith(n, "+", "add_i", os); }
  void VisitExpr_(const PrimSubNode* n, std::ostream& os) override { Arith(n, "-", "sub_i", os); }
  void VisitExpr_(const PrimMulNode* n, std::ostream& os) override { Arith(n, "*", "mul_i", os); }
  void VisitExpr_(const PrimDivNode* n, std::ostream& os) override;
  void VisitExpr_(const PrimFloorDivNode* n, std::ostream& os) override;
  void VisitExpr_(const PrimFloorModNode* n, std::ostream& os) override;
  void VisitExpr_(const StringImmNode* n, std::ostream& os) override { EmitStrLiteral(n->value, os); }
  void VisitExpr_(const PrimEQNode* n, std::ostream& os) override { Compare(n, "==", "eq", os); }
  void VisitExpr_(const PrimNENode* n, std::ostream& os) override { Compare(n, "!=", "ne", os); }
  void VisitExpr_(const PrimLTNode* n, std::ostream& os) override { Compare(n, "<", "lt", os); }
  void VisitExpr_(const PrimLENode* n, std::ostream& os) override { Compare(n, "<=", "le", os); }
  void VisitExpr_(const PrimGTNode* n, std::ostream& os) override { Compare(n, ">", "gt", os); }
  void VisitExpr_(const PrimGENode* n, std::ostream& os) override { Compare(n, ">=", "ge", os); }
  void VisitExpr_(const PrimAndNode* n, std::ostream& os) override;
  void VisitExpr_(const PrimOrNode* n, std::ostream& os) override;
  void VisitExpr_(const PrimNotNode* n, std::ostream& os) override;
  void VisitExpr_(const PrimIfThenElseNode* n, std::ostream& os) override;
  void VisitExpr_(const PrimLetNode* n, std::ostream& os) override;
  void VisitExpr_(const PrimCallNode* n, std::ostream& os) override;
  void VisitExpr_(const ListLiteralNode* n, std::ostream& os) override;
  void VisitExpr_(const SetLiteralNode* n, std::ostream& os) override;
  void VisitExpr_(const DictLiteralNode* n, std::ostream& os) override;
  void VisitExpr_(const TupleLiteralNode* n, std::ostream& os) override;
  void VisitExpr_(const ContainerGetItemNode* n, std::ostream& os) override;
  void VisitExpr_(const ContainerSetItemNode* n, std::ostream& os) override;
  void VisitExpr_(const ContainerDelItemNode* n, std::ostream& os) override;
  void VisitExpr_(const ContainerGetSliceNode* n, std::ostream& os) override;
  void VisitExpr_(const ContainerMethodCallNode* n, std::ostream& os) override;
  void VisitExpr_(const ClassNewNode* n, std::ostream& os) override;
  void VisitExpr_(const ClassGetAttrNode* n, std::ostream& os) override;
  void VisitExpr_(const ClassSetAttrNode* n, std::ostream& os) override;
  void VisitExpr_(const ClassRefOpNode* n, std::ostream& os) override;
  void VisitExpr_(const ModuleInstanceNode* n, std::ostream& os) override;
  void VisitExpr_(const BlockExprNode* n, std::ostream& os) override;

  void VisitStmt_(const ExprStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const AllocaVarStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const AssignStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const ReturnStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const SeqStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const IfStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const WhileStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const TryStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const FinallyStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const BreakStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const ContinueStmtNode* n, std::ostream& os) override;

  const std::map<std::string, PrimFunc>* functions_;
  Type ret_type_;
  std::unordered_map<const PrimVarNode*, std::string> var_dict_;  // symbol -> unique C++ name
  std::unordered_set<std::string> used_names_;  // C++ names handed out
  int temp_count_ = 0;
  int indent_ = 0;
  int loop_depth_ = 0;
  std::vector<std::string> caught_;  /**< The fault variables of the handlers being emitted, innermost last. */

  /**
   * @brief The body of a try ... finally being emitted: a return, break or
   * continue leaving it notes the jump (and the return value, evaluated
   * first), runs final, then jumps on (rewriter_finally.cc).
   */
  struct FinallyExit {
    std::string pending;  /**< int: the jump waiting for final (a FinallyJump), 0 for none. */
    std::string value;    /**< The return value waiting for final. */
    std::string label;    /**< Where final starts. */
    int loop_depth;       /**< Loops around the try: a break or continue at this depth leaves it. */
    int used;             /**< Bit per FinallyJump the body takes. */
  };
  /** Emit jump @p jump (a FinallyJump; @p value: the C++ return value, empty for none) from here. */
  void Leave(int jump, const std::string& value, std::ostream& os);
  std::vector<FinallyExit> finally_;  /**< The try ... finally bodies being emitted, innermost last. */
};

/**
 * @brief Builds a whole module: header, class structs, functions, one
 * `name__c_api` per exported function (argument count and exact type
 * checks, results into a Value) and the registry symbols. Methods and
 * functions whose signature holds a class instance, a None result or a set
 * result are native-only (no wrapper, not in the registry). Throws
 * ValueError/TypeError for trees it cannot generate (duplicate names,
 * unsupported types, unknown callees).
 */
class SourceRewriter {
 public:
  /** The C++ source of a module holding @p functions. */
  static std::string Build(const rt::Array<PrimFunc>& functions);
  /** True if @p f gets a `name__c_api` wrapper (see class comment). */
  static bool IsExported(const PrimFunc& f);
};

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_REWRITER_H_
