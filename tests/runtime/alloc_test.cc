// Counts heap allocations on the call path. This binary replaces the global
// operator new, so it is built separately from runtime_tests.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "spine/runtime/c_api.h"
#include "spine/runtime/registry.h"

namespace {
std::atomic<long> g_allocs{0};
}

void* operator new(std::size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace spine::runtime {
namespace {

TEST(NoAllocation, FourKeywordArgumentsFourResults) {
  Callable add4 = FunctionRegistry::Get("testing.add4");
  ASSERT_TRUE(add4.defined());
  McValue pos[2] = {1, 2};
  std::string_view names[2] = {"d", "c"};
  McValue kws[2] = {4, 3};
  CallFrame f;
  f.arg_count = 2;
  f.args = pos;
  f.kw_count = 2;
  f.kw_names = names;
  f.kw_values = kws;
  CallResult r;
  ASSERT_TRUE(add4.Invoke(f, &r));  // warm-up (thread-local error storage etc.)
  // Every measured call must succeed with the right four results: a call
  // that failed early would also allocate nothing. Failures are counted, not
  // reported, inside the loop, since reporting allocates.
  int failed = 0;
  long before = g_allocs.load();
  for (int i = 0; i < 100; ++i) {
    r.Clear();  // keeps the capacity, as a hot caller would
    bool ok = add4.Invoke(f, &r) && r.size() == 4 && r.Get(0)->As<int64_t>() == 3 &&
              r.Get(1)->As<int64_t>() == 7 && r.Get(2)->As<int64_t>() == 2 && r.Get(3)->As<int64_t>() == 12;
    failed += ok ? 0 : 1;
  }
  long allocs = g_allocs.load() - before;
  EXPECT_EQ(failed, 0) << LastErrorMessage();
  EXPECT_EQ(allocs, 0);
}

TEST(NoAllocation, CApiKeywordCall) {
  SpineFunctionHandle h;
  ASSERT_EQ(SpineGetGlobal("testing.scaled_add", &h), 0);
  SpineValue pos[1] = {McValue(1).Release()};
  SpineStrView names[2] = {{"b", 1}, {"scale", 5}};
  SpineValue kws[2] = {McValue(2).Release(), McValue(3).Release()};
  SpineValue ret;
  ASSERT_EQ(SpineFuncCall(h, pos, 1, names, kws, 2, &ret), 0);
  // A failing call leaves ret unchanged, so each measured call starts from
  // None and must return 0 with the int 9 itself.
  int failed = 0;
  long before = g_allocs.load();
  for (int i = 0; i < 100; ++i) {
    ret.t = SPINE_TYPE_NULL;
    ret.u.v_int = 0;
    int rc = SpineFuncCall(h, pos, 1, names, kws, 2, &ret);
    failed += (rc == 0 && ret.t == SPINE_TYPE_INT && ret.u.v_int == 9) ? 0 : 1;
  }
  long allocs = g_allocs.load() - before;
  EXPECT_EQ(failed, 0) << SpineGetLastError();
  EXPECT_EQ(allocs, 0);
  SpineFuncFree(h);
}

TEST(NoAllocation, AFifthResultUsesTheOverflowArray) {
  CallResult r;
  long before = g_allocs.load();
  for (int i = 0; i < 4; ++i) r.PushTake(McValue(i));
  EXPECT_EQ(g_allocs.load() - before, 0);
  r.PushTake(McValue(4));
  EXPECT_EQ(g_allocs.load() - before, 1);
}

}  // namespace
}  // namespace spine::runtime
