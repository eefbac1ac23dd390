#include <gtest/gtest.h>

#include <cstring>

#include "spine/runtime/datatype.h"
#include "spine/runtime/list.h"
#include "spine/runtime/mc_value.h"
#include "spine/runtime/str.h"

namespace spine::runtime {
namespace {

TEST(McValue, ImmediatesAndTags) {
  EXPECT_EQ(McValue().type_index(), TypeIndex::Null);
  EXPECT_EQ(McValue(nullptr).type_index(), TypeIndex::Null);
  EXPECT_EQ(McValue(42).As<int64_t>(), 42);
  EXPECT_EQ(McValue(true).type_index(), TypeIndex::Bool);
  EXPECT_TRUE(McValue(true).As<bool>());
  EXPECT_EQ(McValue(true).As<int64_t>(), 1);  // bool is an int
  EXPECT_DOUBLE_EQ(McValue(0.5).As<double>(), 0.5);
  EXPECT_DOUBLE_EQ(McValue(3).As<double>(), 3.0);  // int promotes to float
  EXPECT_EQ(McValue("matx").As<std::string>(), "matx");
  EXPECT_EQ(McValue(DataType::Int(32)).As<DataType>(), DataType::Int(32));
  int x = 0;
  EXPECT_EQ(McValue::Pointer(&x).As<void*>(), &x);
}

TEST(McValue, ConversionErrorsAreTypeErrors) {
  try {
    McValue("s").As<int64_t>();
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
    EXPECT_STREQ(e.what(), "expected int, got str");
  }
  EXPECT_THROW(McValue(1).As<bool>(), Error);
  EXPECT_THROW(McValue(1.5).As<int64_t>(), Error);
  EXPECT_THROW(McValue(1).As<std::string>(), Error);
  EXPECT_THROW(McValue().As<List>(), Error);
  EXPECT_THROW(McValue(int64_t{1} << 40).As<int32_t>(), Error);  // overflow, not truncation
  EXPECT_THROW(McValue(-1).As<uint32_t>(), Error);
  EXPECT_EQ(McValue(70000).As<int32_t>(), 70000);
}

TEST(McValue, StringCopyOwnsItsBuffer) {
  McValue a("matx");
  McValue b = a;
  EXPECT_NE(a.value().u.v_str, b.value().u.v_str);
  EXPECT_EQ(b.As<std::string>(), "matx");
  EXPECT_EQ(b.value().u.v_str[4], '\0');  // owned strings are NUL-terminated
  a.Clean();
  EXPECT_TRUE(a.IsNull());
  EXPECT_EQ(b.As<std::string_view>(), "matx");
}

TEST(McValue, ObjectsShareOneCount) {
  Str s("runtime");
  EXPECT_EQ(s.get()->UseCount(), 1);
  McValue x(s);
  EXPECT_EQ(s.get()->UseCount(), 2);
  McValue y = x;
  EXPECT_EQ(s.get()->UseCount(), 3);
  EXPECT_EQ(x.ObjectPtr(), y.ObjectPtr());
  McValue z = std::move(y);
  EXPECT_TRUE(y.IsNull());  // move leaves Null
  EXPECT_EQ(s.get()->UseCount(), 3);
  z = McValue(5);  // reassignment releases the object
  EXPECT_EQ(s.get()->UseCount(), 2);
  x = x;  // self-assignment is safe
  EXPECT_EQ(s.get()->UseCount(), 2);
  x.Clean();
  EXPECT_EQ(s.get()->UseCount(), 1);
}

TEST(McValue, MoveAssignmentReleasesTheOldValue) {
  Str s1("a"), s2("b");
  McValue v(s1);
  McValue w(s2);
  v = std::move(w);
  EXPECT_EQ(s1.get()->UseCount(), 1);
  EXPECT_EQ(s2.get()->UseCount(), 2);
  EXPECT_TRUE(w.IsNull());
}

TEST(McValue, ReleaseAndAdoptTransferOwnership) {
  Str s("x");
  McValue v(s);
  Value raw = v.Release();
  EXPECT_TRUE(v.IsNull());
  EXPECT_EQ(s.get()->UseCount(), 2);
  {
    McValue back = McValue::Adopt(raw);
    EXPECT_EQ(s.get()->UseCount(), 2);
  }
  EXPECT_EQ(s.get()->UseCount(), 1);
}

TEST(McView, BorrowsWithoutCounting) {
  Str s("x");
  {
    McView v(s);
    EXPECT_EQ(s.get()->UseCount(), 1);
    EXPECT_EQ(v.As<Str>().view(), "x");  // As<Str> makes an owning reference, released at once
    McValue owned = McValue::CopyFrom(v);
    EXPECT_EQ(s.get()->UseCount(), 2);
  }
  EXPECT_EQ(s.get()->UseCount(), 1);
  std::string text = "borrowed";
  McView sv(std::string_view(text).substr(0, 3));
  EXPECT_EQ(sv.value().u.v_str, text.data());  // no copy
  EXPECT_EQ(sv.As<std::string>(), "bor");
  McValue copy = McValue::CopyFrom(sv);
  EXPECT_NE(copy.value().u.v_str, text.data());
  EXPECT_EQ(copy.As<std::string>(), "bor");
}

TEST(Value, UnusedBytesAreZeroSoValuesCompareBytewise) {
  McValue a(5), b(5);
  EXPECT_EQ(std::memcmp(&a.value(), &b.value(), sizeof(Value)), 0);
  McValue d1(DataType::Float(32, 4)), d2(DataType::Float(32, 4));
  EXPECT_EQ(std::memcmp(&d1.value(), &d2.value(), sizeof(Value)), 0);
  EXPECT_EQ(d1.value().u.v_int >> 32, 0);  // upper half of the union is zero
  McValue t(true), f(false);
  EXPECT_FALSE(t.BitwiseEquals(f));
  McValue n1, n2(5);
  n2 = McValue();
  EXPECT_TRUE(n1.BitwiseEquals(n2));
  McView v(7);
  EXPECT_TRUE(v.BitwiseEquals(McValue(7)));
}

TEST(DataType, TextRoundTrip) {
  EXPECT_EQ(DataType::Int(64).ToString(), "int64");
  EXPECT_EQ(DataType::Float(32, 4).ToString(), "float32x4");
  EXPECT_EQ(DataType::Bool().ToString(), "bool");
  EXPECT_EQ(DataType::Handle().ToString(), "handle");
  for (const char* s : {"int8", "uint16", "float64", "bool", "handle", "int32x8"}) {
    EXPECT_EQ(DataType::Parse(s).ToString(), s);
  }
  EXPECT_THROW(DataType::Parse("int"), Error);
  EXPECT_THROW(DataType::Parse("complex64"), Error);
  EXPECT_THROW(DataType::Parse("int32x"), Error);
  EXPECT_NE(DataType::Int(32), DataType::UInt(32));
}

TEST(Str, SharedImmutableNode) {
  Str a("ab");
  Str b = a;
  EXPECT_TRUE(a.same_as(b));
  Str c = a + Str("cd");
  EXPECT_EQ(c.view(), "abcd");
  EXPECT_EQ(a.view(), "ab");
  EXPECT_EQ(Str("x"), Str("x"));
  EXPECT_EQ(McValue("imm").As<Str>().view(), "imm");  // immediate converts to a node
}

}  // namespace
}  // namespace spine::runtime
