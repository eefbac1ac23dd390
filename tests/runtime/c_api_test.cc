#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "spine/runtime/c_api.h"
#include "spine/runtime/mc_value.h"
#include "spine/runtime/str.h"
#include "spine/runtime/tuple.h"

namespace spine::runtime {
namespace {

SpineValue Int(int64_t v) { return McValue(v).Release(); }

class CApi : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(SpineGetGlobal("testing.scaled_add", &fn_), 0) << SpineGetLastError(); }
  void TearDown() override { EXPECT_EQ(SpineFuncFree(fn_), 0); }
  SpineFunctionHandle fn_ = nullptr;
};

TEST_F(CApi, PositionalAndKeywordCalls) {
  SpineValue args[2] = {Int(2), Int(3)};
  SpineValue ret;
  ASSERT_EQ(SpineFuncCall(fn_, args, 2, nullptr, nullptr, 0, &ret), 0) << SpineGetLastError();
  EXPECT_EQ(ret.t, SPINE_TYPE_INT);
  EXPECT_EQ(ret.u.v_int, 5);
  SpineStrView names[2] = {{"scale", 5}, {"b", 1}};
  SpineValue kw[2] = {Int(10), Int(4)};
  ASSERT_EQ(SpineFuncCall(fn_, args, 1, names, kw, 2, &ret), 0) << SpineGetLastError();
  EXPECT_EQ(ret.u.v_int, 60);  // (2 + 4) * 10
  ASSERT_EQ(SpineFuncCall(fn_, args, 1, nullptr, nullptr, 0, &ret), 0);
  EXPECT_EQ(ret.u.v_int, 12);  // default b = 10
}

TEST_F(CApi, FailureReturnsMinusOneAndLeavesRetAlone) {
  SpineValue args[3] = {Int(1), Int(2), Int(3)};
  SpineValue ret = Int(99);
  EXPECT_EQ(SpineFuncCall(fn_, args, 3, nullptr, nullptr, 0, &ret), -1);
  EXPECT_STREQ(SpineGetLastError(), "testing.scaled_add() takes 2 positional arguments but 3 were given");
  EXPECT_EQ(SpineGetLastErrorKind(), static_cast<int>(ErrorKind::kTypeError));
  EXPECT_EQ(ret.u.v_int, 99);
  SpineStrView names[1] = {{"bogus", 5}};
  EXPECT_EQ(SpineFuncCall(fn_, args, 1, names, args, 1, &ret), -1);
  EXPECT_STREQ(SpineGetLastError(), "testing.scaled_add() got an unexpected keyword argument 'bogus'");
  EXPECT_EQ(SpineFuncCall(fn_, args, -1, nullptr, nullptr, 0, &ret), -1);
  EXPECT_EQ(SpineFuncCall(nullptr, args, 0, nullptr, nullptr, 0, &ret), -1);
}

TEST_F(CApi, BodyExceptionsBecomeErrorsNotCrashes) {
  SpineFunctionHandle fail;
  ASSERT_EQ(SpineGetGlobal("testing.fail", &fail), 0);
  std::string msg = "custom message";
  SpineValue arg = McView(std::string_view(msg)).value();  // borrowed, not NUL-terminated use
  SpineValue ret;
  EXPECT_EQ(SpineFuncCall(fail, &arg, 1, nullptr, nullptr, 0, &ret), -1);
  EXPECT_STREQ(SpineGetLastError(), "testing.fail(): custom message");
  EXPECT_EQ(SpineGetLastErrorKind(), static_cast<int>(ErrorKind::kValueError));
  SpineFuncFree(fail);
}

TEST_F(CApi, MoreKeywordsThanTheStackBufferHolds) {
  std::vector<std::string> storage;
  std::vector<SpineStrView> names;
  std::vector<SpineValue> values;
  storage.push_back("a");
  for (int i = 1; i <= 9; ++i) storage.push_back("x" + std::to_string(i));
  for (const std::string& n : storage) {
    names.push_back({n.data(), n.size()});
    values.push_back(Int(1));
  }
  SpineValue ret;
  EXPECT_EQ(SpineFuncCall(fn_, nullptr, 0, names.data(), values.data(), static_cast<int>(names.size()), &ret), -1);
  EXPECT_STREQ(SpineGetLastError(), "testing.scaled_add() got an unexpected keyword argument 'x1'");
  names[1] = names[0];  // a duplicate is found before anything else
  EXPECT_EQ(SpineFuncCall(fn_, nullptr, 0, names.data(), values.data(), static_cast<int>(names.size()), &ret), -1);
  EXPECT_STREQ(SpineGetLastError(), "testing.scaled_add() got multiple values for keyword argument 'a'");
}

TEST(CApiGlobals, UnknownNameAndTypeIndex) {
  SpineFunctionHandle h = reinterpret_cast<SpineFunctionHandle>(0x1);
  EXPECT_EQ(SpineGetGlobal("no.such.function", &h), -1);
  EXPECT_STREQ(SpineGetLastError(), "global function 'no.such.function' is not registered");
  EXPECT_EQ(SpineGetLastErrorKind(), static_cast<int>(ErrorKind::kKeyError));
  EXPECT_EQ(SpineGetGlobal(nullptr, &h), -1);
  int32_t idx = 0;
  ASSERT_EQ(SpineTypeIndexOf("RuntimeList", &idx), 0);
  EXPECT_EQ(idx, TypeIndex::RuntimeList);
  ASSERT_EQ(SpineTypeIndexOf("testing.Point", &idx), 0);
  EXPECT_GE(idx, TypeIndex::Dynamic);
  EXPECT_EQ(SpineTypeIndexOf("nope", &idx), -1);
}

TEST(CApiGlobals, StringAndMultipleResultsOwnership) {
  SpineFunctionHandle concat, add4;
  ASSERT_EQ(SpineGetGlobal("testing.concat", &concat), 0);
  ASSERT_EQ(SpineGetGlobal("testing.add4", &add4), 0);
  SpineValue args[2] = {McView("ab").value(), McView("cd").value()};
  SpineValue ret;
  ASSERT_EQ(SpineFuncCall(concat, args, 2, nullptr, nullptr, 0, &ret), 0) << SpineGetLastError();
  ASSERT_EQ(ret.t, TypeIndex::RuntimeStr);
  EXPECT_EQ(McView(Any(ret)).As<std::string>(), "abcd");
  EXPECT_EQ(SpineValueFree(&ret), 0);
  EXPECT_EQ(ret.t, SPINE_TYPE_NULL);
  SpineValue four[4] = {Int(1), Int(2), Int(3), Int(4)};
  ASSERT_EQ(SpineFuncCall(add4, four, 4, nullptr, nullptr, 0, &ret), 0);
  McValue tuple = McValue::Adopt(ret);  // several results arrive as a tuple
  Tuple t = tuple.As<Tuple>();
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].As<int64_t>(), 3);
  EXPECT_EQ(t[3].As<int64_t>(), 12);
  SpineFuncFree(concat);
  SpineFuncFree(add4);
}

TEST(CApiGlobals, RetainReleaseAndHandleLifetime) {
  Str s("x");
  EXPECT_EQ(SpineObjectRetain(s.get()), 0);
  EXPECT_EQ(s.get()->UseCount(), 2);
  EXPECT_EQ(SpineObjectRelease(s.get()), 0);
  EXPECT_EQ(s.get()->UseCount(), 1);
  EXPECT_EQ(SpineObjectRetain(nullptr), 0);
  EXPECT_EQ(SpineFuncFree(nullptr), 0);
  SpineFunctionHandle h;
  ASSERT_EQ(SpineGetGlobal("testing.add", &h), 0);
  int32_t before = static_cast<object_t*>(h)->UseCount();
  SpineFunctionHandle h2;
  ASSERT_EQ(SpineGetGlobal("testing.add", &h2), 0);
  EXPECT_EQ(h, h2);
  EXPECT_EQ(static_cast<object_t*>(h)->UseCount(), before + 1);
  SpineFuncFree(h2);
  SpineFuncFree(h);
}

TEST(CApiGlobals, LastErrorIsPerThread) {
  SpineFunctionHandle h;
  EXPECT_EQ(SpineGetGlobal("missing.a", &h), -1);
  std::string seen;
  std::thread t([&] {
    SpineGetGlobal("missing.b", &h);
    seen = SpineGetLastError();
  });
  t.join();
  EXPECT_EQ(seen, "global function 'missing.b' is not registered");
  EXPECT_STREQ(SpineGetLastError(), "global function 'missing.a' is not registered");
}

}  // namespace
}  // namespace spine::runtime
