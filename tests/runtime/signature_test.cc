#include <gtest/gtest.h>

#include "spine/runtime/call_frame.h"
#include "spine/runtime/signature.h"

namespace spine::runtime {
namespace {

bool Valid(std::initializer_list<ParamDesc> ps) {
  std::vector<ParamDesc> v(ps);
  FunctionSig sig;
  sig.name = "f";
  sig.param_count = static_cast<uint32_t>(v.size());
  sig.params = v.data();
  return ValidateSignature(sig);
}

constexpr int32_t A = TypeIndex::Any;

TEST(Signature, AcceptsPythonShapedSignatures) {
  EXPECT_TRUE(Valid({}));
  EXPECT_TRUE(Valid({{"a", A, 0}, {"b", A, kParamOptional}}));
  EXPECT_TRUE(Valid({{"", A, 0}, {"b", A, 0}, {"args", A, kParamVarargs}, {"k", A, kParamKeywordOnly}}));
  EXPECT_TRUE(Valid({{"a", A, 0}, {"k", A, kParamKeywordOnly}, {"j", A, kParamKeywordOnly | kParamOptional}}));
}

TEST(Signature, RejectsBadFlagCombinations) {
  EXPECT_FALSE(Valid({{"a", A, 0}, {"a", A, 0}}));
  EXPECT_NE(std::string(LastErrorMessage()).find("duplicate parameter name 'a'"), std::string::npos);
  EXPECT_FALSE(Valid({{"a", A, kParamVarargs}, {"b", A, kParamVarargs}}));
  EXPECT_FALSE(Valid({{"a", A, kParamVarargs | kParamOptional}}));
  EXPECT_FALSE(Valid({{"a", A, kParamVarargs | kParamKeywordOnly}}));
  EXPECT_FALSE(Valid({{"", A, kParamKeywordOnly}}));
  EXPECT_FALSE(Valid({{"a", A, kParamVarargs}, {"b", A, 0}}));
  EXPECT_FALSE(Valid({{"k", A, kParamKeywordOnly}, {"b", A, 0}}));
  EXPECT_FALSE(Valid({{"k", A, kParamKeywordOnly}, {"args", A, kParamVarargs}}));
  EXPECT_FALSE(Valid({{"a", A, kParamOptional}, {"b", A, 0}}));
  EXPECT_NE(std::string(LastErrorMessage()).find("follows an optional"), std::string::npos);
  EXPECT_FALSE(Valid({{"a", A, 0}, {"", A, 0}}));
  EXPECT_FALSE(Valid({{"a", A, 64}}));
  FunctionSig null_params;
  null_params.param_count = 1;
  EXPECT_FALSE(ValidateSignature(null_params));
  EXPECT_EQ(LastErrorKind(), ErrorKind::kValueError);
}

TEST(Signature, TypeAcceptance) {
  EXPECT_TRUE(TypeAccepts(TypeIndex::Int, TypeIndex::Bool));
  EXPECT_TRUE(TypeAccepts(TypeIndex::Float, TypeIndex::Int));
  EXPECT_FALSE(TypeAccepts(TypeIndex::Int, TypeIndex::Float));
  EXPECT_FALSE(TypeAccepts(TypeIndex::Bool, TypeIndex::Int));
  EXPECT_TRUE(TypeAccepts(TypeIndex::Str, TypeIndex::RuntimeStr));
  EXPECT_TRUE(TypeAccepts(TypeIndex::Object, TypeIndex::RuntimeList));
  EXPECT_FALSE(TypeAccepts(TypeIndex::RuntimeList, TypeIndex::RuntimeDict));
  EXPECT_FALSE(TypeAccepts(TypeIndex::RuntimeList, TypeIndex::Null));
  EXPECT_TRUE(TypeAccepts(TypeIndex::Any, TypeIndex::Null));
}

}  // namespace
}  // namespace spine::runtime
