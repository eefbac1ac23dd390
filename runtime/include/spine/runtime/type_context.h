/**
 * @file type_context.h
 * @brief Process-wide table of runtime types: name, index and parent.
 *
 * C++ RTTI is not a stable cross-language identity, so every object type has
 * an integer index. Built-in types have fixed indices; other types receive one
 * from TypeIndex::Dynamic upward on first use. The same name->index table is
 * used by the C API and by Python class registration.
 */
#ifndef SPINE_RUNTIME_TYPE_CONTEXT_H_
#define SPINE_RUNTIME_TYPE_CONTEXT_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace spine::runtime {

/** @brief The registry of object types. Thread-safe; one instance per process. */
class TypeContext {
 public:
  /** The process-wide instance (built-in types are registered on creation). */
  static TypeContext& Global();

  /**
   * @brief Register a type. With @p index == TypeIndex::Dynamic a fresh index
   * is allocated; a fixed index must be free or already bound to the same
   * name and parent. Registering an existing name returns its index.
   * @throws Error on a conflicting registration.
   */
  int32_t Register(std::string_view name, int32_t index, int32_t parent);

  /** Index of the type named @p name, or -1 (never a valid object index) if unknown. */
  int32_t IndexOf(std::string_view name) const;
  /** Name of type @p index (immediates included, e.g. "int"); "<unknown>" if unregistered. */
  std::string NameOf(int32_t index) const;
  /** Parent index of @p index, or -1 for the root or an unknown index. */
  int32_t ParentOf(int32_t index) const;
  /** True if @p child is @p parent or derives from it along the parent chain. Lock-free read path. */
  bool IsFrom(int32_t child, int32_t parent) const;

 private:
  TypeContext();
  static constexpr int32_t kMaxTypes = 4096;
  static constexpr int32_t kUnused = -2;
  mutable std::mutex mu_;
  // Parents live in a fixed array of atomics so IsFrom (on every checked
  // cast) reads them without the lock; a slot is written once, on register.
  std::unique_ptr<std::atomic<int32_t>[]> parents_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, int32_t> by_name_;
  int32_t next_dynamic_;
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_TYPE_CONTEXT_H_
