// Containers, str and classes through code generation, g++ and the loader:
// arguments from runtime objects, results back as runtime objects, Python's
// errors. In the ASan build the modules are compiled with the sanitizers.
#include <gtest/gtest.h>

#include <string>

#include "module_builder.h"
#include "spine/compiler/block_expr.h"
#include "spine/compiler/class_expr.h"
#include "spine/compiler/container_expr.h"
#include "spine/compiler/module_loader.h"
#include "spine/compiler/rewriter.h"
#include "spine/runtime/dict.h"
#include "spine/runtime/list.h"
#include "spine/runtime/set.h"
#include "spine/runtime/tuple.h"

namespace sc = spine::compiler;
namespace rt = spine::runtime;

namespace {

using ContainerCodegen = spine_test::ModuleBuilder;

sc::Type Int() { return sc::ScalarType(sc::kInt64); }
sc::Type Str() { return sc::StringType::Make(); }
sc::PrimExpr I(int64_t v) { return sc::IntImm::Make(sc::kInt64, v); }
sc::PrimExpr Op(const char* name, rt::Array<sc::PrimExpr> args) {
  return sc::PrimCall::Make(sc::Type(), sc::Op::Get(name), args);
}
sc::PrimFunc Func(const char* name, rt::Array<sc::PrimVar> params, rt::Array<sc::Stmt> body, sc::Type ret) {
  return sc::PrimFunc::Make(name, params, {}, sc::SeqStmt::Make(body), ret);
}

// def wc(words: list[str]) -> dict[str, int]:
//     d = {}
//     for w in words: d[w] = d.get(w, 0) + 1
//     return d
sc::PrimFunc WordCount() {
  sc::PrimVar words = sc::PrimVar::Make("words", sc::ListType::Make(Str()));
  sc::Type dt = sc::DictType::Make(Str(), Int());
  sc::PrimVar d = sc::PrimVar::Make("d", dt);
  sc::PrimExpr start = Op("iter_list", {words});
  sc::PrimVar it = sc::PrimVar::Make("it", start.type());
  sc::PrimVar w = sc::PrimVar::Make("w", Str());
  sc::PrimExpr get = sc::ContainerMethodCall::Make(d, "get", rt::Array<sc::PrimExpr>{w, I(0)});
  sc::Stmt loop = sc::WhileStmt::Make(
      Op("iter_next", {it}),
      sc::SeqStmt::Make(rt::Array<sc::Stmt>{
          sc::AllocaVarStmt::Make(w, Op("iter_value", {it})),
          sc::ExprStmt::Make(sc::ContainerSetItem::Make(d, w, sc::PrimAdd::Make(get, I(1))))}));
  return Func("wc", {words},
              {sc::AllocaVarStmt::Make(d, sc::DictLiteral::Make(dt, {}, {})), sc::AllocaVarStmt::Make(it, start), loop,
               sc::ReturnStmt::Make(d)},
              dt);
}

// def at(s: str, i: int) -> tuple[str, int]: return (s[i], len(s))
sc::PrimFunc At() {
  sc::PrimVar s = sc::PrimVar::Make("s", Str()), i = sc::PrimVar::Make("i", sc::kInt64);
  sc::PrimExpr t = sc::TupleLiteral::Make(rt::Array<sc::PrimExpr>{sc::ContainerGetItem::Make(s, i), Op("len", {s})});
  return Func("at", {s, i}, {sc::ReturnStmt::Make(t)}, t.type());
}

// def look(d: dict[str, int], k: str) -> int: return d[k]
sc::PrimFunc Look() {
  sc::PrimVar d = sc::PrimVar::Make("d", sc::DictType::Make(Str(), Int())), k = sc::PrimVar::Make("k", Str());
  return Func("look", {d, k}, {sc::ReturnStmt::Make(sc::ContainerGetItem::Make(d, k))}, Int());
}

// class Box: n: int; tags: list[str]; def __init__(self, n): self.n = n; self.tags = []
// def boxed(n: int) -> list[str]: b = Box(n); b.tags.append(str(b.n)); return b.tags[::-1] + sorted(...)
sc::ClassType BoxType() {
  return sc::ClassType::Make("Box", rt::Array<rt::Str>{rt::Str("n"), rt::Str("tags")},
                             rt::Array<sc::Type>{Int(), sc::ListType::Make(Str())});
}
sc::PrimFunc BoxInit() {
  sc::PrimVar self = sc::PrimVar::Make("self", BoxType()), n = sc::PrimVar::Make("n", sc::kInt64);
  sc::Type lt = sc::ListType::Make(Str());
  return Func("Box.__init__", {self, n},
              {sc::ExprStmt::Make(sc::ClassSetAttr::Make(self, "n", n)),
               sc::ExprStmt::Make(sc::ClassSetAttr::Make(self, "tags", sc::ListLiteral::Make(lt, {})))},
              sc::NoneType::Make());
}
sc::PrimFunc Boxed() {
  sc::PrimVar n = sc::PrimVar::Make("n", sc::kInt64), b = sc::PrimVar::Make("b", BoxType());
  sc::PrimExpr tags = sc::ClassGetAttr::Make(b, "tags");
  sc::PrimExpr append = sc::ContainerMethodCall::Make(
      tags, "append", rt::Array<sc::PrimExpr>{Op("str", {sc::ClassGetAttr::Make(b, "n")})});
  sc::PrimExpr twice = sc::BlockExpr::Make(sc::ExprStmt::Make(append), Op("concat", {tags, tags}));
  return Func("boxed", {n},
              {sc::AllocaVarStmt::Make(b, sc::ClassNew::Make(BoxType(), rt::Array<sc::PrimExpr>{n})),
               sc::ReturnStmt::Make(sc::ContainerGetSlice::Make(twice, sc::PrimExpr(), sc::PrimExpr(), I(-1)))},
              sc::ListType::Make(Str()));
}

TEST_F(ContainerCodegen, ContainersAcrossTheBoundary) {
  std::string src = sc::SourceRewriter::Build(rt::Array<sc::PrimFunc>{WordCount(), At(), Look(), BoxInit(), Boxed()});
  EXPECT_EQ(src.find("Box.__init____c_api"), std::string::npos);  // methods are native-only
  sc::Module m = sc::Module::Load(Compile(src, "containers"));
  EXPECT_EQ(m.FunctionNames(), (std::vector<std::string>{"wc", "at", "look", "boxed"}));

  rt::McValue counts = m.GetFunction("wc")(rt::List{"b", "a", "b", "\xc3\xa9"});
  rt::Dict d = counts.As<rt::Dict>();
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d.get(rt::McValue("b")).As<int64_t>(), 2);
  EXPECT_EQ(d.get(rt::McValue("\xc3\xa9")).As<int64_t>(), 1);
  EXPECT_EQ((*d.items().begin()).first.As<std::string>(), "b");  // insertion order

  rt::Tuple t = m.GetFunction("at")("h\xc3\xa9llo", -4).As<rt::Tuple>();  // code points, not bytes
  EXPECT_EQ(t[0].As<std::string>(), "\xc3\xa9");
  EXPECT_EQ(t[1].As<int64_t>(), 5);
  try {
    m.GetFunction("at")("abc", 3);
    FAIL() << "no error";
  } catch (const rt::Error& e) {
    EXPECT_EQ(e.kind(), rt::ErrorKind::kIndexError);
    EXPECT_STREQ(e.what(), "at(): string index out of range");
  }
  try {
    m.GetFunction("look")(rt::Dict{{"a", 1}}, "it's");
    FAIL() << "no error";
  } catch (const rt::Error& e) {
    EXPECT_EQ(e.kind(), rt::ErrorKind::kKeyError);
    EXPECT_STREQ(e.what(), "look(): \"it's\"");  // CPython's repr of the key
  }
  // Element tags are checked exactly: a bool is not an int, an int not a str.
  EXPECT_THROW(m.GetFunction("wc")(rt::List{"a", 1}), rt::Error);
  EXPECT_THROW(m.GetFunction("look")(rt::Dict{{"a", true}}, "a"), rt::Error);

  rt::List boxed = m.GetFunction("boxed")(42).As<rt::List>();
  ASSERT_EQ(boxed.size(), 2u);
  EXPECT_EQ(boxed[0].As<std::string>(), "42");
}

// def members(xs: list[int], ws: list[str]) -> set[str]: s = set(ws); s.pop(); return s
// def count(s: set[int]) -> int: return len(s)
// Through the loader's table (no CPython in the process) sets are runtime
// sets, read member by member and built by insertion: the module's str
// hashes are the runtime's, and a set crosses both ways.
TEST_F(ContainerCodegen, SetsCrossAsRuntimeSetsWithoutCPython) {
  sc::PrimVar ws = sc::PrimVar::Make("ws", sc::ListType::Make(Str()));
  sc::PrimVar s = sc::PrimVar::Make("s", sc::SetType::Make(Str()));
  sc::PrimFunc members = Func("members", {ws},
                              {sc::AllocaVarStmt::Make(s, Op("set_from_list", {ws})),
                               sc::ExprStmt::Make(sc::ContainerMethodCall::Make(s, "pop", rt::Array<sc::PrimExpr>{})),
                               sc::ReturnStmt::Make(s)},
                              sc::SetType::Make(Str()));
  sc::PrimVar n = sc::PrimVar::Make("n", sc::SetType::Make(Int()));
  sc::PrimFunc count = Func("count", {n}, {sc::ReturnStmt::Make(Op("len", {n}))}, Int());
  sc::Module m = sc::Module::Load(Compile(sc::SourceRewriter::Build(rt::Array<sc::PrimFunc>{members, count}), "sets"));
  rt::Set got = m.GetFunction("members")(rt::List{"a", "b", "a", "\xc3\xa9", "c"}).As<rt::Set>();
  EXPECT_EQ(got.size(), 3u);  // four distinct, one popped
  int present = 0;
  for (const char* w : {"a", "b", "\xc3\xa9", "c"}) present += got.contains(rt::McValue(w)) ? 1 : 0;
  EXPECT_EQ(present, 3);
  EXPECT_EQ(m.GetFunction("count")(rt::Set{1, 2, 3, 2}).As<int64_t>(), 3);
  EXPECT_THROW(m.GetFunction("count")(rt::Set{1, "a"}), rt::Error);  // a str is not an int
}

// def add_all(s: set[int], xs: list[int]) -> None: for x in xs: s.add(x)
// def discard_then_remove(s: set[int], x: int) -> None: s.discard(x); s.remove(x)
// Set parameters changed in place reach the caller's own runtime set (set_replace);
// a fault half way copies nothing back (the discard is not kept): the call falls back
// for CPython to run from the start.
TEST_F(ContainerCodegen, SetParametersChangedInPlaceReachTheCallersSet) {
  sc::PrimVar s = sc::PrimVar::Make("s", sc::SetType::Make(Int()));
  sc::PrimVar xs = sc::PrimVar::Make("xs", sc::ListType::Make(Int()));
  sc::PrimExpr start = Op("iter_list", {xs});
  sc::PrimVar it = sc::PrimVar::Make("it", start.type());
  sc::PrimVar x = sc::PrimVar::Make("x", Int());
  sc::Stmt loop = sc::WhileStmt::Make(
      Op("iter_next", {it}),
      sc::SeqStmt::Make(rt::Array<sc::Stmt>{
          sc::AllocaVarStmt::Make(x, Op("iter_value", {it})),
          sc::ExprStmt::Make(sc::ContainerMethodCall::Make(s, "add", rt::Array<sc::PrimExpr>{x}))}));
  sc::PrimFunc add_all = Func("add_all", {s, xs}, {sc::AllocaVarStmt::Make(it, start), loop}, sc::NoneType::Make());
  const_cast<sc::PrimFuncNode*>(add_all.operator->())->writeback = rt::Array<sc::PrimVar>{s};
  sc::PrimVar t = sc::PrimVar::Make("t", sc::SetType::Make(Int())), y = sc::PrimVar::Make("y", Int());
  sc::PrimFunc discard_then_remove = Func(
      "discard_then_remove", {t, y},
      {sc::ExprStmt::Make(sc::ContainerMethodCall::Make(t, "discard", rt::Array<sc::PrimExpr>{y})),
       sc::ExprStmt::Make(sc::ContainerMethodCall::Make(t, "remove", rt::Array<sc::PrimExpr>{y}))},
      sc::NoneType::Make());
  const_cast<sc::PrimFuncNode*>(discard_then_remove.operator->())->writeback = rt::Array<sc::PrimVar>{t};
  sc::Module m = sc::Module::Load(
      Compile(sc::SourceRewriter::Build(rt::Array<sc::PrimFunc>{add_all, discard_then_remove}), "set_args"));

  rt::Set seen{1, 2};
  m.GetFunction("add_all")(seen, rt::List{2, 3, 40});
  EXPECT_EQ(seen.size(), 4u);
  for (int64_t v : {1, 2, 3, 40}) EXPECT_TRUE(seen.contains(rt::McValue(v))) << v;
  try {
    m.GetFunction("discard_then_remove")(seen, 3);
    FAIL() << "no error";
  } catch (const rt::Error& e) {
    EXPECT_EQ(e.kind(), rt::ErrorKind::kOverflowError);  // the loader's "native fallback"
    EXPECT_STREQ(e.what(), "discard_then_remove(): native fallback: 3");  // the KeyError's text
  }
  EXPECT_EQ(seen.size(), 4u);
  EXPECT_TRUE(seen.contains(rt::McValue(int64_t{3})));
}

TEST_F(ContainerCodegen, GeneratedCodeKeepsOneInclude) {
  std::string src = sc::SourceRewriter::Build(rt::Array<sc::PrimFunc>{WordCount()});
  EXPECT_EQ(src.find("#include"), src.rfind("#include"));
  EXPECT_NE(src.find("spine_cg::Dict<spine_cg::Str, int64_t>"), std::string::npos);  // unboxed
}

}  // namespace
