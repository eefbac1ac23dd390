#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spine/runtime/call_frame.h"
#include "spine/runtime/mc_value.h"

namespace spine::runtime {
namespace {

// f(a: int, b: int = ?, /named/, *args, k: str (kw-only, required), j (kw-only, optional))
// with a positional-only first parameter.
class FrameTest : public ::testing::Test {
 protected:
  std::vector<ParamDesc> params{{"", TypeIndex::Int, 0},
                                {"b", TypeIndex::Int, kParamOptional},
                                {"args", TypeIndex::Any, kParamVarargs},
                                {"k", TypeIndex::Str, kParamKeywordOnly},
                                {"j", TypeIndex::Any, kParamKeywordOnly | kParamOptional}};
  FunctionSig sig;
  void SetUp() override {
    sig.name = "f";
    sig.param_count = static_cast<uint32_t>(params.size());
    sig.params = params.data();
    ASSERT_TRUE(ValidateSignature(sig));
  }
  // Validates and returns "" on success, else the error message.
  std::string Check(std::vector<McValue> args, std::vector<std::string_view> names, std::vector<McValue> kws) {
    CallFrame f;
    f.arg_count = args.size();
    f.args = args.data();
    f.kw_count = names.size();
    f.kw_names = names.data();
    f.kw_values = kws.data();
    if (ValidateFrame(&sig, f)) return "";
    EXPECT_EQ(LastErrorKind(), ErrorKind::kTypeError);
    return LastErrorMessage();
  }
};

TEST_F(FrameTest, ValidFrames) {
  EXPECT_EQ(Check({1}, {"k"}, {"s"}), "");
  EXPECT_EQ(Check({1, 2, 3, 4}, {"k", "j"}, {"s", McValue()}), "");
  EXPECT_EQ(Check({1}, {"b", "k"}, {2, "s"}), "");
  EXPECT_EQ(Check({true}, {"k"}, {"s"}), "");  // bool is an int
}

TEST_F(FrameTest, MissingRequired) {
  EXPECT_EQ(Check({}, {"k"}, {"s"}), "f() missing required argument #0");
  EXPECT_EQ(Check({1}, {}, {}), "f() missing required keyword-only argument 'k'");
}

TEST_F(FrameTest, UnknownKeyword) {
  EXPECT_EQ(Check({1}, {"k", "zzz"}, {"s", 1}), "f() got an unexpected keyword argument 'zzz'");
  EXPECT_EQ(Check({1}, {"k", "args"}, {"s", 1}), "f() got an unexpected keyword argument 'args'");
}

TEST_F(FrameTest, DuplicateKeyword) {
  EXPECT_EQ(Check({1}, {"k", "k"}, {"s", "t"}), "f() got multiple values for keyword argument 'k'");
}

TEST_F(FrameTest, ParameterGivenTwice) {
  EXPECT_EQ(Check({1, 2}, {"b", "k"}, {3, "s"}), "f() got multiple values for argument 'b'");
}

TEST_F(FrameTest, EmptyKeywordName) {
  EXPECT_EQ(Check({1}, {"", "k"}, {1, "s"}), "f() got an empty keyword argument name");
}

TEST_F(FrameTest, DeclaredTypes) {
  EXPECT_EQ(Check({"x"}, {"k"}, {"s"}), "f() argument #0 must be int, not str");
  EXPECT_EQ(Check({1}, {"k"}, {2}), "f() argument 'k' must be str, not int");
  EXPECT_EQ(Check({1, 2.5}, {"k"}, {"s"}), "f() argument 'b' must be int, not float");
}

TEST_F(FrameTest, TooManyPositionalWithoutVarargs) {
  params.erase(params.begin() + 2);  // drop *args
  sig.param_count = static_cast<uint32_t>(params.size());
  sig.params = params.data();
  EXPECT_EQ(Check({1, 2, 3}, {"k"}, {"s"}), "f() takes 2 positional arguments but 3 were given");
}

TEST_F(FrameTest, IntegrityOfArrays) {
  CallFrame f;
  f.arg_count = 1;
  EXPECT_FALSE(ValidateFrame(&sig, f));
  EXPECT_EQ(LastErrorKind(), ErrorKind::kValueError);
  CallFrame g;
  g.kw_count = 1;
  EXPECT_FALSE(ValidateFrame(nullptr, g));
}

TEST_F(FrameTest, FrameParameterResolvesByParameterIndex) {
  std::vector<McValue> args{1, 2, 30, 40};
  std::vector<std::string_view> names{"k"};
  std::vector<McValue> kws{"s"};
  CallFrame f;
  f.arg_count = args.size();
  f.args = args.data();
  f.kw_count = 1;
  f.kw_names = names.data();
  f.kw_values = kws.data();
  ASSERT_TRUE(ValidateFrame(&sig, f));
  EXPECT_EQ(FrameParameter(f, &sig, 0)->As<int64_t>(), 1);
  EXPECT_EQ(FrameParameter(f, &sig, 1)->As<int64_t>(), 2);
  EXPECT_EQ(FrameParameter(f, &sig, 2), nullptr);  // varargs: use FrameVarargs
  EXPECT_EQ(FrameParameter(f, &sig, 3)->As<std::string>(), "s");
  EXPECT_EQ(FrameParameter(f, &sig, 4), nullptr);  // optional, not passed: no error
  EXPECT_EQ(FrameParameter(f, &sig, 99), nullptr);
  Parameters extra = FrameVarargs(f, &sig);
  ASSERT_EQ(extra.size(), 2u);
  EXPECT_EQ(extra[1].As<int64_t>(), 40);
  EXPECT_EQ(FrameKeyword(f, "k")->As<std::string>(), "s");
  EXPECT_EQ(FrameKeyword(f, "nope"), nullptr);
  EXPECT_EQ(FrameArgument(f, 3)->As<int64_t>(), 40);
  EXPECT_EQ(FrameArgument(f, 4), nullptr);
}

TEST_F(FrameTest, KeywordBindsANamedPositionalParameter) {
  std::vector<McValue> args{1};
  std::vector<std::string_view> names{"k", "b"};
  std::vector<McValue> kws{"s", 7};
  CallFrame f;
  f.arg_count = 1;
  f.args = args.data();
  f.kw_count = 2;
  f.kw_names = names.data();
  f.kw_values = kws.data();
  ASSERT_TRUE(ValidateFrame(&sig, f));
  EXPECT_EQ(FrameParameter(f, &sig, 1)->As<int64_t>(), 7);
  EXPECT_EQ(FrameVarargs(f, &sig).size(), 0u);
}

}  // namespace
}  // namespace spine::runtime
