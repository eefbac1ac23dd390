#include <gtest/gtest.h>

#include "spine/runtime/call_result.h"
#include "spine/runtime/str.h"

namespace spine::runtime {
namespace {

TEST(CallResult, InlineThenOverflow) {
  CallResult r;
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(r.Push(McValue(i)));
  EXPECT_EQ(r.overflow_capacity(), 0u);  // four results: no array
  for (int i = 4; i < 11; ++i) ASSERT_TRUE(r.Push(McValue(i)));
  EXPECT_EQ(r.size(), 11u);
  EXPECT_GE(r.overflow_capacity(), 7u);
  for (int i = 0; i < 11; ++i) EXPECT_EQ(r.Get(i)->As<int64_t>(), i);
  EXPECT_EQ(r.Get(11), nullptr);
}

TEST(CallResult, SetReplacesOrAppendsButNeverWritesSparse) {
  CallResult r;
  EXPECT_FALSE(r.Set(2, McValue(1)));
  EXPECT_EQ(LastErrorKind(), ErrorKind::kIndexError);
  EXPECT_EQ(r.size(), 0u);
  EXPECT_TRUE(r.Set(0, McValue(1)));
  EXPECT_TRUE(r.Set(0, McValue(2)));
  EXPECT_EQ(r.size(), 1u);
  EXPECT_EQ(r.Get(0)->As<int64_t>(), 2);
  EXPECT_TRUE(r.Set(1, McValue(3)));
  EXPECT_FALSE(r.Set(5, McValue(3)));
  EXPECT_EQ(r.size(), 2u);
}

TEST(CallResult, ReferenceSemanticsOfSetPushTake) {
  Str s("x");
  CallResult r;
  McValue v(s);
  ASSERT_TRUE(r.Push(v));  // Push adds an owner
  EXPECT_EQ(s.get()->UseCount(), 3);
  ASSERT_TRUE(r.PushTake(v));  // PushTake moves and clears the source
  EXPECT_TRUE(v.IsNull());
  EXPECT_EQ(s.get()->UseCount(), 3);
  McValue w(s);
  ASSERT_TRUE(r.SetTake(0, w));
  EXPECT_TRUE(w.IsNull());
  EXPECT_EQ(s.get()->UseCount(), 3);
  McValue out = r.Take(1);
  EXPECT_EQ(r.size(), 2u);  // Take leaves the count alone
  EXPECT_TRUE(r.Get(1)->IsNull());
  EXPECT_EQ(out.ObjectPtr(), s.get());
  out.Clean();
  r.Clear();
  EXPECT_EQ(s.get()->UseCount(), 1);
}

TEST(CallResult, ClearKeepsCapacityUnitDropsIt) {
  CallResult r;
  for (int i = 0; i < 9; ++i) r.Push(McValue("s"));
  size_t cap = r.overflow_capacity();
  r.Clear();
  EXPECT_EQ(r.size(), 0u);
  EXPECT_EQ(r.overflow_capacity(), cap);
  r.Unit();
  EXPECT_EQ(r.overflow_capacity(), 0u);
}

TEST(CallResult, MoveTransfersEverything) {
  Str s("x");
  CallResult a, b;
  for (int i = 0; i < 6; ++i) a.Push(McValue(s));
  b.Push(McValue(s));
  b.Move(a);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.size(), 6u);
  EXPECT_EQ(s.get()->UseCount(), 7);
  b.Move(b);
  EXPECT_EQ(b.size(), 6u);
  b.Unit();
  a.Unit();
  EXPECT_EQ(s.get()->UseCount(), 1);
}

}  // namespace
}  // namespace spine::runtime
