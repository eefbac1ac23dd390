#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "spine/runtime/object.h"
#include "spine/runtime/str.h"

namespace spine::runtime {
namespace {

std::atomic<int> g_destroyed{0};

class BaseNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::Dynamic;
  static constexpr std::string_view NAME = "test.Base";
  SPINE_DEFINE_TYPEINDEX(BaseNode, object_t)
  ~BaseNode() override { g_destroyed.fetch_add(1); }
  int payload = 7;
};

class DerivedNode : public BaseNode {
 public:
  static constexpr int32_t INDEX = TypeIndex::Dynamic;
  static constexpr std::string_view NAME = "test.Derived";
  SPINE_DEFINE_TYPEINDEX(DerivedNode, BaseNode)
};

class OtherNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::Dynamic;
  static constexpr std::string_view NAME = "test.Other";
  SPINE_DEFINE_TYPEINDEX(OtherNode, object_t)
};

TEST(ObjectP, CopySharesMoveTransfersLastOwnerDeletes) {
  g_destroyed = 0;
  object_p<BaseNode> a = MakeObject<BaseNode>();
  EXPECT_EQ(a->UseCount(), 1);
  {
    object_p<BaseNode> b = a;
    EXPECT_EQ(a->UseCount(), 2);
    EXPECT_EQ(a.get(), b.get());
    object_p<BaseNode> c = std::move(b);
    EXPECT_FALSE(b);
    EXPECT_EQ(a->UseCount(), 2);
  }
  EXPECT_EQ(a->UseCount(), 1);
  EXPECT_EQ(g_destroyed.load(), 0);
  a = a;  // self-assignment keeps the object
  EXPECT_EQ(a->UseCount(), 1);
  a = nullptr;
  EXPECT_EQ(g_destroyed.load(), 1);
}

TEST(ObjectP, ReleaseAndAdoptKeepOneCount) {
  object_p<BaseNode> a = MakeObject<BaseNode>();
  BaseNode* raw = a.release();
  EXPECT_FALSE(a);
  EXPECT_EQ(raw->UseCount(), 1);
  object_p<BaseNode> back = object_p<BaseNode>::Adopt(raw);
  EXPECT_EQ(back->UseCount(), 1);
}

TEST(ObjectR, CheckedAsFollowsParentChain) {
  object_r d(object_p<object_t>(MakeObject<DerivedNode>()));
  EXPECT_NE(d.As<DerivedNode>(), nullptr);
  EXPECT_NE(d.As<BaseNode>(), nullptr);
  EXPECT_NE(d.As<object_t>(), nullptr);
  EXPECT_EQ(d.As<OtherNode>(), nullptr);
  EXPECT_EQ(d.As<BaseNode>()->payload, 7);
  object_r b(object_p<object_t>(MakeObject<BaseNode>()));
  EXPECT_EQ(b.As<DerivedNode>(), nullptr);
  EXPECT_FALSE(object_r().defined());
  EXPECT_EQ(object_r().As<BaseNode>(), nullptr);
}

TEST(ObjectR, AsRefThrowsTypeErrorOnMismatch) {
  object_r s = Str("x");
  EXPECT_EQ(s.AsRef<Str>().view(), "x");
  object_r o(object_p<object_t>(MakeObject<OtherNode>()));
  try {
    o.AsRef<Str>();
    FAIL() << "expected a TypeError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
    EXPECT_NE(std::string(e.what()).find("test.Other"), std::string::npos);
  }
}

TEST(TypeContext, FixedAndDynamicIndices) {
  TypeContext& tc = TypeContext::Global();
  EXPECT_EQ(tc.IndexOf("RuntimeStr"), TypeIndex::RuntimeStr);
  EXPECT_EQ(StrNode::RuntimeTypeIndex(), TypeIndex::RuntimeStr);
  int32_t base = BaseNode::RuntimeTypeIndex();
  int32_t derived = DerivedNode::RuntimeTypeIndex();
  EXPECT_GE(base, TypeIndex::Dynamic);
  EXPECT_GE(derived, TypeIndex::Dynamic);
  EXPECT_NE(base, derived);
  EXPECT_EQ(tc.IndexOf("test.Derived"), derived);
  EXPECT_EQ(tc.NameOf(derived), "test.Derived");
  EXPECT_EQ(tc.ParentOf(derived), base);
  EXPECT_EQ(tc.ParentOf(base), TypeIndex::Object);
  EXPECT_TRUE(tc.IsFrom(derived, base));
  EXPECT_TRUE(tc.IsFrom(derived, TypeIndex::Object));
  EXPECT_FALSE(tc.IsFrom(base, derived));
  EXPECT_FALSE(tc.IsFrom(TypeIndex::Int, TypeIndex::Object));
  EXPECT_EQ(tc.IndexOf("no.such.type"), -1);
  EXPECT_EQ(MakeObject<DerivedNode>()->Name(), "test.Derived");
}

TEST(TypeContext, ConflictingRegistrationIsAnError) {
  TypeContext& tc = TypeContext::Global();
  int32_t base = BaseNode::RuntimeTypeIndex();
  EXPECT_EQ(tc.Register("test.Base", TypeIndex::Dynamic, TypeIndex::Object), base);  // idempotent
  EXPECT_THROW(tc.Register("test.Base", TypeIndex::Dynamic, TypeIndex::RuntimeStr), Error);
  EXPECT_THROW(tc.Register("test.NewFixed", TypeIndex::RuntimeList, TypeIndex::Object), Error);
  EXPECT_THROW(tc.Register("test.BadParent", TypeIndex::Dynamic, 4000), Error);
}

TEST(ObjectThreads, ConcurrentCopiesKeepTheCountExact) {
  g_destroyed = 0;
  object_p<BaseNode> shared = MakeObject<BaseNode>();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&shared] {
      for (int i = 0; i < 20000; ++i) {
        object_p<BaseNode> copy = shared;
        object_p<BaseNode> moved = std::move(copy);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(shared->UseCount(), 1);
  EXPECT_EQ(g_destroyed.load(), 0);
  shared = nullptr;
  EXPECT_EQ(g_destroyed.load(), 1);
}

TEST(ObjectThreads, ConcurrentDynamicRegistrationGetsDistinctIndices) {
  std::vector<int32_t> got(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &got] {
      got[t] = TypeContext::Global().Register("test.Concurrent" + std::to_string(t), TypeIndex::Dynamic,
                                              TypeIndex::Object);
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < i; ++j) EXPECT_NE(got[i], got[j]);
    EXPECT_EQ(TypeContext::Global().IndexOf("test.Concurrent" + std::to_string(i)), got[i]);
  }
}

}  // namespace
}  // namespace spine::runtime
