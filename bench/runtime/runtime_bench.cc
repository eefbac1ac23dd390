// Micro-benchmarks of the runtime: McValue copy/move, Dict lookup against
// std::unordered_map, and registry calls through the C++ and C APIs. Every
// benchmark reports allocs/op, counted by the operator new below, so the
// "no heap allocation per call" target is measured, not assumed.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include "spine/runtime/c_api.h"
#include "spine/runtime/dict.h"
#include "spine/runtime/registry.h"
#include "spine/runtime/str.h"

namespace {
std::atomic<long> g_allocs{0};
}

void* operator new(std::size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace rt = spine::runtime;

namespace {

// Wraps a benchmark loop with allocation counting.
struct AllocScope {
  explicit AllocScope(benchmark::State& s) : state(s), start(g_allocs.load()) {}
  ~AllocScope() {
    state.counters["allocs/op"] = benchmark::Counter(static_cast<double>(g_allocs.load() - start),
                                                     benchmark::Counter::kAvgIterations);
  }
  benchmark::State& state;
  long start;
};

void BM_McValueCopyInt(benchmark::State& state) {
  rt::McValue v(42);
  AllocScope a(state);
  for (auto _ : state) {
    rt::McValue c = v;
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_McValueCopyInt);

void BM_McValueCopyObject(benchmark::State& state) {
  rt::McValue v(rt::Str("shared"));
  AllocScope a(state);
  for (auto _ : state) {
    rt::McValue c = v;  // one atomic increment, one decrement
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_McValueCopyObject);

void BM_McValueCopyString(benchmark::State& state) {
  rt::McValue v("an immediate string");
  AllocScope a(state);
  for (auto _ : state) {
    rt::McValue c = v;  // copies the bytes
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_McValueCopyString);

void BM_McValueMove(benchmark::State& state) {
  rt::McValue v(rt::Str("moved"));
  AllocScope a(state);
  for (auto _ : state) {
    rt::McValue m = std::move(v);
    v = std::move(m);
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_McValueMove);

constexpr int kKeys = 1000;

void BM_DictLookupInt(benchmark::State& state) {
  rt::Dict d;
  for (int i = 0; i < kKeys; ++i) d.set(i, i);
  int64_t i = 0;
  AllocScope a(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(d.get(rt::McView(i)));
    i = (i + 7) % kKeys;
  }
}
BENCHMARK(BM_DictLookupInt);

void BM_UnorderedMapLookupInt(benchmark::State& state) {
  std::unordered_map<int64_t, int64_t> m;
  for (int i = 0; i < kKeys; ++i) m[i] = i;
  int64_t i = 0;
  AllocScope a(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(m.find(i));
    i = (i + 7) % kKeys;
  }
}
BENCHMARK(BM_UnorderedMapLookupInt);

std::vector<std::string> Keys() {
  std::vector<std::string> k;
  for (int i = 0; i < kKeys; ++i) k.push_back("key_number_" + std::to_string(i));
  return k;
}

void BM_DictLookupStr(benchmark::State& state) {
  auto keys = Keys();
  rt::Dict d;
  for (int i = 0; i < kKeys; ++i) d.set(rt::Str(keys[i]), i);
  size_t i = 0;
  AllocScope a(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(d.get(rt::McView(std::string_view(keys[i]))));
    i = (i + 7) % kKeys;
  }
}
BENCHMARK(BM_DictLookupStr);

void BM_UnorderedMapLookupStr(benchmark::State& state) {
  auto keys = Keys();
  std::unordered_map<std::string, int64_t> m;
  for (int i = 0; i < kKeys; ++i) m[keys[i]] = i;
  size_t i = 0;
  AllocScope a(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(m.find(keys[i]));
    i = (i + 7) % kKeys;
  }
}
BENCHMARK(BM_UnorderedMapLookupStr);

void BM_CallableInvokeKw4Results4(benchmark::State& state) {
  rt::Callable add4 = rt::FunctionRegistry::Get("testing.add4");
  rt::McValue pos[2] = {1, 2};
  std::string_view names[2] = {"d", "c"};
  rt::McValue kws[2] = {4, 3};
  rt::CallFrame f;
  f.arg_count = 2;
  f.args = pos;
  f.kw_count = 2;
  f.kw_names = names;
  f.kw_values = kws;
  rt::CallResult r;
  AllocScope a(state);
  for (auto _ : state) {
    if (!add4.Invoke(f, &r)) state.SkipWithError(rt::LastErrorMessage());
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_CallableInvokeKw4Results4);

void BM_CApiCallPositional(benchmark::State& state) {
  SpineFunctionHandle h;
  SpineGetGlobal("testing.add", &h);
  SpineValue args[2] = {rt::McValue(1).Release(), rt::McValue(2).Release()};
  SpineValue ret;
  AllocScope a(state);
  for (auto _ : state) {
    if (SpineFuncCall(h, args, 2, nullptr, nullptr, 0, &ret) != 0) state.SkipWithError(SpineGetLastError());
    benchmark::DoNotOptimize(ret);
  }
  SpineFuncFree(h);
}
BENCHMARK(BM_CApiCallPositional);

void BM_CApiCallKeyword(benchmark::State& state) {
  SpineFunctionHandle h;
  SpineGetGlobal("testing.add", &h);
  SpineStrView names[2] = {{"a", 1}, {"b", 1}};
  SpineValue kws[2] = {rt::McValue(1).Release(), rt::McValue(2).Release()};
  SpineValue ret;
  AllocScope a(state);
  for (auto _ : state) {
    if (SpineFuncCall(h, nullptr, 0, names, kws, 2, &ret) != 0) state.SkipWithError(SpineGetLastError());
    benchmark::DoNotOptimize(ret);
  }
  SpineFuncFree(h);
}
BENCHMARK(BM_CApiCallKeyword);

void BM_CApiGetGlobalAndFree(benchmark::State& state) {
  AllocScope a(state);
  for (auto _ : state) {
    SpineFunctionHandle h;
    SpineGetGlobal("testing.add", &h);
    SpineFuncFree(h);
  }
}
BENCHMARK(BM_CApiGetGlobalAndFree);

}  // namespace

BENCHMARK_MAIN();
