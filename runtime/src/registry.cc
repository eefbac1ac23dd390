#include "spine/runtime/registry.h"

#include <map>
#include <mutex>

namespace spine::runtime {
namespace {

struct Table {
  std::mutex mu;
  std::map<std::string, Callable, std::less<>> fns;  // transparent: lookup by string_view without a copy
};

Table& Global() {
  // Leaked: registered callables may be looked up during static destruction.
  static Table* t = new Table();
  return *t;
}

struct PackedEnv {
  PackedFunction fn;
  std::string name;
  ParamDesc params[1];
  FunctionSig sig;
};

bool PackedEntry(void* env, const CallFrame* frame, CallResult* result) {
  auto* e = static_cast<PackedEnv*>(env);
  try {
    McValue r = e->fn(Parameters(frame->args, frame->arg_count));
    return result->PushTake(r);
  } catch (...) {
    SetLastErrorFromCurrentException();
    return false;
  }
}

}  // namespace

void FunctionRegistry::Register(const std::string& name, Callable fn) {
  if (!fn.defined()) ThrowValueError("cannot register a null function as '" + name + "'");
  Table& t = Global();
  std::lock_guard<std::mutex> lock(t.mu);
  if (!t.fns.emplace(name, std::move(fn)).second) {
    ThrowValueError("global function '" + name + "' is already registered");
  }
}

Callable FunctionRegistry::Get(std::string_view name) {
  Table& t = Global();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.fns.find(name);
  return it == t.fns.end() ? Callable() : it->second;
}

bool FunctionRegistry::Remove(std::string_view name) {
  Callable dropped;  // released after the lock: its environment destructor may be slow
  Table& t = Global();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.fns.find(name);
  if (it == t.fns.end()) return false;
  dropped = std::move(it->second);
  t.fns.erase(it);
  return true;
}

std::vector<std::string> FunctionRegistry::ListNames() {
  Table& t = Global();
  std::lock_guard<std::mutex> lock(t.mu);
  std::vector<std::string> names;
  names.reserve(t.fns.size());
  for (const auto& kv : t.fns) names.push_back(kv.first);
  return names;
}

Callable FunctionRegistry::MakePacked(std::string name, PackedFunction fn) {
  if (fn == nullptr) ThrowValueError("packed function '" + name + "' is null");
  auto* env = new PackedEnv{fn, std::move(name), {}, {}};
  env->params[0] = ParamDesc{"args", TypeIndex::Any, kParamVarargs};
  env->sig.name = env->name;
  env->sig.param_count = 1;
  env->sig.params = env->params;
  env->sig.return_count = 1;
  return Callable::Create(&env->sig, &PackedEntry, env, [](void* p) { delete static_cast<PackedEnv*>(p); });
}

}  // namespace spine::runtime
