// Types, container/class expressions, their type rules, printer and
// reflection (issue 7 points 1-2 for str, containers and classes).
#include <gtest/gtest.h>

#include <algorithm>

#include "spine/compiler/block_expr.h"
#include "spine/compiler/class_expr.h"
#include "spine/compiler/container_expr.h"
#include "spine/compiler/function.h"
#include "spine/compiler/method_table.h"
#include "spine/compiler/printer.h"
#include "spine/runtime/list.h"
#include "spine/runtime/registry.h"

namespace sc = spine::compiler;
namespace rt = spine::runtime;

namespace {

sc::Type Int() { return sc::ScalarType(sc::kInt64); }
sc::Type Float() { return sc::ScalarType(sc::kFloat64); }
sc::Type Str() { return sc::StringType::Make(); }
sc::PrimExpr I(int64_t v) { return sc::IntImm::Make(sc::kInt64, v); }
sc::ClassType Point() {
  return sc::ClassType::Make("Point", rt::Array<rt::Str>{rt::Str("x"), rt::Str("tags")},
                             rt::Array<sc::Type>{Int(), sc::ListType::Make(Str())});
}

TEST(ContainerTypes, EqualityTextAndProperties) {
  sc::Type d = sc::DictType::Make(Str(), sc::ListType::Make(Int()));
  EXPECT_TRUE(sc::TypeEqual(d, sc::DictType::Make(Str(), sc::ListType::Make(Int()))));
  EXPECT_FALSE(sc::TypeEqual(d, sc::DictType::Make(Str(), sc::ListType::Make(Float()))));
  EXPECT_EQ(sc::TypeText(d), "dict[str, list[int64]]");
  sc::Type t = sc::TupleType::Make(rt::Array<sc::Type>{Int(), Str()});
  EXPECT_EQ(sc::TypeText(t), "tuple[int64, str]");
  EXPECT_TRUE(sc::IsHashableType(t));
  EXPECT_FALSE(sc::IsMutableType(t));
  EXPECT_TRUE(sc::IsMutableType(sc::TupleType::Make(rt::Array<sc::Type>{sc::ListType::Make(Int())})));
  EXPECT_TRUE(sc::ContainsFloat(sc::ListType::Make(sc::TupleType::Make(rt::Array<sc::Type>{Float()}))));
  EXPECT_TRUE(sc::IsOrderedType(sc::ListType::Make(t)));
  EXPECT_FALSE(sc::IsOrderedType(d));
  EXPECT_EQ(sc::RuntimeDataType(d), rt::DataType::Handle());
  EXPECT_EQ(sc::RuntimeDataType(Int()), sc::kInt64);
}

TEST(ContainerTypes, RefusedShapes) {
  EXPECT_THROW(sc::DictType::Make(Float(), Int()), rt::Error);            // float keys: NaN identity
  EXPECT_THROW(sc::SetType::Make(sc::ListType::Make(Int())), rt::Error);  // unhashable
  EXPECT_THROW(sc::ListType::Make(sc::NoneType::Make()), rt::Error);
  sc::ClassType a = sc::ClassType::Make("A", rt::Array<rt::Str>{}, rt::Array<sc::Type>{});
  // A field reaching the class itself would let instances form cycles.
  EXPECT_THROW(sc::ClassType::Make("A", rt::Array<rt::Str>{rt::Str("next")}, rt::Array<sc::Type>{sc::ListType::Make(a)}),
               rt::Error);
  EXPECT_THROW(sc::ClassType::Make("B", rt::Array<rt::Str>{rt::Str("x"), rt::Str("x")},
                                   rt::Array<sc::Type>{Int(), Int()}),
               rt::Error);
  EXPECT_EQ(Point().FieldIndex("tags"), 1);
  EXPECT_EQ(Point().FieldIndex("nope"), -1);
}

TEST(ContainerExprs, TypeRules) {
  sc::PrimVar xs = sc::PrimVar::Make("xs", sc::ListType::Make(Int()));
  sc::PrimVar d = sc::PrimVar::Make("d", sc::DictType::Make(Str(), Int()));
  sc::PrimVar s = sc::PrimVar::Make("s", Str());
  sc::PrimVar t = sc::PrimVar::Make("t", sc::TupleType::Make(rt::Array<sc::Type>{Int(), Str()}));
  EXPECT_TRUE(sc::TypeEqual(sc::ContainerGetItem::Make(xs, I(-1)).type(), Int()));
  EXPECT_TRUE(sc::TypeEqual(sc::ContainerGetItem::Make(s, I(0)).type(), Str()));
  EXPECT_TRUE(sc::TypeEqual(sc::ContainerGetItem::Make(d, s).type(), Int()));
  EXPECT_TRUE(sc::TypeEqual(sc::ContainerGetItem::Make(t, I(-1)).type(), Str()));
  EXPECT_THROW(sc::ContainerGetItem::Make(d, I(0)), rt::Error);   // wrong key type
  EXPECT_THROW(sc::ContainerGetItem::Make(t, sc::PrimVar::Make("i", sc::kInt64)), rt::Error);  // mixed tuple
  EXPECT_THROW(sc::ContainerGetItem::Make(t, I(2)), rt::Error);
  EXPECT_THROW(sc::ContainerSetItem::Make(s, I(0), s), rt::Error);  // str is immutable
  EXPECT_THROW(sc::ContainerSetItem::Make(xs, I(0), s), rt::Error);
  EXPECT_TRUE(sc::TypeEqual(sc::ContainerSetItem::Make(d, s, I(1)).type(), sc::NoneType::Make()));
  EXPECT_THROW(sc::ContainerGetSlice::Make(d, sc::PrimExpr(), sc::PrimExpr(), sc::PrimExpr()), rt::Error);
  EXPECT_THROW(sc::ListLiteral::Make(sc::ListType::Make(Int()), rt::Array<sc::PrimExpr>{sc::FloatImm::Make(1)}),
               rt::Error);
  EXPECT_TRUE(sc::TypeEqual(sc::TupleLiteral::Make(rt::Array<sc::PrimExpr>{I(1), s}).type(), t.type()));
}

TEST(ContainerExprs, MethodTable) {
  sc::PrimVar xs = sc::PrimVar::Make("xs", sc::ListType::Make(Int()));
  sc::PrimVar fs = sc::PrimVar::Make("fs", sc::ListType::Make(Float()));
  sc::PrimVar s = sc::PrimVar::Make("s", Str());
  auto call = [](sc::PrimExpr o, const char* m, rt::Array<sc::PrimExpr> a) {
    return sc::ContainerMethodCall::Make(o, m, a);
  };
  EXPECT_TRUE(sc::TypeEqual(call(xs, "append", {I(1)}).type(), sc::NoneType::Make()));
  EXPECT_TRUE(sc::TypeEqual(call(xs, "pop", {}).type(), Int()));
  EXPECT_TRUE(sc::TypeEqual(call(s, "split", {}).type(), sc::ListType::Make(Str())));
  EXPECT_THROW(call(xs, "append", {s}), rt::Error);
  EXPECT_THROW(call(s, "casefold", {}), rt::Error);
  EXPECT_EQ(sc::TypeText(call(s, "partition", {s}).type()), "tuple[str, str, str]");
  EXPECT_THROW(call(s, "count", {s, s}), rt::Error);  // start is an int
  EXPECT_THROW(call(fs, "index", {sc::FloatImm::Make(1)}), rt::Error);  // NaN identity
  sc::MethodInfo m = sc::LookupMethod(xs.type(), "sort", rt::Array<sc::PrimExpr>{sc::IntImm::Make(sc::kBool, 0)});
  EXPECT_EQ(m.function, "list_sort");
  EXPECT_TRUE(m.mutates);
  std::vector<std::string> names = sc::MethodNames("str");
  EXPECT_NE(names.size(), 0u);
  EXPECT_EQ(std::count(names.begin(), names.end(), "count"), 1);  // each name once, wherever its rows are
}

TEST(ContainerExprs, OpsAndComparisons) {
  sc::PrimVar xs = sc::PrimVar::Make("xs", sc::ListType::Make(Int()));
  sc::PrimVar fs = sc::PrimVar::Make("fs", sc::ListType::Make(Float()));
  sc::PrimVar d = sc::PrimVar::Make("d", sc::DictType::Make(Str(), Int()));
  auto op = [](const char* name, rt::Array<sc::PrimExpr> a) {
    return sc::PrimCall::Make(sc::Type(), sc::Op::Get(name), a);
  };
  EXPECT_TRUE(sc::TypeEqual(op("len", {d}).type(), Int()));
  EXPECT_TRUE(sc::TypeEqual(op("concat", {xs, xs}).type(), xs.type()));
  EXPECT_THROW(op("contains", {fs, sc::FloatImm::Make(1)}), rt::Error);
  EXPECT_THROW(op("sum", {fs}), rt::Error);  // sum([]) is the int 0: the type would depend on the data
  EXPECT_TRUE(sc::TypeEqual(op("sum", {fs, sc::FloatImm::Make(0)}).type(), Float()));
  EXPECT_EQ(sc::PrimEQ::Make(xs, xs).dtype(), sc::kBool);
  EXPECT_THROW(sc::PrimEQ::Make(fs, fs), rt::Error);
  EXPECT_THROW(sc::PrimLT::Make(d, d), rt::Error);
  EXPECT_THROW(sc::PrimEQ::Make(xs, d), rt::Error);
  sc::PrimExpr it = op("iter_items", {d});
  EXPECT_EQ(sc::TypeText(op("iter_value", {it}).type()), "tuple[str, int64]");
}

TEST(ContainerExprs, Classes) {
  sc::ClassType p = Point();
  sc::PrimVar v = sc::PrimVar::Make("p", p);
  EXPECT_TRUE(sc::TypeEqual(sc::ClassGetAttr::Make(v, "x").type(), Int()));
  EXPECT_THROW(sc::ClassGetAttr::Make(v, "y"), rt::Error);
  EXPECT_THROW(sc::ClassSetAttr::Make(v, "x", sc::FloatImm::Make(1)), rt::Error);
  EXPECT_TRUE(sc::TypeEqual(sc::ClassNew::Make(p, rt::Array<sc::PrimExpr>{I(1)}).type(), p));
  EXPECT_EQ(sc::PrimEQ::Make(v, v).dtype(), sc::kBool);  // identity
  EXPECT_THROW(sc::PrimLT::Make(v, v), rt::Error);
  // A method takes its instance first.
  sc::Stmt ret = sc::ReturnStmt::Make(sc::ClassGetAttr::Make(v, "x"));
  EXPECT_NO_THROW(sc::PrimFunc::Make("Point.getx", rt::Array<sc::PrimVar>{v}, {}, ret, Int()));
  EXPECT_THROW(sc::PrimFunc::Make("Other.getx", rt::Array<sc::PrimVar>{v}, {}, ret, Int()), rt::Error);
}

TEST(ContainerPrinter, Text) {
  sc::PrimVar xs = sc::PrimVar::Make("xs", sc::ListType::Make(Int()));
  sc::PrimVar d = sc::PrimVar::Make("d", sc::DictType::Make(Str(), Int()));
  sc::PrimVar p = sc::PrimVar::Make("p", Point());
  sc::PrimExpr key = sc::StringImm::Make("k\"");
  rt::Array<sc::Stmt> body{
      sc::AllocaVarStmt::Make(d, sc::DictLiteral::Make(d.type(), rt::Array<sc::PrimExpr>{key},
                                                       rt::Array<sc::PrimExpr>{I(1)})),
      sc::ExprStmt::Make(sc::ContainerSetItem::Make(d, key, sc::ContainerGetItem::Make(xs, I(-1)))),
      sc::ExprStmt::Make(sc::ContainerMethodCall::Make(xs, "append", rt::Array<sc::PrimExpr>{I(2)})),
      sc::ExprStmt::Make(sc::ClassSetAttr::Make(p, "x", sc::ClassGetAttr::Make(p, "x"))),
      sc::ReturnStmt::Make(sc::BlockExpr::Make(
          sc::ExprStmt::Make(sc::ContainerDelItem::Make(xs, I(0))),
          sc::PrimCall::Make(sc::Type(), sc::Op::Get("len"),
                             rt::Array<sc::PrimExpr>{sc::ContainerGetSlice::Make(xs, I(1), sc::PrimExpr(), I(2))})))};
  sc::PrimFunc f = sc::PrimFunc::Make("f", rt::Array<sc::PrimVar>{xs, p}, {}, sc::SeqStmt::Make(body), Int());
  EXPECT_EQ(sc::AsText(f),
            "def f(xs: list[int64], p: Point) -> int64:\n"
            "  d: dict[str, int64] = {\"k\\\"\": 1}\n"
            "  d[\"k\\\"\"] = xs[-1]\n"
            "  xs.append(2)\n"
            "  p.x = p.x\n"
            "  return block:\n"
            "    del xs[0]\n"
            "  -> len(xs[1::2])");
  EXPECT_EQ(sc::AsText(sc::TupleLiteral::Make(rt::Array<sc::PrimExpr>{I(1)})), "(1,)");
  EXPECT_EQ(sc::AsText(sc::SetLiteral::Make(sc::SetType::Make(Int()), {})), "set()");
  EXPECT_EQ(sc::AsText(sc::ClassNew::Make(Point(), rt::Array<sc::PrimExpr>{I(3)})), "Point(3)");
  EXPECT_EQ(sc::AsText(Point()), "Point");
}

TEST(ContainerRegistry, ConstructorsAndReflection) {
  rt::McValue lt = rt::FunctionRegistry::Get("ast.ListType")("int64");
  rt::McValue dt = rt::FunctionRegistry::Get("ast.DictType")(rt::FunctionRegistry::Get("ast.StringType")(), lt);
  EXPECT_EQ(rt::FunctionRegistry::Get("ast.TypeText")(dt).As<std::string>(), "dict[str, list[int64]]");
  rt::McValue lit = rt::FunctionRegistry::Get("ast.ListLiteral")(lt, rt::List{});
  rt::List names = rt::FunctionRegistry::Get("runtime.NodeGetAttrNames")(lit).As<rt::List>();
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].As<std::string>(), "checked_type");
  rt::McValue cls = rt::FunctionRegistry::Get("ast.ClassType")("P", rt::List{rt::McValue("x")}, rt::List{lt});
  EXPECT_EQ(rt::FunctionRegistry::Get("runtime.NodeGetAttr")(cls, "name").As<std::string>(), "P");
  EXPECT_THROW(rt::FunctionRegistry::Get("ast.SetType")(lt), rt::Error);
}

}  // namespace
