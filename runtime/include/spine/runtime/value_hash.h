/**
 * @file value_hash.h
 * @brief Python hashing and equality for runtime values, used by Dict, Set
 * and Map so that 1, 1.0 and True are the same key, as in Python.
 */
#ifndef SPINE_RUNTIME_VALUE_HASH_H_
#define SPINE_RUNTIME_VALUE_HASH_H_

#include <cstddef>
#include <cstdint>

#include "spine/runtime/any.h"

namespace spine::runtime {

/**
 * @brief Python's hash of a value: numbers hash as CPython does (modulo
 * 2**61-1, so equal int/float/bool hash alike), strings by content (same for
 * immediate and RuntimeStr), tuples by elements, other objects by identity.
 * @throws Error(kTypeError) for unhashable values (list, dict, set).
 */
int64_t PyHash(const Any& v);

/**
 * @brief Python's `==` for runtime values: numeric cross-type equality,
 * string content, element-wise for list/tuple, content for dict/set,
 * identity for other objects. NaN is unequal to itself.
 */
bool PyEquals(const Any& a, const Any& b);

/** Hash functor for standard containers. */
struct ValueHash {
  /** Hash. */
  size_t operator()(const Any& v) const { return static_cast<size_t>(PyHash(v)); }
};

/** Equality functor for standard containers. */
struct ValueEqual {
  /** Equality. */
  bool operator()(const Any& a, const Any& b) const { return PyEquals(a, b); }
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_VALUE_HASH_H_
