#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "spine/runtime/list.h"
#include "spine/runtime/registry.h"
#include "spine/runtime/str.h"
#include "spine/runtime/tuple.h"

namespace spine::runtime {
namespace {

// Registered at load time, as generated modules and runtime files do.
REGISTER_GLOBAL("test.mul").Params({Arg("a"), Arg("b")}).SetBody([](int64_t a, int64_t b) { return a * b; });
REGISTER_GLOBAL("test.positional_only").SetBody([](std::string s, int64_t n) {
  std::string r;
  for (int64_t i = 0; i < n; ++i) r += s;
  return r;
});
REGISTER_FUNCTION("test.count", [](Parameters p) { return McValue(static_cast<int64_t>(p.size())); });

Error Catch(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return Error(ErrorKind::kNone, "");
}

TEST(Registry, StaticRegistrationAndLookup) {
  Callable mul = FunctionRegistry::Get("test.mul");
  ASSERT_TRUE(mul.defined());
  EXPECT_EQ(mul(6, 7).As<int64_t>(), 42);
  EXPECT_FALSE(FunctionRegistry::Get("test.nope").defined());
  auto names = FunctionRegistry::ListNames();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_NE(std::find(names.begin(), names.end(), "test.mul"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "runtime.List"), names.end());
}

TEST(Registry, RegisteringANameTwiceIsAnError) {
  Callable c = MakeTypedCallable("x", [] { return 1; });
  Error e = Catch([&] { FunctionRegistry::Register("test.mul", c); });
  EXPECT_EQ(e.kind(), ErrorKind::kValueError);
  EXPECT_STREQ(e.what(), "global function 'test.mul' is already registered");
  EXPECT_EQ(FunctionRegistry::Get("test.mul")(2, 3).As<int64_t>(), 6);  // the original survives
  EXPECT_THROW(FunctionRegistry::Register("test.null", Callable()), Error);
}

TEST(Registry, RemoveThenRegisterAgain) {
  FunctionRegistry::Register("test.tmp", MakeTypedCallable("test.tmp", [] { return 1; }));
  Callable held = FunctionRegistry::Get("test.tmp");
  EXPECT_TRUE(FunctionRegistry::Remove("test.tmp"));
  EXPECT_FALSE(FunctionRegistry::Remove("test.tmp"));
  EXPECT_FALSE(FunctionRegistry::Get("test.tmp").defined());
  EXPECT_EQ(held().As<int64_t>(), 1);  // a holder keeps the callable alive
  FunctionRegistry::Register("test.tmp", MakeTypedCallable("test.tmp", [] { return 2; }));
  EXPECT_EQ(FunctionRegistry::Get("test.tmp")().As<int64_t>(), 2);
  FunctionRegistry::Remove("test.tmp");
}

TEST(TypedWrapper, RejectsWrongArgumentCounts) {
  Callable mul = FunctionRegistry::Get("test.mul");
  EXPECT_STREQ(Catch([&] { mul(1, 2, 3); }).what(), "test.mul() takes 2 positional arguments but 3 were given");
  EXPECT_STREQ(Catch([&] { mul(1); }).what(), "test.mul() missing required argument 'b'");
  EXPECT_EQ(Catch([&] { mul(); }).kind(), ErrorKind::kTypeError);
}

TEST(TypedWrapper, ConvertsAndChecksEachArgument) {
  Callable mul = FunctionRegistry::Get("test.mul");
  EXPECT_STREQ(Catch([&] { mul(1, "x"); }).what(), "test.mul() argument 'b' must be int, not str");
  EXPECT_EQ(mul(true, 5).As<int64_t>(), 5);
  Callable rep = FunctionRegistry::Get("test.positional_only");
  EXPECT_EQ(rep("ab", 3).As<std::string>(), "ababab");
  EXPECT_EQ(rep(Str("c"), 2).As<std::string>(), "cc");
  // Unnamed parameters are positional-only: a keyword cannot reach them.
  McValue pos[1] = {"a"};
  std::string_view names[1] = {"n"};
  McValue kws[1] = {2};
  CallFrame f;
  f.arg_count = 1;
  f.args = pos;
  f.kw_count = 1;
  f.kw_names = names;
  f.kw_values = kws;
  EXPECT_STREQ(Catch([&] { rep.Call(f); }).what(), "test.positional_only() got an unexpected keyword argument 'n'");
}

TEST(TypedWrapper, DefaultsKeywordOnlyAndTupleResults) {
  Callable c = MakeTypedCallable(
      "scaled", [](int64_t a, int64_t b, int64_t s) { return std::make_tuple(a + b, (a + b) * s); },
      {Arg("a"), Arg("b", 10), KwOnly("s", 2)});
  CallResult r;
  McValue pos[1] = {1};
  CallFrame f;
  f.arg_count = 1;
  f.args = pos;
  ASSERT_TRUE(c.Invoke(f, &r));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r.Get(0)->As<int64_t>(), 11);
  EXPECT_EQ(r.Get(1)->As<int64_t>(), 22);
  std::string_view names[1] = {"s"};
  McValue kws[1] = {3};
  f.kw_count = 1;
  f.kw_names = names;
  f.kw_values = kws;
  ASSERT_TRUE(c.Invoke(f, &r));
  EXPECT_EQ(r.Get(1)->As<int64_t>(), 33);
  EXPECT_STREQ(Catch([&] { c(1, 2, 3); }).what(), "scaled() takes 2 positional arguments but 3 were given");
  EXPECT_THROW(MakeTypedCallable("too_many_specs", [](int64_t) { return 0; }, {Arg("a"), Arg("b")}), Error);
}

TEST(TypedWrapper, VoidReturnsNoResultAndBodyErrorsKeepTheirKind) {
  int called = 0;
  Callable v = MakeTypedCallable("v", [&called] { ++called; });
  CallResult r;
  ASSERT_TRUE(v.Invoke(CallFrame{}, &r));
  EXPECT_EQ(r.size(), 0u);
  EXPECT_EQ(called, 1);
  Callable bad = MakeTypedCallable("bad", [](int64_t i) -> int64_t { ThrowIndexError("idx " + std::to_string(i)); },
                                   {Arg("i")});
  Error e = Catch([&] { bad(4); });
  EXPECT_EQ(e.kind(), ErrorKind::kIndexError);
  EXPECT_STREQ(e.what(), "bad(): idx 4");
}

TEST(PackedFunction, TakesAnyPositionalsButNoKeywords) {
  Callable count = FunctionRegistry::Get("test.count");
  EXPECT_EQ(count().As<int64_t>(), 0);
  EXPECT_EQ(count(1, "a", 2.0).As<int64_t>(), 3);
  std::string_view names[1] = {"x"};
  McValue kws[1] = {1};
  CallFrame f;
  f.kw_count = 1;
  f.kw_names = names;
  f.kw_values = kws;
  EXPECT_STREQ(Catch([&] { count.Call(f); }).what(), "test.count() got an unexpected keyword argument 'x'");
  McValue l = FunctionRegistry::Get("runtime.List")(1, 2);
  EXPECT_EQ(l.As<List>().size(), 2u);
  McValue t = FunctionRegistry::Get("runtime.Tuple")("a");
  EXPECT_EQ(t.As<Tuple>()[0].As<std::string>(), "a");
  EXPECT_THROW(FunctionRegistry::Get("runtime.Dict")(1), Error);
}

TEST(Registry, ConcurrentRegisterLookupRemove) {
  std::atomic<int> duplicates{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &duplicates] {
      for (int i = 0; i < 200; ++i) {
        std::string name = "test.conc." + std::to_string(i);  // every thread races for the same names
        try {
          FunctionRegistry::Register(name, MakeTypedCallable(name, [i] { return i; }));
        } catch (const Error&) {
          duplicates.fetch_add(1);
        }
        Callable c = FunctionRegistry::Get(name);
        if (c.defined() && c().As<int64_t>() != i) ADD_FAILURE() << name;
        (void)t;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(duplicates.load(), 3 * 200);  // exactly one winner per name
  for (int i = 0; i < 200; ++i) EXPECT_TRUE(FunctionRegistry::Remove("test.conc." + std::to_string(i)));
}

}  // namespace
}  // namespace spine::runtime
