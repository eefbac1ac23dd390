/**
 * @file type_index.h
 * @brief Fixed runtime type indices shared by C++, the C API and Python.
 */
#ifndef SPINE_RUNTIME_TYPE_INDEX_H_
#define SPINE_RUNTIME_TYPE_INDEX_H_

#include <cstdint>

#include "spine/runtime/value.h"

namespace spine::runtime {

/**
 * @brief Type indices. Immediates are negative (mirroring SpineTypeTag),
 * built-in objects have fixed small indices, and types defined elsewhere get
 * an index >= Dynamic the first time they are used.
 */
struct TypeIndex {
  static constexpr int32_t Null = SPINE_TYPE_NULL;          /**< None. */
  static constexpr int32_t Int = SPINE_TYPE_INT;            /**< int64. */
  static constexpr int32_t Float = SPINE_TYPE_FLOAT;        /**< double. */
  static constexpr int32_t Str = SPINE_TYPE_STR;            /**< Immediate UTF-8 string. */
  static constexpr int32_t Pointer = SPINE_TYPE_POINTER;    /**< Opaque pointer. */
  static constexpr int32_t DataType = SPINE_TYPE_DATATYPE;  /**< Scalar data type. */
  static constexpr int32_t Bool = SPINE_TYPE_BOOL;          /**< bool. */
  static constexpr int32_t Object = SPINE_TYPE_OBJECT;      /**< object_t, root of all objects. */
  static constexpr int32_t RuntimeStr = 1;       /**< StrNode. */
  static constexpr int32_t RuntimeList = 2;      /**< ListNode. */
  static constexpr int32_t RuntimeDict = 3;      /**< DictNode. */
  static constexpr int32_t RuntimeSet = 4;       /**< SetNode. */
  static constexpr int32_t RuntimeTuple = 5;     /**< TupleNode. */
  static constexpr int32_t RuntimeIterator = 6;  /**< IteratorNode (abstract). */
  static constexpr int32_t RuntimeArray = 7;     /**< ArrayNode, behind Array<T>. */
  static constexpr int32_t RuntimeMap = 8;       /**< MapNode, behind Map<K,V>. */
  static constexpr int32_t RuntimeCallable = 9;  /**< CallableNode. */
  static constexpr int32_t Module = 10;          /**< Reserved for the module loader. */
  static constexpr int32_t Dynamic = 64;         /**< First dynamically allocated index. */
  /** Pseudo index used in signatures: "any value accepted". Never a real tag. */
  static constexpr int32_t Any = INT32_MIN;
};

/** True if the tag denotes an object pointer. */
constexpr bool IsObjectTag(int32_t t) noexcept { return t >= TypeIndex::Object; }

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_TYPE_INDEX_H_
