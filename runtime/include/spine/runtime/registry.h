/**
 * @file registry.h
 * @brief FunctionRegistry: the process-wide name -> Callable table, and the
 * REGISTER_GLOBAL / REGISTER_FUNCTION static registration macros.
 */
#ifndef SPINE_RUNTIME_REGISTRY_H_
#define SPINE_RUNTIME_REGISTRY_H_

#include <string>
#include <string_view>
#include <vector>

#include "spine/runtime/callable.h"
#include "spine/runtime/mc_value.h"
#include "spine/runtime/parameters.h"
#include "spine/runtime/typed_function.h"

namespace spine::runtime {

/** The shape of a function that interprets its own arguments. */
using PackedFunction = McValue (*)(Parameters args);

/** @brief Mutex-protected global function table. All members are static. */
class FunctionRegistry {
 public:
  /** Add @p fn under @p name; throws Error(kValueError) if the name is taken or @p fn is null. */
  static void Register(const std::string& name, Callable fn);
  /** The callable named @p name (shared), or a null Callable. */
  static Callable Get(std::string_view name);
  /** Remove @p name; returns whether it existed. */
  static bool Remove(std::string_view name);
  /** All registered names, sorted. */
  static std::vector<std::string> ListNames();
  /**
   * @brief Wrap a PackedFunction as a callable that takes any positional
   * arguments (one varargs parameter) and no keywords.
   */
  static Callable MakePacked(std::string name, PackedFunction fn);
};

/** @brief Builder behind REGISTER_GLOBAL: collects parameter specs, registers on SetBody. */
class GlobalRegistrar {
 public:
  /** Start a registration of @p name. */
  static GlobalRegistrar Make(std::string name) { return GlobalRegistrar(std::move(name)); }
  /** Name the parameters (see MakeTypedCallable). Call before SetBody. */
  GlobalRegistrar& Params(std::vector<ParamSpec> specs) {
    specs_ = std::move(specs);
    return *this;
  }
  /** Wrap @p fn with MakeTypedCallable and register it; throws on duplicate names. */
  template <typename F>
  GlobalRegistrar& SetBody(F fn) {
    FunctionRegistry::Register(name_, MakeTypedCallable(name_, std::move(fn), std::move(specs_)));
    return *this;
  }

 private:
  explicit GlobalRegistrar(std::string name) : name_(std::move(name)) {}
  std::string name_;
  std::vector<ParamSpec> specs_;
};

/** @brief Registers a PackedFunction at static-initialisation time. */
struct PackedRegistrar {
  /** Register @p fn as @p name. */
  PackedRegistrar(const char* name, PackedFunction fn) {
    FunctionRegistry::Register(name, FunctionRegistry::MakePacked(name, fn));
  }
};

#define SPINE_RT_CONCAT_(a, b) a##b
#define SPINE_RT_CONCAT(a, b) SPINE_RT_CONCAT_(a, b)

/**
 * @brief Register a typed function at load time:
 * `REGISTER_GLOBAL("ns.f").Params({Arg("a"), Arg("b", 0)}).SetBody([](int64_t a, int64_t b) {...});`
 */
#define REGISTER_GLOBAL(Name)                                                         \
  [[maybe_unused]] static ::spine::runtime::GlobalRegistrar SPINE_RT_CONCAT(          \
      spine_rt_reg_, __COUNTER__) = ::spine::runtime::GlobalRegistrar::Make(Name)

/** @brief Register a `McValue(Parameters)` function at load time. */
#define REGISTER_FUNCTION(Name, Fn)                                                   \
  [[maybe_unused]] static ::spine::runtime::PackedRegistrar SPINE_RT_CONCAT(          \
      spine_rt_reg_, __COUNTER__)(Name, Fn)

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_REGISTRY_H_
