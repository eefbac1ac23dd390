/**
 * @file rewriter.h
 * @brief Code generation (seed 001, Visitor chapter). Rewriter writes the C++
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

#include "spine/compiler/functor.h"

namespace spine::compiler {

/**
 * @brief Emits C++ for functions. Every int64 operation goes through a
 * checked helper of codegen_support.h, every float operation follows
 * CPython's definition; expressions write to the stream without line
 * breaks, statements own their indentation and line.
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
  /** C++ symbol of the function named @p name. */
  static std::string FuncSymbol(const std::string& name) { return "f_" + name; }

 private:
  std::string VarName(const PrimVarNode* v);
  std::string Temp();
  void EmitAs(const PrimExpr& e, rt::DataType t, std::ostream& os);
  void Arith(const PrimBinaryOpNode* n, const char* op, const char* int_fn, std::ostream& os);
  void Compare(const PrimBinaryOpNode* n, const char* op, const char* name, std::ostream& os);
  void Helper(const PrimBinaryOpNode* n, rt::DataType t, const char* fn, std::ostream& os);
  std::string Render(const PrimExpr& e, rt::DataType t);
  void Ordered(const PrimExpr& a, rt::DataType ta, const PrimExpr& b, rt::DataType tb,
               const std::function<void(const std::string&, const std::string&)>& combine, std::ostream& os);
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

  void VisitStmt_(const ExprStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const AllocaVarStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const AssignStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const ReturnStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const SeqStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const IfStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const WhileStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const BreakStmtNode* n, std::ostream& os) override;
  void VisitStmt_(const ContinueStmtNode* n, std::ostream& os) override;

  const std::map<std::string, PrimFunc>* functions_;
  rt::DataType ret_type_;
  std::unordered_map<const PrimVarNode*, std::string> var_dict_;  // symbol -> unique C++ name
  std::unordered_set<std::string> used_names_;  // C++ names handed out
  int temp_count_ = 0;
  int indent_ = 0;
  int loop_depth_ = 0;
};

/**
 * @brief Builds a whole module: header, functions, one `name__c_api` per
 * function (argument count and exact type checks, result into a Value) and
 * the registry symbols. Throws ValueError/TypeError for trees it cannot
 * generate (duplicate names, unsupported types, unknown callees).
 */
class SourceRewriter {
 public:
  /** The C++ source of a module holding @p functions. */
  static std::string Build(const rt::Array<PrimFunc>& functions);
};

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_REWRITER_H_
