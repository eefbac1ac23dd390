#include "spine/runtime/type_context.h"

#include "spine/runtime/error.h"
#include "spine/runtime/type_index.h"

namespace spine::runtime {

TypeContext& TypeContext::Global() {
  // Leaked on purpose: objects may be destroyed during static destruction
  // of other translation units and still ask for their type.
  static TypeContext* ctx = new TypeContext();
  return *ctx;
}

TypeContext::TypeContext()
    : parents_(new std::atomic<int32_t>[kMaxTypes]), names_(kMaxTypes), next_dynamic_(TypeIndex::Dynamic) {
  for (int32_t i = 0; i < kMaxTypes; ++i) parents_[i].store(kUnused, std::memory_order_relaxed);
  // Built-in types are known before their first use so that Python can
  // register classes for them by name at import time.
  struct Builtin {
    const char* name;
    int32_t index;
    int32_t parent;
  };
  static const Builtin kBuiltins[] = {
      {"Object", TypeIndex::Object, -1},
      {"RuntimeStr", TypeIndex::RuntimeStr, TypeIndex::Object},
      {"RuntimeList", TypeIndex::RuntimeList, TypeIndex::Object},
      {"RuntimeDict", TypeIndex::RuntimeDict, TypeIndex::Object},
      {"RuntimeSet", TypeIndex::RuntimeSet, TypeIndex::Object},
      {"RuntimeTuple", TypeIndex::RuntimeTuple, TypeIndex::Object},
      {"RuntimeIterator", TypeIndex::RuntimeIterator, TypeIndex::Object},
      {"RuntimeArray", TypeIndex::RuntimeArray, TypeIndex::Object},
      {"RuntimeMap", TypeIndex::RuntimeMap, TypeIndex::Object},
      {"RuntimeCallable", TypeIndex::RuntimeCallable, TypeIndex::Object},
      {"Module", TypeIndex::Module, TypeIndex::Object},
  };
  for (const Builtin& b : kBuiltins) {
    names_[b.index] = b.name;
    by_name_[b.name] = b.index;
    parents_[b.index].store(b.parent, std::memory_order_release);
  }
}

int32_t TypeContext::Register(std::string_view name, int32_t index, int32_t parent) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string key(name);
  auto it = by_name_.find(key);
  if (it != by_name_.end()) {
    int32_t existing = it->second;
    bool same = (index == TypeIndex::Dynamic || index == existing) &&
                parents_[existing].load(std::memory_order_relaxed) == parent;
    if (!same) throw Error(ErrorKind::kValueError, "type '" + key + "' registered with a different index or parent");
    return existing;
  }
  if (parent < 0 || parent >= kMaxTypes || parents_[parent].load(std::memory_order_relaxed) == kUnused) {
    throw Error(ErrorKind::kValueError, "type '" + key + "': unknown parent index " + std::to_string(parent));
  }
  if (index == TypeIndex::Dynamic) {
    if (next_dynamic_ >= kMaxTypes) throw Error(ErrorKind::kRuntimeError, "too many runtime types");
    index = next_dynamic_++;
  } else if (index < 0 || index >= TypeIndex::Dynamic ||
             parents_[index].load(std::memory_order_relaxed) != kUnused) {
    throw Error(ErrorKind::kValueError, "type '" + key + "': fixed index " + std::to_string(index) + " unavailable");
  }
  names_[index] = key;
  by_name_.emplace(std::move(key), index);
  parents_[index].store(parent, std::memory_order_release);
  return index;
}

int32_t TypeContext::IndexOf(std::string_view name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? -1 : it->second;
}

std::string TypeContext::NameOf(int32_t index) const {
  switch (index) {
    case TypeIndex::Null: return "NoneType";
    case TypeIndex::Int: return "int";
    case TypeIndex::Float: return "float";
    case TypeIndex::Str: return "str";
    case TypeIndex::Pointer: return "pointer";
    case TypeIndex::DataType: return "DataType";
    case TypeIndex::Bool: return "bool";
    default: break;
  }
  if (index < 0 || index >= kMaxTypes || parents_[index].load(std::memory_order_acquire) == kUnused) {
    return "<unknown>";
  }
  std::lock_guard<std::mutex> lock(mu_);
  return names_[index];
}

int32_t TypeContext::ParentOf(int32_t index) const {
  if (index < 0 || index >= kMaxTypes) return -1;
  int32_t p = parents_[index].load(std::memory_order_acquire);
  return p == kUnused ? -1 : p;
}

bool TypeContext::IsFrom(int32_t child, int32_t parent) const {
  // Chains are short (AST depth ~4); each step is one atomic load.
  while (child >= 0 && child < kMaxTypes) {
    if (child == parent) return true;
    int32_t p = parents_[child].load(std::memory_order_acquire);
    if (p == kUnused) return false;
    child = p;
  }
  return false;
}

}  // namespace spine::runtime
