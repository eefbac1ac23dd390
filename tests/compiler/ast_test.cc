// AST construction and type rules, visitors/printer, reflection through the registry.
#include <gtest/gtest.h>

#include "spine/compiler/function.h"
#include "spine/compiler/printer.h"
#include "spine/runtime/list.h"
#include "spine/runtime/registry.h"

namespace sc = spine::compiler;
namespace rt = spine::runtime;

namespace {

sc::PrimFunc MakeAdd() {
  sc::PrimVar a = sc::PrimVar::Make("a", sc::kInt64), b = sc::PrimVar::Make("b", sc::kInt64);
  sc::PrimVar c = sc::PrimVar::Make("c", sc::kInt64);
  rt::Array<sc::Stmt> body{sc::AllocaVarStmt::Make(c, sc::PrimAdd::Make(a, b)), sc::ReturnStmt::Make(c)};
  return sc::PrimFunc::Make("add", rt::Array<sc::PrimVar>{a, b}, rt::Array<sc::PrimExpr>{},
                            sc::SeqStmt::Make(body), sc::PrimType::Make(sc::kInt64));
}

TEST(Ast, ResultTypesFollowPython) {
  sc::PrimExpr i = sc::IntImm::Make(sc::kInt64, 3), f = sc::FloatImm::Make(1.5);
  sc::PrimExpr t = sc::IntImm::Make(sc::kBool, 1);
  EXPECT_EQ(sc::PrimAdd::Make(i, f).dtype(), sc::kFloat64);
  EXPECT_EQ(sc::PrimAdd::Make(t, t).dtype(), sc::kInt64);  // True + True == 2
  EXPECT_EQ(sc::PrimDiv::Make(i, i).dtype(), sc::kFloat64);
  EXPECT_EQ(sc::PrimLT::Make(i, f).dtype(), sc::kBool);
  EXPECT_EQ(sc::PrimFloorMod::Make(i, i).dtype(), sc::kInt64);
}

TEST(Ast, IllTypedTreesAreRejected) {
  sc::PrimExpr i = sc::IntImm::Make(sc::kInt64, 3);
  sc::PrimVar v = sc::PrimVar::Make("x", sc::kFloat64);
  EXPECT_THROW(sc::PrimAnd::Make(i, i), rt::Error);  // value-returning and goes through PrimLet
  EXPECT_THROW(sc::AssignStmt::Make(v, i), rt::Error);
  EXPECT_THROW(sc::IfStmt::Make(i, sc::BreakStmt::Make(), sc::Stmt()), rt::Error);
  EXPECT_THROW(sc::IntImm::Make(sc::kBool, 2), rt::Error);
  EXPECT_THROW(sc::Op::Get("no_such_op"), rt::Error);
  EXPECT_THROW(sc::PrimCall::Make(sc::kInt64, sc::Op::Get("min"),
                                  rt::Array<sc::PrimExpr>{i, sc::FloatImm::Make(1.0)}),
               rt::Error);
}

TEST(Ast, VisitorDispatchAndPrinter) {
  EXPECT_EQ(sc::AsText(MakeAdd()), "def add(a: int64, b: int64) -> int64:\n  c: int64 = (a + b)\n  return c");
  sc::PrimVar x = sc::PrimVar::Make("x", sc::kInt64);
  sc::Stmt loop = sc::WhileStmt::Make(
      sc::PrimLT::Make(x, sc::IntImm::Make(sc::kInt64, 10)),
      sc::SeqStmt::Make(rt::Array<sc::Stmt>{
          sc::IfStmt::Make(sc::PrimEQ::Make(x, x), sc::ContinueStmt::Make(), sc::BreakStmt::Make())}));
  EXPECT_EQ(sc::AsText(loop), "while (x < 10):\n  if (x == x):\n    continue\n  else:\n    break");
}

TEST(Ast, ModuleHoldsUniqueFunctions) {
  sc::IRModule m = sc::IRModule::Make();
  m.Add(MakeAdd());
  EXPECT_TRUE(m.Lookup("add").defined());
  EXPECT_FALSE(m.Lookup("mul").defined());
  EXPECT_THROW(m.Add(MakeAdd()), rt::Error);
}

TEST(Ast, ConstructorsAndReflectionThroughRegistry) {
  rt::Callable var = rt::FunctionRegistry::Get("ast.PrimVar");
  rt::Callable add = rt::FunctionRegistry::Get("ast.PrimAdd");
  ASSERT_TRUE(var.defined() && add.defined());
  rt::McValue a = var("a", "int64");
  rt::McValue sum = add(a, a);
  rt::McValue names = rt::FunctionRegistry::Get("runtime.NodeGetAttrNames")(sum);
  rt::List l = names.As<rt::List>();
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[0].As<std::string>(), "datatype");
  rt::Callable get = rt::FunctionRegistry::Get("runtime.NodeGetAttr");
  EXPECT_EQ(get(sum, "datatype").As<std::string>(), "int64");
  EXPECT_EQ(get(get(sum, "a"), "var_name").As<std::string>(), "a");
  EXPECT_THROW(get(sum, "nope"), rt::Error);
  EXPECT_EQ(rt::FunctionRegistry::Get("ast.AsText")(sum).As<std::string>(), "(a + a)");
}

}  // namespace
