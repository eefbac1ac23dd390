#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "spine/runtime/callable.h"
#include "spine/runtime/dict.h"
#include "spine/runtime/str.h"

namespace spine::runtime {
namespace {

std::atomic<int> g_env_destroyed{0};
void CountingDeleter(void* env) {
  g_env_destroyed.fetch_add(1);
  delete static_cast<int64_t*>(env);
}

const ParamDesc kAddParams[] = {{"left", TypeIndex::Int, kParamDefault}, {"right", TypeIndex::Int, kParamDefault}};
const int32_t kAddReturns[] = {TypeIndex::Int};
const FunctionSig kAddSig{"add", 2, kAddParams, 1, kAddReturns};

bool Add(void* env, const CallFrame* f, CallResult* r) {
  int64_t bias = env ? *static_cast<int64_t*>(env) : 0;
  int64_t a = FrameParameter(*f, &kAddSig, 0)->As<int64_t>();
  int64_t b = FrameParameter(*f, &kAddSig, 1)->As<int64_t>();
  return r->PushTake(McValue(a + b + bias));
}

// Pushes two results, then fails: the half-way failure Invoke must contain.
bool PushThenFail(void*, const CallFrame*, CallResult* r) {
  r->PushTake(McValue(Str("partial")));
  r->PushTake(McValue(2));
  return Fail(ErrorKind::kValueError, "boom");
}

bool Throws(void*, const CallFrame*, CallResult*) { throw std::runtime_error("thrown inside"); }
bool ReturnsTwo(void*, const CallFrame*, CallResult* r) { return r->PushTake(McValue(1)) && r->PushTake(McValue(2)); }
bool Answer(void* env, const CallFrame*, CallResult* r) {
  return r->PushTake(McValue(static_cast<int64_t>(reinterpret_cast<intptr_t>(env))));
}

TEST(Callable, SeedExampleSevenPlusFive) {
  Callable c = Callable::Create(&kAddSig, Add, nullptr, nullptr);
  McValue args[2] = {7, 5};
  CallFrame f;
  f.arg_count = 2;
  f.args = args;
  CallResult r;
  ASSERT_TRUE(c.Invoke(f, &r)) << LastErrorMessage();
  EXPECT_EQ(r.Get(0)->As<int64_t>(), 12);
  EXPECT_EQ(c.name(), "add");
  EXPECT_EQ(c(1, 2).As<int64_t>(), 3);
}

TEST(Callable, KeywordCallWithoutAMapping) {
  Callable c = Callable::Create(&kAddSig, Add, nullptr, nullptr);
  McValue pos[1] = {10};
  std::string_view names[1] = {"right"};
  McValue kw[1] = {5};
  CallFrame f;
  f.arg_count = 1;
  f.args = pos;
  f.kw_count = 1;
  f.kw_names = names;
  f.kw_values = kw;
  EXPECT_EQ(c.Call(f).As<int64_t>(), 15);
}

TEST(Callable, NullSignatureAndEnvironment) {
  Callable c = Callable::Create(nullptr, Answer, reinterpret_cast<void*>(intptr_t{42}), nullptr);
  EXPECT_EQ(c().As<int64_t>(), 42);
  EXPECT_EQ(c.name(), "<callable>");
}

TEST(Callable, EnvironmentDestructorRunsExactlyOnce) {
  g_env_destroyed = 0;
  {
    Callable c = Callable::Create(&kAddSig, Add, new int64_t(100), CountingDeleter);
    Callable copy = c;
    Callable moved = std::move(copy);
    EXPECT_EQ(moved(1, 1).As<int64_t>(), 102);
    EXPECT_EQ(g_env_destroyed.load(), 0);
  }
  EXPECT_EQ(g_env_destroyed.load(), 1);
}

TEST(Callable, FailedCreationStillDestroysTheEnvironmentOnce) {
  g_env_destroyed = 0;
  EXPECT_THROW(Callable::Create(&kAddSig, nullptr, new int64_t(0), CountingDeleter), Error);
  EXPECT_EQ(g_env_destroyed.load(), 1);
  const ParamDesc bad[] = {{"a", TypeIndex::Any, 0}, {"a", TypeIndex::Any, 0}};
  FunctionSig bad_sig{"bad", 2, bad};
  EXPECT_THROW(Callable::Create(&bad_sig, Add, new int64_t(0), CountingDeleter), Error);
  EXPECT_EQ(g_env_destroyed.load(), 2);
}

TEST(Callable, InvokeLeavesTheCallerResultUntouchedOnFailure) {
  Str keep("previous");
  CallResult r;
  r.Push(McValue(keep));
  auto expect_untouched = [&] {
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r.Get(0)->ObjectPtr(), keep.get());
  };
  // Entry fails half-way after pushing two results.
  Callable half = Callable::Create(nullptr, PushThenFail, nullptr, nullptr);
  EXPECT_FALSE(half.Invoke(CallFrame{}, &r));
  EXPECT_EQ(LastErrorKind(), ErrorKind::kValueError);
  EXPECT_STREQ(LastErrorMessage(), "<callable>(): boom");
  expect_untouched();
  EXPECT_EQ(keep.get()->UseCount(), 2);  // partial results released, ours kept
  // Validation failure: wrong count never reaches the entry.
  Callable add = Callable::Create(&kAddSig, Add, nullptr, nullptr);
  McValue three[3] = {1, 2, 3};
  CallFrame f;
  f.arg_count = 3;
  f.args = three;
  EXPECT_FALSE(add.Invoke(f, &r));
  EXPECT_STREQ(LastErrorMessage(), "add() takes 2 positional arguments but 3 were given");
  expect_untouched();
  // A throwing entry is contained.
  Callable thrower = Callable::Create(nullptr, Throws, nullptr, nullptr);
  EXPECT_FALSE(thrower.Invoke(CallFrame{}, &r));
  EXPECT_STREQ(LastErrorMessage(), "<callable>(): thrown inside");
  expect_untouched();
  // Result count differs from the signature.
  FunctionSig one_result{"one", 0, nullptr, 1, nullptr};
  Callable two = Callable::Create(&one_result, ReturnsTwo, nullptr, nullptr);
  EXPECT_FALSE(two.Invoke(CallFrame{}, &r));
  EXPECT_STREQ(LastErrorMessage(), "one() returned 2 results, declared 1");
  expect_untouched();
  // Success replaces the previous contents in one go.
  McValue ok[2] = {2, 3};
  f.arg_count = 2;
  f.args = ok;
  ASSERT_TRUE(add.Invoke(f, &r));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r.Get(0)->As<int64_t>(), 5);
  EXPECT_EQ(keep.get()->UseCount(), 1);
}

TEST(Callable, NestedFailuresChainTheirNames) {
  static Callable inner;
  inner = Callable::Create(nullptr, PushThenFail, nullptr, nullptr);
  FunctionSig outer_sig{"outer", 0, nullptr};
  Callable outer = Callable::Create(
      &outer_sig, [](void*, const CallFrame*, CallResult* r) { return inner.Invoke(CallFrame{}, r); }, nullptr,
      nullptr);
  CallResult r;
  EXPECT_FALSE(outer.Invoke(CallFrame{}, &r));
  EXPECT_STREQ(LastErrorMessage(), "outer(): <callable>(): boom");
  inner = Callable();
}

TEST(Callable, ConcurrentInvokeAndSharingFromManyThreads) {
  g_env_destroyed = 0;
  Callable c = Callable::Create(&kAddSig, Add, new int64_t(1), CountingDeleter);
  std::atomic<int64_t> total{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([c, &total, t] {
      for (int i = 0; i < 5000; ++i) {
        Callable local = c;  // refcount traffic on every iteration
        total += local(t, i).As<int64_t>();
      }
    });
  }
  for (auto& t : threads) t.join();
  // sum over t<4, i<5000 of (t + i + 1)
  EXPECT_EQ(total.load(), 4 * (5000LL * 4999 / 2) + 5000LL * (0 + 1 + 2 + 3) + 4 * 5000LL);
  EXPECT_EQ(c.get()->UseCount(), 1);
  c = Callable();
  EXPECT_EQ(g_env_destroyed.load(), 1);
}

TEST(Callable, ThreadLocalErrorsDoNotMix) {
  Callable add = Callable::Create(&kAddSig, Add, nullptr, nullptr);
  std::string other;
  std::thread th([&] {
    CallResult r;
    add.Invoke(CallFrame{}, &r);  // missing arguments
    other = LastErrorMessage();
  });
  th.join();
  ClearLastError();
  EXPECT_STREQ(LastErrorMessage(), "");
  EXPECT_EQ(other, "add() missing required argument 'left'");
}

}  // namespace
}  // namespace spine::runtime

namespace spine::runtime {
namespace {

// Seed 003's value_callable: a callable is a first-class value that can live
// in containers and be called from there.
TEST(Callable, IsAValueThatContainersHold) {
  g_env_destroyed = 0;
  Dict table;
  {
    Callable c = Callable::Create(&kAddSig, Add, new int64_t(0), CountingDeleter);
    table.set("add", c);
  }
  EXPECT_EQ(g_env_destroyed.load(), 0);  // the dict owns it now
  Callable back = table.get(McValue("add")).As<Callable>();
  EXPECT_EQ(back(20, 22).As<int64_t>(), 42);
  EXPECT_EQ(McValue(back).type_index(), TypeIndex::RuntimeCallable);
  back = Callable();
  table.clear();
  EXPECT_EQ(g_env_destroyed.load(), 1);
}

}  // namespace
}  // namespace spine::runtime
