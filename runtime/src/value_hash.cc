// Python-compatible hashing and equality. Numbers follow CPython exactly
// (Objects/object.c _Py_HashDouble and long_hash: reduction modulo the
// Mersenne prime 2**61-1), which is what makes hash(1) == hash(1.0) ==
// hash(True) and lets Dict treat them as one key. Strings hash by content
// with std::hash: it only has to agree between the immediate and the
// RuntimeStr form within one process, not with CPython's randomised siphash.
#include "spine/runtime/value_hash.h"

#include <cmath>
#include <functional>
#include <string_view>

#include "spine/runtime/dict.h"
#include "spine/runtime/list.h"
#include "spine/runtime/set.h"
#include "spine/runtime/str.h"
#include "spine/runtime/tuple.h"

namespace spine::runtime {
namespace {

constexpr uint64_t kModulus = (uint64_t{1} << 61) - 1;
constexpr int kHashBits = 61;
constexpr int64_t kHashInf = 314159;
constexpr int kMaxDepth = 1000;

int64_t HashInt(int64_t n) noexcept {
  // Fast path without the division: |n| < 2**61-1 is its own residue.
  if (n >= 0 && static_cast<uint64_t>(n) < kModulus) return n;
  if (n < 0 && n > -static_cast<int64_t>(kModulus)) return n == -1 ? -2 : n;
  uint64_t mag = n < 0 ? uint64_t{0} - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  int64_t h = static_cast<int64_t>(mag % kModulus);
  if (n < 0) h = -h;
  return h == -1 ? -2 : h;
}

int64_t HashDouble(double v) noexcept {
  if (!std::isfinite(v)) {
    if (std::isinf(v)) return v > 0 ? kHashInf : -kHashInf;
    return 0;  // NaN: never equal to anything, so any hash is correct.
  }
  int e;
  double m = std::frexp(v, &e);
  int sign = 1;
  if (m < 0) {
    sign = -1;
    m = -m;
  }
  uint64_t x = 0;
  while (m != 0.0) {
    x = ((x << 28) & kModulus) | x >> (kHashBits - 28);
    m *= 268435456.0;  // 2**28
    e -= 28;
    uint64_t y = static_cast<uint64_t>(m);
    m -= static_cast<double>(y);
    x += y;
    if (x >= kModulus) x -= kModulus;
  }
  e = e >= 0 ? e % kHashBits : kHashBits - 1 - ((-1 - e) % kHashBits);
  x = ((x << e) & kModulus) | x >> (kHashBits - e);
  int64_t h = static_cast<int64_t>(x) * sign;
  return h == -1 ? -2 : h;
}

int64_t HashBytes(std::string_view s) noexcept {
  int64_t r = static_cast<int64_t>(std::hash<std::string_view>()(s));
  return r == -1 ? -2 : r;
}

bool IsNumber(int32_t t) noexcept { return t == TypeIndex::Int || t == TypeIndex::Bool || t == TypeIndex::Float; }

// Exact int/float comparison, as Python does (no rounding of the int).
bool IntEqualsDouble(int64_t i, double d) noexcept {
  if (!std::isfinite(d) || std::floor(d) != d) return false;
  if (d < -9223372036854775808.0 || d >= 9223372036854775808.0) return false;
  return static_cast<int64_t>(d) == i;
}

int64_t Hash(const Any& v, int depth);
bool Equals(const Any& a, const Any& b, int depth);

void CheckDepth(int depth) {
  if (depth > kMaxDepth) ThrowRuntimeError("maximum recursion depth exceeded in comparison");
}

int64_t Hash(const Any& v, int depth) {
  CheckDepth(depth);
  const Value& x = v.value();
  switch (x.t) {
    case TypeIndex::Null: return 0x9e3779b9;
    case TypeIndex::Int:
    case TypeIndex::Bool: return HashInt(x.u.v_int);
    case TypeIndex::Float: return HashDouble(x.u.v_float);
    case TypeIndex::Str: return HashBytes(std::string_view(x.u.v_str, static_cast<size_t>(x.p)));
    case TypeIndex::Pointer: return static_cast<int64_t>(reinterpret_cast<uintptr_t>(x.u.v_pointer) >> 4);
    case TypeIndex::DataType:
      return (int64_t{x.u.v_datatype.code} << 24) | (int64_t{x.u.v_datatype.bits} << 16) | x.u.v_datatype.lanes;
    default: break;
  }
  switch (x.t) {
    case TypeIndex::RuntimeStr: return HashBytes(static_cast<const StrNode*>(x.u.v_pointer)->data);
    case TypeIndex::RuntimeTuple: {
      // Order-sensitive combination of element hashes.
      uint64_t h = 0x345678;
      for (const McValue& e : static_cast<const TupleNode*>(x.u.v_pointer)->data) {
        h = (h ^ static_cast<uint64_t>(Hash(e, depth + 1))) * 1000003ull;
      }
      int64_t r = static_cast<int64_t>(h);
      return r == -1 ? -2 : r;
    }
    case TypeIndex::RuntimeList:
    case TypeIndex::RuntimeDict:
    case TypeIndex::RuntimeSet:
      ThrowTypeError("unhashable type: '" + v.TypeName() + "'");
    default:
      return static_cast<int64_t>(reinterpret_cast<uintptr_t>(x.u.v_pointer) >> 4);
  }
}

template <typename Seq>
bool SeqEquals(const Seq& a, const Seq& b, int depth) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!Equals(a[i], b[i], depth + 1)) return false;
  }
  return true;
}

bool Equals(const Any& a, const Any& b, int depth) {
  CheckDepth(depth);
  const Value& x = a.value();
  const Value& y = b.value();
  if (IsNumber(x.t) && IsNumber(y.t)) {
    bool xf = x.t == TypeIndex::Float, yf = y.t == TypeIndex::Float;
    if (!xf && !yf) return x.u.v_int == y.u.v_int;
    if (xf && yf) return x.u.v_float == y.u.v_float;
    return xf ? IntEqualsDouble(y.u.v_int, x.u.v_float) : IntEqualsDouble(x.u.v_int, y.u.v_float);
  }
  std::string_view sa, sb;
  if (a.TryStringView(&sa)) return b.TryStringView(&sb) && sa == sb;
  if (x.t != y.t) return false;
  switch (x.t) {
    case TypeIndex::Null: return true;
    case TypeIndex::Pointer: return x.u.v_pointer == y.u.v_pointer;
    case TypeIndex::DataType: return DataType(x.u.v_datatype) == DataType(y.u.v_datatype);
    default: break;
  }
  if (x.u.v_pointer == y.u.v_pointer) return true;  // identity implies equality (as in Python containers)
  switch (x.t) {
    case TypeIndex::RuntimeList:
      return SeqEquals(static_cast<const ListNode*>(x.u.v_pointer)->data,
                       static_cast<const ListNode*>(y.u.v_pointer)->data, depth);
    case TypeIndex::RuntimeTuple:
      return SeqEquals(static_cast<const TupleNode*>(x.u.v_pointer)->data,
                       static_cast<const TupleNode*>(y.u.v_pointer)->data, depth);
    case TypeIndex::RuntimeDict: {
      const HashTable& ta = static_cast<const DictNode*>(x.u.v_pointer)->table;
      const HashTable& tb = static_cast<const DictNode*>(y.u.v_pointer)->table;
      if (ta.size() != tb.size()) return false;
      for (const auto& e : ta.entries()) {
        if (!e.live) continue;
        int64_t j = tb.Find(e.key);
        if (j < 0 || !Equals(e.value, tb.entries()[static_cast<size_t>(j)].value, depth + 1)) return false;
      }
      return true;
    }
    case TypeIndex::RuntimeSet: {
      const HashTable& ta = static_cast<const SetNode*>(x.u.v_pointer)->table;
      const HashTable& tb = static_cast<const SetNode*>(y.u.v_pointer)->table;
      if (ta.size() != tb.size()) return false;
      for (const auto& e : ta.entries()) {
        if (e.live && tb.Find(e.key) < 0) return false;
      }
      return true;
    }
    default:
      return false;  // other objects compare by identity, checked above
  }
}

}  // namespace

int64_t PyHash(const Any& v) { return Hash(v, 0); }
bool PyEquals(const Any& a, const Any& b) { return Equals(a, b, 0); }

}  // namespace spine::runtime
