/**
 * @file module_loader.h
 * @brief Loading generated modules: dlopen with RTLD_NOW |
 * RTLD_LOCAL, decoding of `__mc_func_registry__`, and wrapping each
 * SpineBackendFunc as a runtime Callable that keeps its module loaded.
 * Registered as `runtime.ModuleLoader`, `runtime.ModuleGetFunction` and
 * `runtime.ModuleFunctionNames`; errors reach C and Python through the
 * thread-local last error like every registry function.
 */
#ifndef SPINE_COMPILER_MODULE_LOADER_H_
#define SPINE_COMPILER_MODULE_LOADER_H_

#include <string>
#include <vector>

#include "spine/compiler/module_abi.h"
#include "spine/runtime/callable.h"
#include "spine/runtime/object.h"

namespace spine::compiler {

namespace rt = ::spine::runtime;

/** @brief A loaded shared object and its function table; dlclose runs with the last owner. */
class LibraryModuleNode : public rt::object_t {
 public:
  static constexpr int32_t INDEX = rt::TypeIndex::Module;  /**< The runtime's reserved index. */
  static constexpr std::string_view NAME = "Module";        /**< Its registered name. */
  SPINE_DEFINE_TYPEINDEX(LibraryModuleNode, rt::object_t)
  /** Closes the library: only when nothing (no function) refers to it any more. */
  ~LibraryModuleNode() override;
  std::string path;                     /**< File it was loaded from. */
  void* handle = nullptr;               /**< dlopen handle. */
  std::vector<std::string> names;       /**< Function names, parallel to funcs. */
  std::vector<SpineBackendFunc> funcs;  /**< Entry points. */
};

/** @brief Reference to a loaded module. */
class Module : public rt::object_r {
 public:
  using ContainerType = LibraryModuleNode;  /**< Node type. */
  Module() noexcept = default;              /**< Undefined. */
  /** Internal: adopt a checked node. */
  explicit Module(rt::object_p<rt::object_t> n) noexcept : rt::object_r(std::move(n)) {}
  /** Load @p path; throws Error (RuntimeError) with dlerror()'s text or a protocol violation. */
  static Module Load(const std::string& path);
  /** The function @p name as a Callable holding this module; throws KeyError if absent. */
  rt::Callable GetFunction(const std::string& name) const;
  /** Names of the module's functions, in registry order. */
  const std::vector<std::string>& FunctionNames() const;
};

/** Decode the registry name encoding (count byte + NUL-terminated names); throws on malformed input. */
std::vector<std::string> DecodeRegistryNames(const char* names);

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_MODULE_LOADER_H_
