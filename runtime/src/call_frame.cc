// Frame validation. Everything an entry may assume is checked here, once,
// before the entry runs; messages follow CPython's wording so a Python
// caller sees familiar TypeErrors. The success path allocates nothing.
#include "spine/runtime/call_frame.h"

#include <string>

#include "spine/runtime/error.h"
#include "spine/runtime/type_index.h"

namespace spine::runtime {
namespace {

// Parameter names are short; a byte loop beats a memcmp call, which showed
// up as ~10% of a Python keyword call (four name comparisons per call).
inline bool NameEquals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

bool FrameFail(const FunctionSig* sig, ErrorKind kind, const std::string& what) noexcept {
  try {
    std::string m = std::string(sig ? sig->name : std::string_view("<callable>")) + "() " + what;
    SetLastError(kind, m.c_str());
  } catch (...) {
    SetLastError(kind, "invalid call");
  }
  return false;
}

std::string Label(const ParamDesc& p, size_t i) {
  return p.name.empty() ? "#" + std::to_string(i) : "'" + std::string(p.name) + "'";
}

bool CheckType(const FunctionSig* sig, const ParamDesc& p, size_t i, const Any& v) noexcept {
  if (TypeAccepts(p.type, v.type_index())) return true;
  try {
    return FrameFail(sig, ErrorKind::kTypeError,
                     "argument " + Label(p, i) + " must be " + TypeDisplayName(p.type) + ", not " + v.TypeName());
  } catch (...) {
    return FrameFail(sig, ErrorKind::kTypeError, "argument of wrong type");
  }
}

}  // namespace

size_t PositionalCapacity(const FunctionSig& sig) noexcept {
  size_t n = 0;
  while (n < sig.param_count && (sig.params[n].flags & (kParamKeywordOnly | kParamVarargs)) == 0) ++n;
  return n;
}

bool ValidateFrame(const FunctionSig* sig, const CallFrame& f) noexcept {
  if (f.arg_count > 0 && f.args == nullptr) return FrameFail(sig, ErrorKind::kValueError, "positional array is null");
  if (f.kw_count > 0 && (f.kw_names == nullptr || f.kw_values == nullptr)) {
    return FrameFail(sig, ErrorKind::kValueError, "keyword arrays are null");
  }
  for (size_t k = 0; k < f.kw_count; ++k) {
    if (f.kw_names[k].empty()) return FrameFail(sig, ErrorKind::kTypeError, "got an empty keyword argument name");
    for (size_t j = 0; j < k; ++j) {
      if (NameEquals(f.kw_names[j], f.kw_names[k])) {
        return FrameFail(sig, ErrorKind::kTypeError,
                         "got multiple values for keyword argument '" + std::string(f.kw_names[k]) + "'");
      }
    }
  }
  if (sig == nullptr) return true;

  const size_t npos = PositionalCapacity(*sig);
  const bool has_varargs = npos < sig->param_count && (sig->params[npos].flags & kParamVarargs);
  if (f.arg_count > npos && !has_varargs) {
    return FrameFail(sig, ErrorKind::kTypeError,
                     "takes " + std::to_string(npos) + " positional argument" + (npos == 1 ? "" : "s") + " but " +
                         std::to_string(f.arg_count) + (f.arg_count == 1 ? " was" : " were") + " given");
  }
  // Keywords: each must name a parameter that accepts keywords and was not
  // already bound by position.
  for (size_t k = 0; k < f.kw_count; ++k) {
    size_t i = 0;
    while (i < sig->param_count && !NameEquals(sig->params[i].name, f.kw_names[k])) ++i;
    if (i == sig->param_count || (sig->params[i].flags & kParamVarargs)) {
      return FrameFail(sig, ErrorKind::kTypeError,
                       "got an unexpected keyword argument '" + std::string(f.kw_names[k]) + "'");
    }
    if (i < npos && i < f.arg_count) {
      return FrameFail(sig, ErrorKind::kTypeError,
                       "got multiple values for argument '" + std::string(f.kw_names[k]) + "'");
    }
    if (!CheckType(sig, sig->params[i], i, f.kw_values[k])) return false;
  }
  // Positional types (extra positionals are checked against varargs).
  for (size_t i = 0; i < f.arg_count; ++i) {
    size_t pi = i < npos ? i : npos;
    if (!CheckType(sig, sig->params[pi], pi, f.args[i])) return false;
  }
  // Every required parameter is bound.
  for (size_t i = 0; i < sig->param_count; ++i) {
    const ParamDesc& p = sig->params[i];
    if (p.flags & (kParamOptional | kParamVarargs)) continue;
    if (i < npos && i < f.arg_count) continue;
    if (!p.name.empty() && FrameKeyword(f, p.name) != nullptr) continue;
    bool kwonly = p.flags & kParamKeywordOnly;
    return FrameFail(sig, ErrorKind::kTypeError,
                     std::string("missing required ") + (kwonly ? "keyword-only " : "") + "argument " + Label(p, i));
  }
  return true;
}

const Any* FrameKeyword(const CallFrame& f, std::string_view name) noexcept {
  for (size_t k = 0; k < f.kw_count; ++k) {
    if (NameEquals(f.kw_names[k], name)) return &f.kw_values[k];
  }
  return nullptr;
}

const Any* FrameParameter(const CallFrame& f, const FunctionSig* sig, size_t index) noexcept {
  if (sig == nullptr) return FrameArgument(f, index);
  if (index >= sig->param_count) return nullptr;
  const ParamDesc& p = sig->params[index];
  if (p.flags & kParamVarargs) return nullptr;
  if (!(p.flags & kParamKeywordOnly) && index < f.arg_count) return &f.args[index];
  return p.name.empty() ? nullptr : FrameKeyword(f, p.name);
}

Parameters FrameVarargs(const CallFrame& f, const FunctionSig* sig) noexcept {
  if (sig == nullptr) return Parameters(f.args, f.arg_count);
  size_t npos = PositionalCapacity(*sig);
  if (npos >= sig->param_count || !(sig->params[npos].flags & kParamVarargs) || f.arg_count <= npos) {
    return Parameters();
  }
  return Parameters(f.args + npos, f.arg_count - npos);
}

}  // namespace spine::runtime
