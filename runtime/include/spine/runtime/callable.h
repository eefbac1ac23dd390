/**
 * @file callable.h
 * @brief Immutable callables: a signature, one typed entry, an environment
 * and its destructor. The count is the object's atomic count; the
 * environment destructor runs exactly once, when the last owner goes.
 */
#ifndef SPINE_RUNTIME_CALLABLE_H_
#define SPINE_RUNTIME_CALLABLE_H_

#include <string_view>
#include <utility>

#include "spine/runtime/call_frame.h"
#include "spine/runtime/call_result.h"
#include "spine/runtime/object.h"

namespace spine::runtime {

/**
 * @brief The single dynamic entry shape. Receives a frame that already passed
 * ValidateFrame. Returns true on success; on failure returns false with the
 * last error set (see Fail()). May be called concurrently and re-entrantly;
 * making @p env safe for that is the entry's job.
 */
using CallEntry = bool (*)(void* env, const CallFrame* frame, CallResult* result);
/** Destroys an environment; called exactly once. */
using EnvDeleter = void (*)(void* env);

/** @brief Node of Callable. All fields are fixed at creation. */
class CallableNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::RuntimeCallable;  /**< Fixed index. */
  static constexpr std::string_view NAME = "RuntimeCallable";    /**< Type name. */
  SPINE_DEFINE_TYPEINDEX(CallableNode, object_t)
  /** Internal; use Callable::Create. */
  CallableNode(const FunctionSig* sig, CallEntry entry, void* env, EnvDeleter deleter) noexcept
      : sig(sig), entry(entry), env(env), deleter(deleter) {}
  /** Runs the environment destructor: the last owner is gone, so exactly once. */
  ~CallableNode() override {
    if (deleter) deleter(env);
  }
  const FunctionSig* const sig;  /**< Borrowed signature or nullptr. */
  const CallEntry entry;         /**< Entry. */
  void* const env;               /**< Environment handed to the entry. */
  const EnvDeleter deleter;      /**< Environment destructor or nullptr. */
};

/** @brief Reference to a CallableNode; copying shares it. */
class Callable : public object_r {
 public:
  using ContainerType = CallableNode;  /**< Node type. */
  /** Null callable. */
  Callable() = default;
  /** Internal: adopt a node already checked to be a CallableNode. */
  explicit Callable(object_p<object_t> node) noexcept : object_r(std::move(node)) {}

  /**
   * @brief Create a callable. @p sig (may be nullptr: no parameter checks)
   * is borrowed and must outlive the callable. @p env is owned from here on:
   * if creation fails (null entry, invalid signature) @p deleter runs at once
   * and Error is thrown.
   */
  static Callable Create(const FunctionSig* sig, CallEntry entry, void* env, EnvDeleter deleter);

  /**
   * @brief The six-step atomic invoke: (1) copy the frame, (2) validate it,
   * (3) run the entry into a private temporary result, (4) on failure
   * release the partial results and wrap the error with the function name,
   * (5) check the result count against the signature, (6) on success replace
   * @p result in one move. On failure @p result is untouched. Never throws.
   */
  bool Invoke(const CallFrame& frame, CallResult* result) const noexcept;

  /**
   * @brief Invoke through a raw node pointer (same contract as Invoke). For
   * boundaries that hold a counted handle already and should not pay a
   * second atomic increment/decrement per call (C API, Python binding).
   */
  static bool InvokeNode(const CallableNode* node, const CallFrame& frame, CallResult* result) noexcept;

  /** The signature (nullptr if created without one). */
  const FunctionSig* signature() const noexcept { return NodeOf<CallableNode>(*this)->sig; }
  /** The signature's name, or "<callable>". */
  std::string_view name() const noexcept;

  /**
   * @brief C++ convenience: positional call, returns the first result (None
   * if there is none); throws Error with the runtime's message on failure.
   */
  template <typename... Args>
  McValue operator()(Args&&... args) const {
    McView views[sizeof...(Args) + 1] = {McView(std::forward<Args>(args))...};
    CallFrame f;
    f.arg_count = sizeof...(Args);
    f.args = views;
    return Call(f);
  }
  /** Invoke @p frame, return the first result or None; throws Error on failure. */
  McValue Call(const CallFrame& frame) const;
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_CALLABLE_H_
