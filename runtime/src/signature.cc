#include "spine/runtime/signature.h"

#include <string>

#include "spine/runtime/error.h"
#include "spine/runtime/type_context.h"
#include "spine/runtime/type_index.h"

namespace spine::runtime {
namespace {

bool SigFail(const FunctionSig& sig, const std::string& what) noexcept {
  try {
    std::string m = "signature of '" + std::string(sig.name) + "': " + what;
    SetLastError(ErrorKind::kValueError, m.c_str());
  } catch (...) {
    SetLastError(ErrorKind::kValueError, "invalid signature");
  }
  return false;
}

}  // namespace

bool ValidateSignature(const FunctionSig& sig) noexcept {
  if (sig.param_count > 0 && sig.params == nullptr) return SigFail(sig, "params is null");
  constexpr uint32_t kKnown = kParamOptional | kParamKeywordOnly | kParamVarargs;
  bool seen_optional = false, seen_named = false, seen_varargs = false, seen_kwonly = false;
  for (uint32_t i = 0; i < sig.param_count; ++i) {
    const ParamDesc& p = sig.params[i];
    std::string label = p.name.empty() ? "#" + std::to_string(i) : "'" + std::string(p.name) + "'";
    if (p.flags & ~kKnown) return SigFail(sig, "parameter " + label + " has unknown flags");
    for (uint32_t j = 0; j < i && !p.name.empty(); ++j) {
      if (sig.params[j].name == p.name) return SigFail(sig, "duplicate parameter name " + label);
    }
    bool kwonly = p.flags & kParamKeywordOnly, varargs = p.flags & kParamVarargs, opt = p.flags & kParamOptional;
    if (varargs) {
      if (seen_varargs) return SigFail(sig, "more than one varargs parameter");
      if (kwonly || opt) return SigFail(sig, "varargs parameter " + label + " cannot be optional or keyword-only");
      if (seen_kwonly) return SigFail(sig, "varargs parameter " + label + " follows a keyword-only parameter");
      seen_varargs = true;
      continue;
    }
    if (kwonly) {
      if (p.name.empty()) return SigFail(sig, "keyword-only parameter " + label + " needs a name");
      seen_kwonly = true;
      continue;
    }
    // A plain positional parameter.
    if (seen_varargs || seen_kwonly) {
      return SigFail(sig, "positional parameter " + label + " follows varargs or a keyword-only parameter");
    }
    if (p.name.empty() && seen_named) {
      return SigFail(sig, "positional-only parameter " + label + " follows a named parameter");
    }
    if (!opt && seen_optional) return SigFail(sig, "required parameter " + label + " follows an optional one");
    seen_optional |= opt;
    seen_named |= !p.name.empty();
  }
  return true;
}

bool TypeAccepts(int32_t declared, int32_t actual) noexcept {
  if (declared == TypeIndex::Any || declared == actual) return true;
  switch (declared) {
    case TypeIndex::Int: return actual == TypeIndex::Bool;
    case TypeIndex::Float: return actual == TypeIndex::Int || actual == TypeIndex::Bool;
    case TypeIndex::Str:
    case TypeIndex::RuntimeStr: return actual == TypeIndex::Str || actual == TypeIndex::RuntimeStr;
    default: break;
  }
  return IsObjectTag(declared) && IsObjectTag(actual) && TypeContext::Global().IsFrom(actual, declared);
}

}  // namespace spine::runtime
