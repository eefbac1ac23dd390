/**
 * @file printer.h
 * @brief AstPrinter: a readable, Python-like rendering of any AST node, for
 * inspecting what the frontend built (`ast.AsText`). Not the code generator.
 */
#ifndef SPINE_COMPILER_PRINTER_H_
#define SPINE_COMPILER_PRINTER_H_

#include <string>

#include "spine/compiler/doc.h"
#include "spine/compiler/functor.h"

namespace spine::compiler {

/** @brief Prints expressions, statements, types, functions and modules into Docs. */
class AstPrinter : public ExprFunctor<Doc(const PrimExpr&)>,
                   public StmtFunctor<Doc(const Stmt&)>,
                   public TypeFunctor<Doc(const Type&)> {
 public:
  /** Print any node (expression, statement, type, PrimFunc, IRModule, GlobalVar, Op). */
  Doc Print(const rt::object_r& node);

 private:
  Doc PrintFunc(const PrimFuncNode* f);
  Doc Binary(const PrimBinaryOpNode* n, const char* op);
  Doc Block(const Stmt& s);
  Doc Items(const rt::Array<PrimExpr>& items);
  Doc TypeDoc(const TypeNode* n);

  Doc VisitExpr_(const IntImmNode* n) override;
  Doc VisitExpr_(const FloatImmNode* n) override;
  Doc VisitExpr_(const StringImmNode* n) override;
  Doc VisitExpr_(const PrimVarNode* n) override;
  Doc VisitExpr_(const PrimAddNode* n) override { return Binary(n, "+"); }
  Doc VisitExpr_(const PrimSubNode* n) override { return Binary(n, "-"); }
  Doc VisitExpr_(const PrimMulNode* n) override { return Binary(n, "*"); }
  Doc VisitExpr_(const PrimDivNode* n) override { return Binary(n, "/"); }
  Doc VisitExpr_(const PrimFloorDivNode* n) override { return Binary(n, "//"); }
  Doc VisitExpr_(const PrimFloorModNode* n) override { return Binary(n, "%"); }
  Doc VisitExpr_(const PrimEQNode* n) override { return Binary(n, "=="); }
  Doc VisitExpr_(const PrimNENode* n) override { return Binary(n, "!="); }
  Doc VisitExpr_(const PrimLTNode* n) override { return Binary(n, "<"); }
  Doc VisitExpr_(const PrimLENode* n) override { return Binary(n, "<="); }
  Doc VisitExpr_(const PrimGTNode* n) override { return Binary(n, ">"); }
  Doc VisitExpr_(const PrimGENode* n) override { return Binary(n, ">="); }
  Doc VisitExpr_(const PrimAndNode* n) override { return Binary(n, "and"); }
  Doc VisitExpr_(const PrimOrNode* n) override { return Binary(n, "or"); }
  Doc VisitExpr_(const PrimNotNode* n) override;
  Doc VisitExpr_(const PrimIfThenElseNode* n) override;
  Doc VisitExpr_(const PrimLetNode* n) override;
  Doc VisitExpr_(const PrimCallNode* n) override;
  Doc VisitExpr_(const ListLiteralNode* n) override;
  Doc VisitExpr_(const SetLiteralNode* n) override;
  Doc VisitExpr_(const DictLiteralNode* n) override;
  Doc VisitExpr_(const TupleLiteralNode* n) override;
  Doc VisitExpr_(const ContainerGetItemNode* n) override;
  Doc VisitExpr_(const ContainerSetItemNode* n) override;
  Doc VisitExpr_(const ContainerDelItemNode* n) override;
  Doc VisitExpr_(const ContainerGetSliceNode* n) override;
  Doc VisitExpr_(const ContainerMethodCallNode* n) override;
  Doc VisitExpr_(const ClassNewNode* n) override;
  Doc VisitExpr_(const ClassGetAttrNode* n) override;
  Doc VisitExpr_(const ClassSetAttrNode* n) override;
  Doc VisitExpr_(const ClassRefOpNode* n) override;
  Doc VisitExpr_(const ModuleInstanceNode* n) override;
  Doc VisitExpr_(const BlockExprNode* n) override;

  Doc VisitStmt_(const ExprStmtNode* n) override;
  Doc VisitStmt_(const AllocaVarStmtNode* n) override;
  Doc VisitStmt_(const AssignStmtNode* n) override;
  Doc VisitStmt_(const ReturnStmtNode* n) override;
  Doc VisitStmt_(const SeqStmtNode* n) override;
  Doc VisitStmt_(const IfStmtNode* n) override;
  Doc VisitStmt_(const WhileStmtNode* n) override;
  Doc VisitStmt_(const TryStmtNode* n) override;
  Doc VisitStmt_(const FinallyStmtNode* n) override;
  Doc VisitStmt_(const BreakStmtNode* n) override;
  Doc VisitStmt_(const ContinueStmtNode* n) override;

  Doc VisitType_(const PrimTypeNode* n) override { return Doc() << n->dtype.ToString(); }
  Doc VisitType_(const StringTypeNode*) override { return Doc() << "str"; }
  Doc VisitType_(const NoneTypeNode*) override { return Doc() << "None"; }
  Doc VisitType_(const ListTypeNode* n) override { return TypeDoc(n); }
  Doc VisitType_(const SetTypeNode* n) override { return TypeDoc(n); }
  Doc VisitType_(const DictTypeNode* n) override { return TypeDoc(n); }
  Doc VisitType_(const TupleTypeNode* n) override { return TypeDoc(n); }
  Doc VisitType_(const ClassTypeNode* n) override { return Doc() << n->name; }
  Doc VisitType_(const IteratorTypeNode* n) override { return TypeDoc(n); }
};

/** The text form of @p node (what `ast.AsText` returns). */
std::string AsText(const rt::object_r& node);

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_PRINTER_H_
