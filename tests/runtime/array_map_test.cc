#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spine/runtime/array.h"
#include "spine/runtime/map.h"
#include "spine/runtime/str.h"

namespace spine::runtime {
namespace {

TEST(Array, TypedInterfaceOverErasedStorage) {
  Array<Str> names{Str("a"), Str("b")};
  names.push_back(Str("c"));
  EXPECT_EQ(names.size(), 3u);
  EXPECT_EQ(names[-1].view(), "c");
  Str first = names[0];
  EXPECT_EQ(first.view(), "a");
  std::string joined;
  for (Str s : names) joined += s.view();
  EXPECT_EQ(joined, "abc");
  EXPECT_THROW(names[3], Error);
  names.set(1, Str("B"));
  EXPECT_EQ(names[1].view(), "B");
  Array<Str> alias = names;  // shares
  alias.push_back(Str("d"));
  EXPECT_EQ(names.size(), 4u);
}

TEST(Array, ElementsAreOwned) {
  Str s("x");
  {
    Array<Str> a{s, s};
    EXPECT_EQ(s.get()->UseCount(), 3);
  }
  EXPECT_EQ(s.get()->UseCount(), 1);
}

TEST(Map, TypedKeysAndValues) {
  Map<Str, Str> attrs;
  attrs.set(Str("global_symbol"), Str("add"));
  attrs.set(Str("kind"), Str("prim"));
  attrs.set(Str("kind"), Str("func"));  // overwrite
  EXPECT_EQ(attrs.size(), 2u);
  EXPECT_TRUE(attrs.contains(Str("kind")));
  EXPECT_EQ(attrs.get(Str("kind")).view(), "func");
  EXPECT_THROW(attrs.get(Str("none")), Error);
  std::vector<std::string> keys;
  attrs.ForEach([&](Str k, Str) { keys.push_back(std::string(k.view())); });
  EXPECT_EQ(keys, (std::vector<std::string>{"global_symbol", "kind"}));
  EXPECT_TRUE(attrs.erase(Str("kind")));
  EXPECT_EQ(attrs.size(), 1u);

  Map<int64_t, double> m;
  m.set(1, 0.5);
  EXPECT_DOUBLE_EQ(m.get(1), 0.5);
}

}  // namespace
}  // namespace spine::runtime
