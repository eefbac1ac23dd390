/**
 * @file value_format.h
 * @brief format(x, spec) of an int, bool, float or str for generated
 * modules (SpineRuntimeApi::format): CPython's format-spec layout and float
 * digits, compiled once into the loader rather than into every module that
 * formats (at -O3 they were most of such a module's compile time).
 */
#ifndef SPINE_COMPILER_VALUE_FORMAT_H_
#define SPINE_COMPILER_VALUE_FORMAT_H_

#include "spine/compiler/module_abi.h"

namespace spine::compiler {

/** SpineRuntimeApi::format; both the loader's and the Python binding's tables point here. */
int64_t FormatValue(const SpineValue* value, const char* spec, int64_t spec_size, char* out, int64_t cap,
                    const char** error) noexcept;

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_VALUE_FORMAT_H_
