#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spine/runtime/dict.h"
#include "spine/runtime/set.h"
#include "spine/runtime/str.h"
#include "spine/runtime/tuple.h"

namespace spine::runtime {
namespace {

TEST(Dict, OneTrueAndOnePointZeroAreOneKey) {
  Dict d;
  d.set(1, "int");
  d.set(1.0, "float");
  d.set(true, "bool");
  EXPECT_EQ(d.size(), 1u);
  EXPECT_EQ(d.get(McValue(1)).As<std::string>(), "bool");
  // Python keeps the first key object and replaces the value.
  EXPECT_EQ((*d.keys().begin()).type_index(), TypeIndex::Int);
  EXPECT_TRUE(d.contains(McValue(true)));
}

TEST(Dict, StringKeysMatchAcrossRepresentations) {
  Dict d{{"name", "matx"}};
  EXPECT_TRUE(d.contains(McValue(Str("name"))));
  EXPECT_TRUE(d.contains(McView("name")));
  EXPECT_FALSE(d.contains(McValue("nam")));
}

TEST(Dict, MissingKeyAndDefaults) {
  Dict d;
  try {
    d.get(McValue("x"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kKeyError);
  }
  EXPECT_EQ(d.get(McValue("x"), 5).As<int64_t>(), 5);
  d[McValue("debug")] = McValue(true);
  EXPECT_TRUE(d.get(McValue("debug")).As<bool>());
  EXPECT_TRUE(d[McValue("missing")].IsNull());  // operator[] inserts None
  EXPECT_EQ(d.size(), 2u);
}

TEST(Dict, UnhashableKeyIsTypeError) {
  Dict d;
  try {
    d.set(List{1}, 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
  }
  EXPECT_THROW(d.contains(McValue(List{})), Error);
  d.set(Tuple{1, 2}, "tuple key");
  EXPECT_EQ(d.get(McValue(Tuple{1.0, 2})).As<std::string>(), "tuple key");
}

TEST(Dict, InsertionOrderSurvivesEraseAndGrowth) {
  Dict d;
  for (int i = 0; i < 100; ++i) d.set(i, i * i);
  for (int i = 0; i < 100; i += 2) EXPECT_TRUE(d.erase(McValue(i)));
  EXPECT_FALSE(d.erase(McValue(0)));
  EXPECT_EQ(d.size(), 50u);
  std::vector<int64_t> keys;
  for (const McValue& k : d.keys()) keys.push_back(k.As<int64_t>());
  ASSERT_EQ(keys.size(), 50u);
  for (size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(keys[i], static_cast<int64_t>(2 * i + 1));
  for (auto kv : d.items()) EXPECT_EQ(kv.second.As<int64_t>(), kv.first.As<int64_t>() * kv.first.As<int64_t>());
  int64_t sum = 0;
  for (const McValue& v : d.values()) sum += v.As<int64_t>();
  EXPECT_EQ(sum, 166650);  // sum of odd squares below 100
}

TEST(Dict, ChurnAtConstantSizeDoesNotGrowTheTable) {
  Dict d;
  for (int i = 0; i < 10000; ++i) {
    d.set("k", i);
    d.erase(McValue("k"));
  }
  EXPECT_EQ(d.size(), 0u);
  EXPECT_LE(d.table().entries().size(), 16u);
}

TEST(Dict, CopySharesTheNode) {
  Dict a;
  Dict b = a;
  b.set("x", 1);
  EXPECT_TRUE(a.contains(McValue("x")));
  a.clear();
  EXPECT_EQ(b.size(), 0u);
}

TEST(Set, PythonSemantics) {
  Set labels{McValue("B"), McValue("I")};
  EXPECT_TRUE(labels.insert(McValue("E")));
  EXPECT_FALSE(labels.insert(McValue(Str("E"))));
  EXPECT_EQ(labels.size(), 3u);
  Set nums{1, 1.0, true, 2};
  EXPECT_EQ(nums.size(), 2u);
  EXPECT_TRUE(nums.contains(McValue(2.0)));
  EXPECT_TRUE(nums.erase(McValue(true)));
  EXPECT_FALSE(nums.contains(McValue(1)));
  std::vector<std::string> order;
  for (const McValue& v : labels) order.push_back(v.As<std::string>());
  EXPECT_EQ(order, (std::vector<std::string>{"B", "I", "E"}));
  EXPECT_THROW(labels.insert(McValue(Set{})), Error);
}

}  // namespace
}  // namespace spine::runtime
