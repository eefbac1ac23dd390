/**
 * @file signature.h
 * @brief Function signatures of the typed call layer: named
 * parameters with optional / keyword-only / varargs flags and declared
 * types. All arrays are borrowed from the declarer and must outlive every
 * callable created from the signature.
 */
#ifndef SPINE_RUNTIME_SIGNATURE_H_
#define SPINE_RUNTIME_SIGNATURE_H_

#include <cstdint>
#include <string_view>

namespace spine::runtime {

/** Parameter flags (bit set). */
enum ParamFlags : uint32_t {
  kParamDefault = 0,      /**< Required, positional or keyword. */
  kParamOptional = 1,     /**< May be omitted; FrameParameter then returns nullptr. */
  kParamKeywordOnly = 2,  /**< May only be passed by keyword. */
  kParamVarargs = 4,      /**< Collects the extra positional arguments (*args); see FrameVarargs. */
};

/**
 * @brief One declared parameter. An empty name makes the parameter
 * positional-only. `type` is a TypeIndex, or TypeIndex::Any for no check.
 */
struct ParamDesc {
  std::string_view name;  /**< Keyword name; empty = positional-only. */
  int32_t type;           /**< Declared type (TypeIndex) or TypeIndex::Any. */
  uint32_t flags;         /**< ParamFlags. */
};

/** Return count meaning "any number of results". */
constexpr uint32_t kAnyReturnCount = UINT32_MAX;

/** @brief A borrowed function signature. */
struct FunctionSig {
  std::string_view name;             /**< Function name, used in error messages. */
  uint32_t param_count = 0;          /**< Number of entries in params. */
  const ParamDesc* params = nullptr; /**< Declared parameters, in order. */
  uint32_t return_count = kAnyReturnCount;  /**< Exact number of results, or kAnyReturnCount. */
  const int32_t* return_types = nullptr;    /**< Optional declared result types (return_count entries). */
};

/**
 * @brief Check a signature's own consistency: unique non-empty names,
 * at most one varargs (neither optional nor keyword-only, and named or not),
 * positional parameters after varargs must be keyword-only, a required
 * positional parameter may not follow an optional one, keyword-only needs a
 * name, unknown flag bits. Returns false and sets the last error otherwise.
 */
bool ValidateSignature(const FunctionSig& sig) noexcept;

/** True if a value of type @p actual satisfies declared type @p declared (bool is an int, int is a float). */
bool TypeAccepts(int32_t declared, int32_t actual) noexcept;

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_SIGNATURE_H_
