/**
 * @file datatype.h
 * @brief DataType: the compiler's scalar data format (int/uint/float/handle,
 * bits, lanes). Distinct from TypeIndex, which names runtime objects.
 */
#ifndef SPINE_RUNTIME_DATATYPE_H_
#define SPINE_RUNTIME_DATATYPE_H_

#include <cstdint>
#include <string>

#include "spine/runtime/value.h"

namespace spine::runtime {

/** @brief A 4-byte scalar data type that fits in Value::u.v_datatype. */
class DataType {
 public:
  /** Type codes (the values are ABI). */
  enum Code : uint8_t { kInt = 0, kUInt = 1, kFloat = 2, kHandle = 3 };

  /** The default is a 64-bit signed integer. */
  constexpr DataType() noexcept : dt_{kInt, 64, 1} {}
  /** From raw fields. */
  constexpr DataType(Code code, uint8_t bits, uint16_t lanes = 1) noexcept
      : dt_{static_cast<uint8_t>(code), bits, lanes} {}
  /** From the ABI payload. */
  explicit constexpr DataType(Dt dt) noexcept : dt_(dt) {}

  /** Signed integer of @p bits. */
  static constexpr DataType Int(uint8_t bits, uint16_t lanes = 1) { return DataType(kInt, bits, lanes); }
  /** Unsigned integer of @p bits. */
  static constexpr DataType UInt(uint8_t bits, uint16_t lanes = 1) { return DataType(kUInt, bits, lanes); }
  /** IEEE float of @p bits. */
  static constexpr DataType Float(uint8_t bits, uint16_t lanes = 1) { return DataType(kFloat, bits, lanes); }
  /** One-lane, one-bit unsigned value. */
  static constexpr DataType Bool() { return DataType(kUInt, 1, 1); }
  /** A runtime object or pointer (64 bits). */
  static constexpr DataType Handle() { return DataType(kHandle, 64, 1); }

  /** Type code. */
  constexpr Code code() const noexcept { return static_cast<Code>(dt_.code); }
  /** Bits per lane. */
  constexpr int bits() const noexcept { return dt_.bits; }
  /** Lane count. */
  constexpr int lanes() const noexcept { return dt_.lanes; }
  /** True for the Bool() type. */
  constexpr bool is_bool() const noexcept { return dt_.code == kUInt && dt_.bits == 1; }
  /** The ABI payload. */
  constexpr Dt raw() const noexcept { return dt_; }
  /** Text form, e.g. "int64", "float32x4", "bool", "handle". */
  std::string ToString() const;
  /** Parse the text form; throws ValueError on bad input. */
  static DataType Parse(const std::string& text);

  /** Field-wise equality. */
  friend constexpr bool operator==(DataType a, DataType b) noexcept {
    return a.dt_.code == b.dt_.code && a.dt_.bits == b.dt_.bits && a.dt_.lanes == b.dt_.lanes;
  }
  /** Field-wise inequality. */
  friend constexpr bool operator!=(DataType a, DataType b) noexcept { return !(a == b); }

 private:
  Dt dt_;
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_DATATYPE_H_
