/**
 * @file call_frame.h
 * @brief Call frames: borrowed self, positional and keyword arrays (never a
 * dict), full validation against a signature, and parameter lookup.
 */
#ifndef SPINE_RUNTIME_CALL_FRAME_H_
#define SPINE_RUNTIME_CALL_FRAME_H_

#include <cstddef>
#include <string_view>

#include "spine/runtime/any.h"
#include "spine/runtime/parameters.h"
#include "spine/runtime/signature.h"

namespace spine::runtime {

/**
 * @brief Everything a call passes, all borrowed for the duration of the
 * call. Keyword arguments are two parallel arrays, so a caller that has
 * names and values in hand (Python's vectorcall) passes them without
 * building a mapping.
 */
struct CallFrame {
  const Any* self = nullptr;                 /**< Receiver, or nullptr. */
  size_t arg_count = 0;                      /**< Positional count. */
  const Any* args = nullptr;                 /**< Positional values. */
  size_t kw_count = 0;                       /**< Keyword count. */
  const std::string_view* kw_names = nullptr;  /**< Keyword names. */
  const Any* kw_values = nullptr;            /**< Keyword values, parallel to kw_names. */
  void* context = nullptr;                   /**< Caller context, passed through untouched. */
};

/**
 * @brief Validate @p frame against @p sig (nullptr = no signature: only the
 * frame's integrity is checked). Checks: array integrity, empty and
 * duplicate keyword names, too many positional arguments, unknown keywords,
 * keywords naming a positional-only or varargs parameter, a parameter given
 * both by position and keyword, positional-only parameters passed by
 * keyword, missing required parameters, and declared types. Returns false
 * with the last error set ("add(): ..."), true if the entry may run.
 */
bool ValidateFrame(const FunctionSig* sig, const CallFrame& frame) noexcept;

/** Raw positional argument @p i, or nullptr. */
inline const Any* FrameArgument(const CallFrame& f, size_t i) noexcept {
  return i < f.arg_count ? &f.args[i] : nullptr;
}

/** Raw keyword argument named @p name, or nullptr. */
const Any* FrameKeyword(const CallFrame& f, std::string_view name) noexcept;

/**
 * @brief The value bound to declared parameter @p index of @p sig: the
 * positional argument if the parameter can be and was passed by position,
 * else the keyword of its name; nullptr if not passed (no error). For a
 * varargs parameter use FrameVarargs. Without a signature, positional @p index.
 */
const Any* FrameParameter(const CallFrame& f, const FunctionSig* sig, size_t index) noexcept;

/** The positional arguments collected by the varargs parameter (empty if none). */
Parameters FrameVarargs(const CallFrame& f, const FunctionSig* sig) noexcept;

/** Number of leading parameters of @p sig that accept positional arguments (before varargs / keyword-only). */
size_t PositionalCapacity(const FunctionSig& sig) noexcept;

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_CALL_FRAME_H_
