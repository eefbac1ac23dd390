/**
 * @file value.h
 * @brief The C-layout value that crosses every ABI boundary of the runtime.
 *
 * This header is valid C11 and C++17. A SpineValue is 16 bytes: an 8-byte
 * union, an auxiliary 32-bit field `p` (string length) and the 32-bit type tag
 * `t`. Immediate kinds use negative tags; runtime objects use their
 * non-negative type index, so `t >= SPINE_TYPE_OBJECT` means "holds an
 * object_t*". Every producer in the runtime zeroes the whole value before it
 * writes a member, so two values with the same content are bytewise equal.
 */
#ifndef SPINE_RUNTIME_VALUE_H_
#define SPINE_RUNTIME_VALUE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Type tags of immediate (non-object) values; all negative. */
enum SpineTypeTag {
  SPINE_TYPE_NULL = -1,     /**< None; the union is all zero. */
  SPINE_TYPE_INT = -2,      /**< v_int holds an int64. */
  SPINE_TYPE_FLOAT = -3,    /**< v_float holds a double. */
  SPINE_TYPE_STR = -4,      /**< v_str points at UTF-8 bytes, p is the length. */
  SPINE_TYPE_POINTER = -5,  /**< v_pointer is an opaque, unowned pointer. */
  SPINE_TYPE_DATATYPE = -6, /**< v_datatype holds a scalar data type. */
  SPINE_TYPE_BOOL = -7,     /**< v_int is 0 or 1; kept apart from INT so True round-trips. */
  SPINE_TYPE_OBJECT = 0     /**< First object index; tags >= this hold an object_t*. */
};

/** Scalar data format of the compiler (see datatype.h): code, bits, lanes. */
typedef struct SpineDt {
  uint8_t code;   /**< One of SpineDtCode. */
  uint8_t bits;   /**< Bit width of one lane. */
  uint16_t lanes; /**< Number of lanes (1 for scalars). */
} SpineDt;

/** The payload of a SpineValue; which member is live is decided by `t`. */
typedef union SpineUnion {
  int64_t v_int;         /**< INT and BOOL. */
  double v_float;        /**< FLOAT. */
  char* v_str;           /**< STR: UTF-8 bytes, not necessarily NUL-terminated when borrowed. */
  void* v_pointer;       /**< POINTER and every object tag. */
  SpineDt v_datatype;    /**< DATATYPE; the upper 4 bytes stay zero. */
} SpineUnion;

/** A tagged value with a fixed C layout (16 bytes, no constructors). */
typedef struct SpineValue {
  SpineUnion u; /**< Payload. */
  int32_t p;    /**< Auxiliary data: the byte length of a STR, else 0. */
  int32_t t;    /**< Type tag: SpineTypeTag or an object type index. */
} SpineValue;

#ifdef __cplusplus
}  // extern "C"

namespace spine::runtime {
/** The C++ name of the ABI value. */
using Value = ::SpineValue;
/** The C++ name of the ABI data type payload. */
using Dt = ::SpineDt;
static_assert(sizeof(Value) == 16, "Value must stay 16 bytes");
}  // namespace spine::runtime
#endif

#endif  // SPINE_RUNTIME_VALUE_H_
