/**
 * @file typed_function.h
 * @brief Turn a strongly typed C++ function or lambda into a Callable with
 * a signature: each argument is converted with ValueConverter, the call is
 * rejected before the body runs if the count or a type is wrong (the seed
 * accepted extra arguments silently; we do not), and the return value
 * becomes the results (void: none, std::tuple: one per element).
 */
#ifndef SPINE_RUNTIME_TYPED_FUNCTION_H_
#define SPINE_RUNTIME_TYPED_FUNCTION_H_

#include <exception>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "spine/runtime/callable.h"
#include "spine/runtime/mc_value.h"

namespace spine::runtime {

/** @brief How one parameter of a typed function is exposed: name, default, keyword-only. */
struct ParamSpec {
  std::string name;                     /**< Keyword name; empty = positional-only. */
  std::optional<McValue> default_value; /**< Makes the parameter optional. */
  bool keyword_only = false;            /**< Only by keyword. */
};

/** A named parameter without default. */
inline ParamSpec Arg(std::string name) { return ParamSpec{std::move(name), std::nullopt, false}; }
/** A named parameter with a default. */
inline ParamSpec Arg(std::string name, McValue def) { return ParamSpec{std::move(name), std::move(def), false}; }
/** A keyword-only parameter, optionally with a default. */
inline ParamSpec KwOnly(std::string name, std::optional<McValue> def = std::nullopt) {
  return ParamSpec{std::move(name), std::move(def), true};
}

/** @brief Argument and return types of a callable type. */
template <typename F>
struct FunctionTraits : FunctionTraits<decltype(&F::operator())> {};
/** Plain function. */
template <typename R, typename... A>
struct FunctionTraits<R (*)(A...)> {
  using Return = R;                    /**< Return type. */
  using Args = std::tuple<A...>;       /**< Argument types. */
  static constexpr size_t kArity = sizeof...(A);  /**< Argument count. */
};
/** Plain function type. */
template <typename R, typename... A>
struct FunctionTraits<R(A...)> : FunctionTraits<R (*)(A...)> {};
/** Const call operator (lambdas). */
template <typename C, typename R, typename... A>
struct FunctionTraits<R (C::*)(A...) const> : FunctionTraits<R (*)(A...)> {};
/** Mutable call operator. */
template <typename C, typename R, typename... A>
struct FunctionTraits<R (C::*)(A...)> : FunctionTraits<R (*)(A...)> {};

namespace detail {

template <typename T>
using Bare = std::remove_cv_t<std::remove_reference_t<T>>;

// Number of results a C++ return type produces.
template <typename R>
struct ReturnArity { static constexpr uint32_t value = 1; };
template <>
struct ReturnArity<void> { static constexpr uint32_t value = 0; };
template <typename... T>
struct ReturnArity<std::tuple<T...>> { static constexpr uint32_t value = sizeof...(T); };

template <typename T>
struct IsTuple : std::false_type {};
template <typename... T>
struct IsTuple<std::tuple<T...>> : std::true_type {};

// Pushing into a result only fails on allocation failure past the inline
// slots; that is reported as bad_alloc by the overflow array itself.
template <typename R>
void PushReturn(CallResult* r, R&& v) {
  using B = Bare<R>;
  if constexpr (IsTuple<B>::value) {
    std::apply([r](auto&&... e) { ((void)r->PushTake(McValue(std::forward<decltype(e)>(e))), ...); },
               std::forward<R>(v));
  } else {
    (void)r->PushTake(McValue(std::forward<R>(v)));
  }
}

/** Environment of a typed callable: owns the function, the signature storage and the defaults. */
template <typename F>
struct TypedEnv {
  F fn;
  std::string name;
  std::vector<std::string> names;
  std::vector<ParamDesc> params;
  std::vector<McValue> defaults;  // None where a parameter has no default
  FunctionSig sig;
};

template <typename F, size_t... I>
bool TypedEntryImpl(void* env_p, const CallFrame* frame, CallResult* result, std::index_sequence<I...>) {
  auto* env = static_cast<TypedEnv<F>*>(env_p);
  (void)frame;  // unused by nullary functions
  using Traits = FunctionTraits<F>;
  using R = typename Traits::Return;
  try {
    const Any* a[sizeof...(I) + 1] = {FrameParameter(*frame, &env->sig, I)...};
    for (size_t i = 0; i < sizeof...(I); ++i) {
      if (a[i] == nullptr) a[i] = &env->defaults[i];
    }
    if constexpr (std::is_void_v<R>) {
      env->fn(a[I]->template As<Bare<std::tuple_element_t<I, typename Traits::Args>>>()...);
    } else {
      PushReturn(result, env->fn(a[I]->template As<Bare<std::tuple_element_t<I, typename Traits::Args>>>()...));
    }
    return true;
  } catch (...) {
    SetLastErrorFromCurrentException();
    return false;
  }
}

template <typename F>
bool TypedEntry(void* env, const CallFrame* frame, CallResult* result) {
  return TypedEntryImpl<F>(env, frame, result, std::make_index_sequence<FunctionTraits<F>::kArity>());
}

template <typename F>
void DeleteTypedEnv(void* env) {
  delete static_cast<TypedEnv<F>*>(env);
}

template <typename Tuple, size_t... I>
void FillTypes(ParamDesc* out, std::index_sequence<I...>) {
  ((out[I].type = ValueConverter<Bare<std::tuple_element_t<I, Tuple>>>::TypeIndexOf()), ...);
}

}  // namespace detail

/**
 * @brief Wrap @p fn as a Callable named @p name. @p specs names the
 * parameters (fewer specs than parameters: the rest are positional-only;
 * more: Error). Declared types come from the C++ parameter types.
 */
template <typename F>
Callable MakeTypedCallable(std::string name, F fn, std::vector<ParamSpec> specs = {}) {
  using Traits = FunctionTraits<F>;
  constexpr size_t n = Traits::kArity;
  if (specs.size() > n) {
    ThrowValueError(name + ": " + std::to_string(specs.size()) + " parameter specs for " +
                    std::to_string(n) + " parameters");
  }
  auto* env = new detail::TypedEnv<F>{std::move(fn), std::move(name), {}, {}, {}, {}};
  env->names.resize(n);
  env->params.resize(n);
  env->defaults.resize(n);
  for (size_t i = 0; i < specs.size(); ++i) {
    env->names[i] = std::move(specs[i].name);
    uint32_t flags = kParamDefault;
    if (specs[i].default_value) {
      flags |= kParamOptional;
      env->defaults[i] = std::move(*specs[i].default_value);
    }
    if (specs[i].keyword_only) flags |= kParamKeywordOnly;
    env->params[i].flags = flags;
  }
  for (size_t i = 0; i < n; ++i) env->params[i].name = env->names[i];
  if constexpr (n > 0) detail::FillTypes<typename Traits::Args>(env->params.data(), std::make_index_sequence<n>());
  env->sig.name = env->name;
  env->sig.param_count = static_cast<uint32_t>(n);
  env->sig.params = env->params.data();
  env->sig.return_count = detail::ReturnArity<detail::Bare<typename Traits::Return>>::value;
  return Callable::Create(&env->sig, &detail::TypedEntry<F>, env, &detail::DeleteTypedEnv<F>);
}

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_TYPED_FUNCTION_H_
