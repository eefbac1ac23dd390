#include <gtest/gtest.h>

#include <limits>

#include "spine/runtime/list.h"
#include "spine/runtime/str.h"
#include "spine/runtime/tuple.h"

namespace spine::runtime {
namespace {

TEST(List, NegativeIndexingAndBounds) {
  List l{10, 20, 30};
  EXPECT_EQ(l[0].As<int64_t>(), 10);
  EXPECT_EQ(l[-1].As<int64_t>(), 30);
  EXPECT_EQ(l[-3].As<int64_t>(), 10);
  for (int64_t bad : {int64_t{3}, int64_t{-4}, int64_t{100}, std::numeric_limits<int64_t>::min()}) {
    try {
      l[bad];
      FAIL() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kIndexError);
      EXPECT_STREQ(e.what(), "list index out of range");
    }
  }
  l.set(-1, "x");
  EXPECT_EQ(l[2].As<std::string>(), "x");
}

TEST(List, MixedValuesAppendPopClear) {
  List values{McValue(42), McValue(3.14), McValue("matx")};
  values.append(true);
  EXPECT_EQ(values.size(), 4u);
  EXPECT_EQ(values[3].type_index(), TypeIndex::Bool);
  EXPECT_TRUE(values.pop().As<bool>());
  EXPECT_EQ(values.size(), 3u);
  values.clear();
  EXPECT_TRUE(values.empty());
  try {
    values.pop();
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kIndexError);
  }
}

TEST(List, CopyingTheReferenceSharesTheNode) {
  List a{1, 2};
  List b = a;
  b.append(3);
  EXPECT_EQ(a.size(), 3u);
  EXPECT_TRUE(a.same_as(b));
  EXPECT_EQ(a.get()->UseCount(), 2);
}

TEST(List, ElementsKeepObjectsAlive) {
  Str s("held");
  {
    List l;
    l.append(s);
    l.append(s);
    EXPECT_EQ(s.get()->UseCount(), 3);
  }
  EXPECT_EQ(s.get()->UseCount(), 1);
}

TEST(List, RangeFor) {
  List l{1, 2, 3};
  int64_t sum = 0;
  for (const McValue& v : l) sum += v.As<int64_t>();
  EXPECT_EQ(sum, 6);
}

TEST(Tuple, ReadOnlyIndexing) {
  Tuple t{1, "a", 2.5};
  EXPECT_EQ(t.size(), 3u);
  EXPECT_EQ(t[-2].As<std::string>(), "a");
  EXPECT_THROW(t[3], Error);
  Tuple empty;
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_THROW(empty[0], Error);
  Tuple u = t;
  EXPECT_TRUE(u.same_as(t));
}

}  // namespace
}  // namespace spine::runtime
