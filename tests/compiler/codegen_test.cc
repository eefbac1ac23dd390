// Code generation, g++, and the module loader end to end, in a temp dir.
#include <gtest/gtest.h>

#include <string>

#include "module_builder.h"
#include "spine/compiler/function.h"
#include "spine/compiler/module_loader.h"
#include "spine/compiler/rewriter.h"
#include "spine/runtime/registry.h"

namespace sc = spine::compiler;
namespace rt = spine::runtime;

namespace {

using Codegen = spine_test::ModuleBuilder;

// def fdiv(a: int, b: int) -> int: return a // b
sc::PrimFunc FloorDivFunc() {
  sc::PrimVar a = sc::PrimVar::Make("a", sc::kInt64), b = sc::PrimVar::Make("b", sc::kInt64);
  return sc::PrimFunc::Make("fdiv", rt::Array<sc::PrimVar>{a, b}, rt::Array<sc::PrimExpr>{},
                            sc::ReturnStmt::Make(sc::PrimFloorDiv::Make(a, b)), sc::PrimType::Make(sc::kInt64));
}

// def fib(n: int) -> int: return n if n < 2 else fib(n - 1) + fib(n - 2)
sc::PrimFunc FibFunc() {
  sc::PrimVar n = sc::PrimVar::Make("n", sc::kInt64);
  auto one = sc::IntImm::Make(sc::kInt64, 1), two = sc::IntImm::Make(sc::kInt64, 2);
  sc::GlobalVar fib = sc::GlobalVar::Make("fib");
  auto call = [&](sc::PrimExpr arg) { return sc::PrimCall::Make(sc::kInt64, fib, rt::Array<sc::PrimExpr>{arg}); };
  sc::PrimExpr body = sc::PrimIfThenElse::Make(sc::PrimLT::Make(n, two), n,
                                               sc::PrimAdd::Make(call(sc::PrimSub::Make(n, one)),
                                                                 call(sc::PrimSub::Make(n, two))));
  return sc::PrimFunc::Make("fib", rt::Array<sc::PrimVar>{n}, rt::Array<sc::PrimExpr>{}, sc::ReturnStmt::Make(body),
                            sc::PrimType::Make(sc::kInt64));
}

TEST_F(Codegen, ModuleProtocolSymbols) {
  std::string src = sc::SourceRewriter::Build(rt::Array<sc::PrimFunc>{FloorDivFunc()});
  for (const char* s : {"fdiv__c_api", "__mc_func_array__", "__mc_func_registry__", "__mc_closures_names__",
                        "__mc_module_ctx", "spine_cg::floordiv_i"}) {
    EXPECT_NE(src.find(s), std::string::npos) << s;
  }
  EXPECT_THROW(sc::SourceRewriter::Build(rt::Array<sc::PrimFunc>{FloorDivFunc(), FloorDivFunc()}), rt::Error);
}

TEST_F(Codegen, EmptyModuleRejected) {
  EXPECT_THROW(rt::FunctionRegistry::Get("rewriter.BuildFunctions")(rt::McValue(sc::IRModule::Make())), rt::Error);
}

TEST_F(Codegen, EndToEnd) {
  std::string so = Compile(sc::SourceRewriter::Build(rt::Array<sc::PrimFunc>{FloorDivFunc(), FibFunc()}), "m");
  rt::Callable fdiv, fib;
  {
    sc::Module m = sc::Module::Load(so);
    EXPECT_EQ(m.FunctionNames(), (std::vector<std::string>{"fdiv", "fib"}));
    fdiv = m.GetFunction("fdiv");
    fib = m.GetFunction("fib");
    EXPECT_THROW(m.GetFunction("nope"), rt::Error);
  }  // the functions keep the module loaded
  EXPECT_EQ(fdiv(7, -2).As<int64_t>(), -4);
  EXPECT_EQ(fdiv(-7, 2).As<int64_t>(), -4);
  EXPECT_EQ(fib(20).As<int64_t>(), 6765);

  try {
    fdiv(1, 0);
    FAIL() << "no error";
  } catch (const rt::Error& e) {
    EXPECT_STREQ(e.what(), "fdiv(): ZeroDivisionError: integer division or modulo by zero");
  }
  try {
    fdiv(INT64_MIN, -1);
    FAIL() << "no error";
  } catch (const rt::Error& e) {
    EXPECT_EQ(e.kind(), rt::ErrorKind::kOverflowError);  // falls back to CPython
  }
  try {
    fdiv(1.0, 2);
    FAIL() << "no error";
  } catch (const rt::Error& e) {
    EXPECT_EQ(e.kind(), rt::ErrorKind::kTypeError);
  }
  EXPECT_THROW(fdiv(1), rt::Error);
}

TEST_F(Codegen, LoaderErrorsThroughLastError) {
  rt::Callable load = rt::FunctionRegistry::Get("runtime.ModuleLoader");
  ASSERT_TRUE(load.defined());
  try {
    load(dir_ + "/missing.so");
    FAIL() << "no error";
  } catch (const rt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot load module"), std::string::npos);
  }
  // A shared object without the protocol symbols is rejected, not called.
  std::string so = Compile("extern \"C\" int nothing() { return 0; }\n", "plain");
  EXPECT_THROW(sc::Module::Load(so), rt::Error);
}

TEST(RegistryNames, Decode) {
  EXPECT_EQ(sc::DecodeRegistryNames("\002ab\0c\0"), (std::vector<std::string>{"ab", "c"}));
  EXPECT_TRUE(sc::DecodeRegistryNames("\000").empty());
}

}  // namespace
