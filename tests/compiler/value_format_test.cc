// SpineRuntimeApi::format (value_format.cc): CPython's text for each kind of
// value (the expected strings are CPython 3.11's), the size reported when the
// buffer is short without a byte written past it, and the refusals.
#include "spine/compiler/value_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "spine/compiler/module_runtime_api.h"

namespace sc = spine::compiler;

namespace {

SpineValue Int(int64_t v) {
  SpineValue x{};
  x.t = SPINE_TYPE_INT, x.u.v_int = v;
  return x;
}
SpineValue Bool(bool v) {
  SpineValue x{};
  x.t = SPINE_TYPE_BOOL, x.u.v_int = v;
  return x;
}
SpineValue Float(double v) {
  SpineValue x{};
  x.t = SPINE_TYPE_FLOAT, x.u.v_float = v;
  return x;
}
SpineValue Text(const char* s) {
  SpineValue x{};
  x.t = SPINE_TYPE_STR, x.p = static_cast<int32_t>(std::strlen(s)), x.u.v_str = const_cast<char*>(s);
  return x;
}

std::string Format(SpineValue v, const std::string& spec) {
  char buf[4096];
  const char* error = nullptr;
  int64_t n = sc::ModuleRuntimeApi()->format(&v, spec.data(), static_cast<int64_t>(spec.size()), buf, sizeof buf, &error);
  if (n < 0) return std::string("error: ") + error;
  return std::string(buf, static_cast<size_t>(n));
}

TEST(ValueFormat, LaysOutAsCPython) {
  EXPECT_EQ(Format(Int(1234567), ","), "1,234,567");
  EXPECT_EQ(Format(Int(-255), "#010x"), "-0x00000ff");
  EXPECT_EQ(Format(Int(INT64_MIN), "_b").substr(0, 6), "-1000_");
  EXPECT_EQ(Format(Int(65), "c"), "A");
  EXPECT_EQ(Format(Int(0x1F600), "*^5c"), "**\xF0\x9F\x98\x80**");
  EXPECT_EQ(Format(Int(7), ".2%"), "700.00%");
  EXPECT_EQ(Format(Bool(true), ">4"), "   1");
  EXPECT_EQ(Format(Float(1234567.891), ",.2f"), "1,234,567.89");
  EXPECT_EQ(Format(Float(0.1), ""), "0.1");
  EXPECT_EQ(Format(Float(1e16), ""), "1e+16");
  EXPECT_EQ(Format(Float(2.0), ""), "2.0");
  EXPECT_EQ(Format(Float(5e-324), ""), "5e-324");
  EXPECT_EQ(Format(Float(-0.0004), "z.2f"), "0.00");
  EXPECT_EQ(Format(Float(-NAN), "+08.3f"), "+0000nan");
  EXPECT_EQ(Format(Float(1.5e-7), ".6G"), "1.5E-07");
  EXPECT_EQ(Format(Text("h\xC3\xA9llo"), "\xC3\xA9^9.3"), "\xC3\xA9\xC3\xA9\xC3\xA9h\xC3\xA9l\xC3\xA9\xC3\xA9\xC3\xA9");
}

TEST(ValueFormat, ShortBufferGetsTheSizeAndNothingPastIt) {
  SpineValue v = Float(-1e300);
  const char spec[] = ",.3f";
  const char* error = nullptr;
  char small[16];
  std::memset(small, '#', sizeof small);
  int64_t n = sc::FormatValue(&v, spec, 4, small, 8, &error);
  EXPECT_EQ(n, 1 + 301 + 100 + 4);  // sign, 301 digits, 100 commas, ".000"
  for (size_t i = 8; i < sizeof small; ++i) EXPECT_EQ(small[i], '#') << i;
  EXPECT_EQ(Format(v, spec).size(), static_cast<size_t>(n));
}

TEST(ValueFormat, RefusesWhatNativeCodeCannotLayOut) {
  EXPECT_EQ(Format(Int(0x110000), "c"), "error: %c arg not in range(0x110000)");
  EXPECT_EQ(Format(Int(1), "2000000000"), "error: formatted text too long for native code");
  EXPECT_EQ(Format(Text("x"), "<2000000000"), "error: formatted text too long for native code");
  SpineValue none{};
  none.t = SPINE_TYPE_NULL;
  EXPECT_EQ(Format(none, ""), "error: format of a value native code does not format");
}

}  // namespace
