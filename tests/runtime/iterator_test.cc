#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spine/runtime/dict.h"
#include "spine/runtime/iterator.h"
#include "spine/runtime/list.h"
#include "spine/runtime/set.h"
#include "spine/runtime/str.h"
#include "spine/runtime/tuple.h"

namespace spine::runtime {
namespace {

std::vector<McValue> Drain(Iterator it) {
  std::vector<McValue> out;
  while (it.HasNext()) out.push_back(it.Next());
  return out;
}

TEST(Iterator, AnyOverloadPicksTheAdapterByRuntimeType) {
  auto l = Drain(Iterator::MakeIterator(McValue(List{1, 2, 3})));
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[2].As<int64_t>(), 3);
  auto t = Drain(Iterator::MakeIterator(McValue(Tuple{"a", "b"})));
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[1].As<std::string>(), "b");
  auto d = Drain(Iterator::MakeIterator(McValue(Dict{{"x", 1}, {"y", 2}})));  // keys, as Python
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].As<std::string>(), "x");
  auto s = Drain(Iterator::MakeIterator(McValue(Set{5, 6})));
  ASSERT_EQ(s.size(), 2u);
  auto chars = Drain(Iterator::MakeIterator(McValue("h\xc3\xa9!")));  // "hé!" as code points
  ASSERT_EQ(chars.size(), 3u);
  EXPECT_EQ(chars[1].As<std::string>(), "\xc3\xa9");
  try {
    Iterator::MakeIterator(McValue(5));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
    EXPECT_STREQ(e.what(), "'int' object is not iterable");
  }
}

TEST(Iterator, DistanceCountsWhatIsLeft) {
  Iterator it = Iterator::MakeIterator(McValue(List{1, 2, 3}));
  EXPECT_EQ(it.Distance(), 3);
  it.Next();
  EXPECT_EQ(it.Distance(), 2);
  Iterator di = Iterator::MakeDictIterator(McValue(Dict{{1, 2}}), DictIterMode::kItems);
  EXPECT_EQ(di.Distance(), 1);
  McValue item = di.Next();
  EXPECT_EQ(item.As<Tuple>()[1].As<int64_t>(), 2);
  EXPECT_EQ(di.Distance(), 0);
  EXPECT_FALSE(di.HasNext());
  EXPECT_THROW(di.Next(), Error);
}

TEST(Iterator, KeepsItsContainerAlive) {
  Iterator it;
  const object_t* node;
  {
    List l{1, 2};
    node = l.get();
    it = Iterator::MakeIterator(McValue(l));
    EXPECT_EQ(node->UseCount(), 2);
  }
  EXPECT_EQ(node->UseCount(), 1);  // the iterator is the last owner
  EXPECT_EQ(Drain(it).size(), 2u);
}

TEST(Iterator, DictSizeChangeDuringIterationIsAnError) {
  Dict d{{1, 1}, {2, 2}};
  Iterator it = Iterator::MakeDictIterator(McValue(d), DictIterMode::kValues);
  it.Next();
  d.set(3, 3);
  EXPECT_THROW(it.HasNext(), Error);
  EXPECT_THROW(it.Next(), Error);
}

TEST(Iterator, ListShrinkingDuringIterationStopsSafely) {
  List l{1, 2, 3};
  Iterator it = Iterator::MakeIterator(McValue(l));
  it.Next();
  l.clear();
  EXPECT_FALSE(it.HasNext());
  EXPECT_THROW(it.Next(), Error);
}

TEST(Iterator, IteratorOfAnIteratorIsItself) {
  Iterator it = Iterator::MakeIterator(McValue(List{1}));
  Iterator same = Iterator::MakeIterator(McValue(it));
  EXPECT_TRUE(same.same_as(it));
}

TEST(Iterator, GenericFromCallbacks) {
  auto counter = std::make_shared<int64_t>(0);
  Iterator it = Iterator::MakeGenericIterator(
      McValue(), [counter] { return *counter < 3; }, [counter] { return McValue((*counter)++); },
      [counter] { return 3 - *counter; });
  auto out = Drain(it);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[2].As<int64_t>(), 2);
  EXPECT_THROW(Iterator::MakeGenericIterator(McValue(), nullptr, nullptr, nullptr), Error);
}

}  // namespace
}  // namespace spine::runtime
