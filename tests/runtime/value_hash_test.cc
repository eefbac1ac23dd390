#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "spine/runtime/dict.h"
#include "spine/runtime/list.h"
#include "spine/runtime/set.h"
#include "spine/runtime/str.h"
#include "spine/runtime/tuple.h"
#include "spine/runtime/value_hash.h"

namespace spine::runtime {
namespace {

// Values CPython 3.11 prints for hash(x).
TEST(PyHash, MatchesCPythonForNumbers) {
  EXPECT_EQ(PyHash(McValue(0)), 0);
  EXPECT_EQ(PyHash(McValue(1)), 1);
  EXPECT_EQ(PyHash(McValue(-1)), -2);
  EXPECT_EQ(PyHash(McValue(true)), 1);
  EXPECT_EQ(PyHash(McValue(false)), 0);
  EXPECT_EQ(PyHash(McValue(int64_t{1} << 61)), 1);                    // 2**61 % (2**61-1)
  EXPECT_EQ(PyHash(McValue((int64_t{1} << 61) - 1)), 0);
  EXPECT_EQ(PyHash(McValue(std::numeric_limits<int64_t>::min())), -4);  // hash(-2**63)
  EXPECT_EQ(PyHash(McValue(0.5)), 1152921504606846976);
  EXPECT_EQ(PyHash(McValue(1.5)), 1152921504606846977);
  EXPECT_EQ(PyHash(McValue(-0.5)), -1152921504606846976);
  EXPECT_EQ(PyHash(McValue(1e100)), 1822893315824342674);
  EXPECT_EQ(PyHash(McValue(std::numeric_limits<double>::infinity())), 314159);
  EXPECT_EQ(PyHash(McValue(-std::numeric_limits<double>::infinity())), -314159);
}

TEST(PyHash, EqualNumbersHashAlike) {
  for (int64_t i : {int64_t{0}, int64_t{1}, int64_t{-7}, int64_t{1} << 53, int64_t{123456789}}) {
    EXPECT_EQ(PyHash(McValue(i)), PyHash(McValue(static_cast<double>(i)))) << i;
    EXPECT_TRUE(PyEquals(McValue(i), McValue(static_cast<double>(i)))) << i;
  }
  EXPECT_EQ(PyHash(McValue(true)), PyHash(McValue(1.0)));
}

TEST(PyEquals, NumericMatrix) {
  EXPECT_TRUE(PyEquals(McValue(1), McValue(true)));
  EXPECT_TRUE(PyEquals(McValue(1.0), McValue(true)));
  EXPECT_TRUE(PyEquals(McValue(0), McValue(false)));
  EXPECT_FALSE(PyEquals(McValue(1), McValue(1.5)));
  // 2**53 + 1 is not representable: the float rounds to 2**53, which Python says differs.
  int64_t big = (int64_t{1} << 53) + 1;
  EXPECT_FALSE(PyEquals(McValue(big), McValue(static_cast<double>(big))));
  EXPECT_TRUE(PyEquals(McValue(std::numeric_limits<int64_t>::min()), McValue(-9223372036854775808.0)));
  EXPECT_FALSE(PyEquals(McValue(std::numeric_limits<int64_t>::max()), McValue(9223372036854775808.0)));
  double nan = std::nan("");
  EXPECT_FALSE(PyEquals(McValue(nan), McValue(nan)));
  EXPECT_FALSE(PyEquals(McValue(1), McValue("1")));
  EXPECT_FALSE(PyEquals(McValue(), McValue(0)));
  EXPECT_TRUE(PyEquals(McValue(), McValue()));
}

TEST(PyEquals, StringsAcrossRepresentations) {
  McValue imm("key");
  McValue obj(Str("key"));
  EXPECT_TRUE(PyEquals(imm, obj));
  EXPECT_EQ(PyHash(imm), PyHash(obj));
  EXPECT_FALSE(PyEquals(imm, McValue("kez")));
  EXPECT_FALSE(PyEquals(McValue(""), McValue()));
}

TEST(PyEquals, Containers) {
  EXPECT_TRUE(PyEquals(McValue(List{1, "a"}), McValue(List{1.0, Str("a")})));
  EXPECT_FALSE(PyEquals(McValue(List{1, 2}), McValue(List{1})));
  EXPECT_FALSE(PyEquals(McValue(List{1}), McValue(Tuple{1})));  // list != tuple in Python
  EXPECT_TRUE(PyEquals(McValue(Tuple{1, "a"}), McValue(Tuple{true, "a"})));
  EXPECT_EQ(PyHash(McValue(Tuple{1, "a"})), PyHash(McValue(Tuple{1.0, Str("a")})));
  EXPECT_NE(PyHash(McValue(Tuple{1, 2})), PyHash(McValue(Tuple{2, 1})));
  EXPECT_TRUE(PyEquals(McValue(Dict{{"a", 1}, {"b", 2}}), McValue(Dict{{"b", 2.0}, {"a", true}})));
  EXPECT_FALSE(PyEquals(McValue(Dict{{"a", 1}}), McValue(Dict{{"a", 2}})));
  EXPECT_TRUE(PyEquals(McValue(Set{1, 2}), McValue(Set{2.0, 1})));
  EXPECT_FALSE(PyEquals(McValue(Set{1, 2}), McValue(Set{1, 3})));
}

TEST(PyHash, MutableContainersAreUnhashable) {
  for (McValue v : {McValue(List{}), McValue(Dict{}), McValue(Set{}), McValue(Tuple{List{}})}) {
    try {
      PyHash(v);
      FAIL() << v.TypeName();
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
      EXPECT_NE(std::string(e.what()).find("unhashable"), std::string::npos);
    }
  }
}

TEST(PyEquals, SelfContainingListHitsTheDepthLimit) {
  List a, b;
  a.append(a);
  b.append(b);
  EXPECT_TRUE(PyEquals(McValue(a), McValue(a)));  // identity
  EXPECT_THROW(PyEquals(McValue(a), McValue(b)), Error);
  a.clear();  // break the cycles so the nodes are freed
  b.clear();
}

}  // namespace
}  // namespace spine::runtime
