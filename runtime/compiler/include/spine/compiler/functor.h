/**
 * @file functor.h
 * @brief Visitors. NodeFunctor is a table indexed
 * by runtime type index; ExprFunctor / StmtFunctor / TypeFunctor build one
 * table per visitor signature that forwards to the matching virtual
 * VisitExpr_ / VisitStmt_ / VisitType_ of the concrete visitor. Dispatch is
 * one bounds check and one indirect call; visitors do not recurse on their
 * own, each operation decides the order in which it visits children.
 */
#ifndef SPINE_COMPILER_FUNCTOR_H_
#define SPINE_COMPILER_FUNCTOR_H_

#include <string>
#include <utility>
#include <vector>

#include "spine/compiler/block_expr.h"
#include "spine/compiler/class_expr.h"
#include "spine/compiler/container_expr.h"
#include "spine/compiler/function.h"
#include "spine/runtime/error.h"

namespace spine::compiler {

template <typename FType>
class NodeFunctor;

/** @brief Dispatch table: runtime type index -> function pointer. */
template <typename R, typename... Args>
class NodeFunctor<R(const rt::object_r&, Args...)> {
 public:
  /** The stored function type. */
  using FPointer = R (*)(const rt::object_r&, Args...);
  /** True if a handler is registered for @p n's exact type. */
  bool can_dispatch(const rt::object_r& n) const noexcept {
    int32_t i = n.Index();
    return i >= 0 && static_cast<size_t>(i) < table_.size() && table_[i] != nullptr;
  }
  /** Call the handler of @p n's type; throws TypeError if there is none. */
  R operator()(const rt::object_r& n, Args... args) const {
    if (!can_dispatch(n)) {
      rt::ThrowTypeError("no visitor entry for node type '" +
                         (n.defined() ? n.get()->Name() : std::string("<undefined>")) + "'");
    }
    return (*table_[n.Index()])(n, std::forward<Args>(args)...);
  }
  /** Register @p f for node type TNode. */
  template <typename TNode>
  NodeFunctor& set_dispatch(FPointer f) {
    size_t i = static_cast<size_t>(TNode::RuntimeTypeIndex());
    if (table_.size() <= i) table_.resize(i + 1, nullptr);
    table_[i] = f;
    return *this;
  }

 private:
  std::vector<FPointer> table_;
};

// Registers `VisitKind_(const Node*, args...)` of the visitor for one node type.
#define SPINE_FUNCTOR_DISPATCH(Kind, Node)                                                     \
  vt.template set_dispatch<Node>([](const rt::object_r& n, TSelf* self, Args... args) -> R {   \
    return self->Visit##Kind##_(static_cast<const Node*>(n.get()), std::forward<Args>(args)...); \
  })

template <typename FType>
class ExprFunctor;

/** @brief Visitor over PrimExpr (and Op/GlobalVar operands of calls). */
template <typename R, typename... Args>
class ExprFunctor<R(const PrimExpr&, Args...)> {
 protected:
  using TSelf = ExprFunctor<R(const PrimExpr&, Args...)>;  /**< This visitor type. */
  using FType = NodeFunctor<R(const rt::object_r&, TSelf*, Args...)>;  /**< Its table. */

 public:
  virtual ~ExprFunctor() = default;
  /** Dispatch @p e to the VisitExpr_ of its node type. */
  virtual R VisitExpr(const PrimExpr& e, Args... args) {
    static const FType vtable = InitVTable();
    return vtable(e, this, std::forward<Args>(args)...);
  }
  /** Fallback for node types a visitor does not handle. */
  virtual R VisitExprDefault_(const rt::object_t* n, Args...) {
    rt::ThrowTypeError("this visitor does not handle expression node '" + n->Name() + "'");
  }
  virtual R VisitExpr_(const IntImmNode* n, Args... a) { return VisitExprDefault_(n, a...); }          /**< IntImm. */
  virtual R VisitExpr_(const FloatImmNode* n, Args... a) { return VisitExprDefault_(n, a...); }        /**< FloatImm. */
  virtual R VisitExpr_(const StringImmNode* n, Args... a) { return VisitExprDefault_(n, a...); }       /**< StringImm. */
  virtual R VisitExpr_(const PrimVarNode* n, Args... a) { return VisitExprDefault_(n, a...); }         /**< PrimVar. */
  virtual R VisitExpr_(const PrimAddNode* n, Args... a) { return VisitExprDefault_(n, a...); }         /**< +. */
  virtual R VisitExpr_(const PrimSubNode* n, Args... a) { return VisitExprDefault_(n, a...); }         /**< -. */
  virtual R VisitExpr_(const PrimMulNode* n, Args... a) { return VisitExprDefault_(n, a...); }         /**< *. */
  virtual R VisitExpr_(const PrimDivNode* n, Args... a) { return VisitExprDefault_(n, a...); }         /**< /. */
  virtual R VisitExpr_(const PrimFloorDivNode* n, Args... a) { return VisitExprDefault_(n, a...); }    /**< //. */
  virtual R VisitExpr_(const PrimFloorModNode* n, Args... a) { return VisitExprDefault_(n, a...); }    /**< %. */
  virtual R VisitExpr_(const PrimEQNode* n, Args... a) { return VisitExprDefault_(n, a...); }          /**< ==. */
  virtual R VisitExpr_(const PrimNENode* n, Args... a) { return VisitExprDefault_(n, a...); }          /**< !=. */
  virtual R VisitExpr_(const PrimLTNode* n, Args... a) { return VisitExprDefault_(n, a...); }          /**< <. */
  virtual R VisitExpr_(const PrimLENode* n, Args... a) { return VisitExprDefault_(n, a...); }          /**< <=. */
  virtual R VisitExpr_(const PrimGTNode* n, Args... a) { return VisitExprDefault_(n, a...); }          /**< >. */
  virtual R VisitExpr_(const PrimGENode* n, Args... a) { return VisitExprDefault_(n, a...); }          /**< >=. */
  virtual R VisitExpr_(const PrimAndNode* n, Args... a) { return VisitExprDefault_(n, a...); }         /**< and. */
  virtual R VisitExpr_(const PrimOrNode* n, Args... a) { return VisitExprDefault_(n, a...); }          /**< or. */
  virtual R VisitExpr_(const PrimNotNode* n, Args... a) { return VisitExprDefault_(n, a...); }         /**< not. */
  virtual R VisitExpr_(const PrimIfThenElseNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ?:. */
  virtual R VisitExpr_(const PrimLetNode* n, Args... a) { return VisitExprDefault_(n, a...); }         /**< let. */
  virtual R VisitExpr_(const PrimCallNode* n, Args... a) { return VisitExprDefault_(n, a...); }        /**< call. */
  virtual R VisitExpr_(const ListLiteralNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ListLiteral. */
  virtual R VisitExpr_(const SetLiteralNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< SetLiteral. */
  virtual R VisitExpr_(const DictLiteralNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< DictLiteral. */
  virtual R VisitExpr_(const TupleLiteralNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< TupleLiteral. */
  virtual R VisitExpr_(const ContainerGetItemNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ContainerGetItem. */
  virtual R VisitExpr_(const ContainerSetItemNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ContainerSetItem. */
  virtual R VisitExpr_(const ContainerDelItemNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ContainerDelItem. */
  virtual R VisitExpr_(const ContainerGetSliceNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ContainerGetSlice. */
  virtual R VisitExpr_(const ContainerMethodCallNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ContainerMethodCall. */
  virtual R VisitExpr_(const ClassNewNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ClassNew. */
  virtual R VisitExpr_(const ClassGetAttrNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ClassGetAttr. */
  virtual R VisitExpr_(const ClassSetAttrNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ClassSetAttr. */
  virtual R VisitExpr_(const ClassRefOpNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ClassRefOp. */
  virtual R VisitExpr_(const ModuleInstanceNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< ModuleInstance. */
  virtual R VisitExpr_(const BlockExprNode* n, Args... a) { return VisitExprDefault_(n, a...); }  /**< BlockExpr. */

 private:
  static FType InitVTable() {
    FType vt;
    SPINE_FUNCTOR_DISPATCH(Expr, IntImmNode);
    SPINE_FUNCTOR_DISPATCH(Expr, FloatImmNode);
    SPINE_FUNCTOR_DISPATCH(Expr, StringImmNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimVarNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimAddNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimSubNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimMulNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimDivNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimFloorDivNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimFloorModNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimEQNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimNENode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimLTNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimLENode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimGTNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimGENode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimAndNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimOrNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimNotNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimIfThenElseNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimLetNode);
    SPINE_FUNCTOR_DISPATCH(Expr, PrimCallNode);
    SPINE_FUNCTOR_DISPATCH(Expr, ListLiteralNode);
    SPINE_FUNCTOR_DISPATCH(Expr, SetLiteralNode);
    SPINE_FUNCTOR_DISPATCH(Expr, DictLiteralNode);
    SPINE_FUNCTOR_DISPATCH(Expr, TupleLiteralNode);
    SPINE_FUNCTOR_DISPATCH(Expr, ContainerGetItemNode);
    SPINE_FUNCTOR_DISPATCH(Expr, ContainerSetItemNode);
    SPINE_FUNCTOR_DISPATCH(Expr, ContainerDelItemNode);
    SPINE_FUNCTOR_DISPATCH(Expr, ContainerGetSliceNode);
    SPINE_FUNCTOR_DISPATCH(Expr, ContainerMethodCallNode);
    SPINE_FUNCTOR_DISPATCH(Expr, ClassNewNode);
    SPINE_FUNCTOR_DISPATCH(Expr, ClassGetAttrNode);
    SPINE_FUNCTOR_DISPATCH(Expr, ClassSetAttrNode);
    SPINE_FUNCTOR_DISPATCH(Expr, ClassRefOpNode);
    SPINE_FUNCTOR_DISPATCH(Expr, ModuleInstanceNode);
    SPINE_FUNCTOR_DISPATCH(Expr, BlockExprNode);
    return vt;
  }
};

template <typename FType>
class StmtFunctor;

/** @brief Visitor over Stmt. */
template <typename R, typename... Args>
class StmtFunctor<R(const Stmt&, Args...)> {
 protected:
  using TSelf = StmtFunctor<R(const Stmt&, Args...)>;  /**< This visitor type. */
  using FType = NodeFunctor<R(const rt::object_r&, TSelf*, Args...)>;  /**< Its table. */

 public:
  virtual ~StmtFunctor() = default;
  /** Dispatch @p s to the VisitStmt_ of its node type. */
  virtual R VisitStmt(const Stmt& s, Args... args) {
    static const FType vtable = InitVTable();
    return vtable(s, this, std::forward<Args>(args)...);
  }
  /** Fallback for node types a visitor does not handle. */
  virtual R VisitStmtDefault_(const rt::object_t* n, Args...) {
    rt::ThrowTypeError("this visitor does not handle statement node '" + n->Name() + "'");
  }
  virtual R VisitStmt_(const ExprStmtNode* n, Args... a) { return VisitStmtDefault_(n, a...); }       /**< ExprStmt. */
  virtual R VisitStmt_(const AllocaVarStmtNode* n, Args... a) { return VisitStmtDefault_(n, a...); }  /**< Alloca. */
  virtual R VisitStmt_(const AssignStmtNode* n, Args... a) { return VisitStmtDefault_(n, a...); }     /**< Assign. */
  virtual R VisitStmt_(const ReturnStmtNode* n, Args... a) { return VisitStmtDefault_(n, a...); }     /**< Return. */
  virtual R VisitStmt_(const SeqStmtNode* n, Args... a) { return VisitStmtDefault_(n, a...); }        /**< Block. */
  virtual R VisitStmt_(const IfStmtNode* n, Args... a) { return VisitStmtDefault_(n, a...); }         /**< If. */
  virtual R VisitStmt_(const WhileStmtNode* n, Args... a) { return VisitStmtDefault_(n, a...); }      /**< While. */
  virtual R VisitStmt_(const TryStmtNode* n, Args... a) { return VisitStmtDefault_(n, a...); }        /**< Try. */
  virtual R VisitStmt_(const FinallyStmtNode* n, Args... a) { return VisitStmtDefault_(n, a...); }    /**< Finally. */
  virtual R VisitStmt_(const BreakStmtNode* n, Args... a) { return VisitStmtDefault_(n, a...); }      /**< Break. */
  virtual R VisitStmt_(const ContinueStmtNode* n, Args... a) { return VisitStmtDefault_(n, a...); }   /**< Continue. */

 private:
  static FType InitVTable() {
    FType vt;
    SPINE_FUNCTOR_DISPATCH(Stmt, ExprStmtNode);
    SPINE_FUNCTOR_DISPATCH(Stmt, AllocaVarStmtNode);
    SPINE_FUNCTOR_DISPATCH(Stmt, AssignStmtNode);
    SPINE_FUNCTOR_DISPATCH(Stmt, ReturnStmtNode);
    SPINE_FUNCTOR_DISPATCH(Stmt, SeqStmtNode);
    SPINE_FUNCTOR_DISPATCH(Stmt, IfStmtNode);
    SPINE_FUNCTOR_DISPATCH(Stmt, WhileStmtNode);
    SPINE_FUNCTOR_DISPATCH(Stmt, TryStmtNode);
    SPINE_FUNCTOR_DISPATCH(Stmt, FinallyStmtNode);
    SPINE_FUNCTOR_DISPATCH(Stmt, BreakStmtNode);
    SPINE_FUNCTOR_DISPATCH(Stmt, ContinueStmtNode);
    return vt;
  }
};

template <typename FType>
class TypeFunctor;

/** @brief Visitor over Type. */
template <typename R, typename... Args>
class TypeFunctor<R(const Type&, Args...)> {
 protected:
  using TSelf = TypeFunctor<R(const Type&, Args...)>;  /**< This visitor type. */
  using FType = NodeFunctor<R(const rt::object_r&, TSelf*, Args...)>;  /**< Its table. */

 public:
  virtual ~TypeFunctor() = default;
  /** Dispatch @p t to the VisitType_ of its node type. */
  virtual R VisitType(const Type& t, Args... args) {
    static const FType vtable = InitVTable();
    return vtable(t, this, std::forward<Args>(args)...);
  }
  /** Fallback. */
  virtual R VisitTypeDefault_(const rt::object_t* n, Args...) {
    rt::ThrowTypeError("this visitor does not handle type node '" + n->Name() + "'");
  }
  virtual R VisitType_(const PrimTypeNode* n, Args... a) { return VisitTypeDefault_(n, a...); }  /**< PrimType. */
  virtual R VisitType_(const StringTypeNode* n, Args... a) { return VisitTypeDefault_(n, a...); }  /**< StringType. */
  virtual R VisitType_(const NoneTypeNode* n, Args... a) { return VisitTypeDefault_(n, a...); }  /**< NoneType. */
  virtual R VisitType_(const ListTypeNode* n, Args... a) { return VisitTypeDefault_(n, a...); }  /**< ListType. */
  virtual R VisitType_(const SetTypeNode* n, Args... a) { return VisitTypeDefault_(n, a...); }  /**< SetType. */
  virtual R VisitType_(const DictTypeNode* n, Args... a) { return VisitTypeDefault_(n, a...); }  /**< DictType. */
  virtual R VisitType_(const TupleTypeNode* n, Args... a) { return VisitTypeDefault_(n, a...); }  /**< TupleType. */
  virtual R VisitType_(const ClassTypeNode* n, Args... a) { return VisitTypeDefault_(n, a...); }  /**< ClassType. */
  virtual R VisitType_(const IteratorTypeNode* n, Args... a) { return VisitTypeDefault_(n, a...); }  /**< IteratorType. */

 private:
  static FType InitVTable() {
    FType vt;
    SPINE_FUNCTOR_DISPATCH(Type, PrimTypeNode);
    SPINE_FUNCTOR_DISPATCH(Type, StringTypeNode);
    SPINE_FUNCTOR_DISPATCH(Type, NoneTypeNode);
    SPINE_FUNCTOR_DISPATCH(Type, ListTypeNode);
    SPINE_FUNCTOR_DISPATCH(Type, SetTypeNode);
    SPINE_FUNCTOR_DISPATCH(Type, DictTypeNode);
    SPINE_FUNCTOR_DISPATCH(Type, TupleTypeNode);
    SPINE_FUNCTOR_DISPATCH(Type, ClassTypeNode);
    SPINE_FUNCTOR_DISPATCH(Type, IteratorTypeNode);
    return vt;
  }
};

#undef SPINE_FUNCTOR_DISPATCH

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_FUNCTOR_H_
