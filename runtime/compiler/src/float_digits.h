// The digits of a double as CPython's _Py_dg_dtoa produces them (modes 0, 2
// and 3) and format_float_short's layout of them, for value_format.cc.
#ifndef SPINE_COMPILER_SRC_FLOAT_DIGITS_H_
#define SPINE_COMPILER_SRC_FLOAT_DIGITS_H_

namespace spine::compiler {

/** The digits of a finite double: no trailing zeros, the decimal point after decpt of them. */
struct FloatDigits {
  char d[800];    // significant digits (mode 2 asks at most 800: the frontend bounds the precision)
  int n = 0;      // their count (at least 1: zero is "0")
  int decpt = 0;  // decimal point position relative to the digits
};

/** |x| to @p sig significant digits, correctly rounded (dtoa mode 2); trailing zeros dropped. */
void SignificantDigits(double x, int sig, FloatDigits& out);

/** repr's digits (dtoa mode 0) of @p a >= 0: the fewest significant digits that read back as @p a. */
void ShortestDigits(double a, FloatDigits& out);

/**
 * CPython's format_float_short layout of @p g (mode 'g' or 'r' with @p precision) into @p p:
 * fixed or exponent notation, zeros padded, '.0' added to integers if @p add_dot_0, the point
 * kept under '#' (@p alt). Returns the byte count.
 */
int LayoutShort(const FloatDigits& g, char code, int precision, bool add_dot_0, bool alt, char* p);

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_SRC_FLOAT_DIGITS_H_
