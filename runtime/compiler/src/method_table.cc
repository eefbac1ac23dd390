// The method table (method_table.h). Parameter and result types are written
// relative to the receiver: E element (list/set), K key, V value (dict),
// T the receiver's own type, S str, I int, B bool, LS list[str], LE
// list[E], VS tuple[str, ...], T3S tuple[str, str, str], N None.
#include "spine/compiler/method_table.h"

#include <algorithm>

#include "spine/runtime/error.h"

namespace spine::compiler {
namespace {

struct Spec {
  const char* kind;
  const char* name;
  const char* params;  // space-separated codes
  const char* result;
  const char* function;
  bool mutates;
};

const Spec kMethods[] = {
    {"str", "upper", "", "S", "str_upper", false},
    {"str", "lower", "", "S", "str_lower", false},
    {"str", "strip", "", "S", "str_strip", false},
    {"str", "strip", "S", "S", "str_strip_chars", false},
    {"str", "lstrip", "", "S", "str_lstrip", false},
    {"str", "lstrip", "S", "S", "str_lstrip_chars", false},
    {"str", "rstrip", "", "S", "str_rstrip", false},
    {"str", "rstrip", "S", "S", "str_rstrip_chars", false},
    {"str", "split", "", "LS", "str_split_ws", false},
    {"str", "split", "S", "LS", "str_split", false},
    {"str", "join", "LS", "S", "str_join", false},
    {"str", "startswith", "S", "B", "str_startswith", false},
    {"str", "endswith", "S", "B", "str_endswith", false},
    {"str", "find", "S", "I", "str_find", false},
    {"str", "index", "S", "I", "str_index", false},
    {"str", "count", "S", "I", "str_count", false},
    {"str", "replace", "S S", "S", "str_replace", false},
    {"str", "isdigit", "", "B", "str_isdigit", false},
    {"str", "isalpha", "", "B", "str_isalpha", false},
    {"str", "isalnum", "", "B", "str_isalnum", false},
    {"str", "isspace", "", "B", "str_isspace", false},
    {"str", "isupper", "", "B", "str_isupper", false},
    {"str", "islower", "", "B", "str_islower", false},
    // Range, tuple and maxsplit forms, padding and case (codegen/strsearch.h, strsplit.h, strpad.h).
    // `s.split(None, n)` and `s.split(maxsplit=n)` reach split with the one int (guest/native/calls.py).
    {"str", "count", "S I", "I", "str_count_range", false},
    {"str", "count", "S I I", "I", "str_count_range", false},
    {"str", "find", "S I", "I", "str_find_range", false},
    {"str", "find", "S I I", "I", "str_find_range", false},
    {"str", "index", "S I", "I", "str_index_range", false},
    {"str", "index", "S I I", "I", "str_index_range", false},
    {"str", "rfind", "S", "I", "str_rfind", false},
    {"str", "rfind", "S I", "I", "str_rfind", false},
    {"str", "rfind", "S I I", "I", "str_rfind", false},
    {"str", "rindex", "S", "I", "str_rindex", false},
    {"str", "rindex", "S I", "I", "str_rindex", false},
    {"str", "rindex", "S I I", "I", "str_rindex", false},
    {"str", "startswith", "S I", "B", "str_startswith_range", false},
    {"str", "startswith", "S I I", "B", "str_startswith_range", false},
    {"str", "startswith", "VS", "B", "str_startswith_any", false},
    {"str", "startswith", "VS I", "B", "str_startswith_any", false},
    {"str", "startswith", "VS I I", "B", "str_startswith_any", false},
    {"str", "endswith", "S I", "B", "str_endswith_range", false},
    {"str", "endswith", "S I I", "B", "str_endswith_range", false},
    {"str", "endswith", "VS", "B", "str_endswith_any", false},
    {"str", "endswith", "VS I", "B", "str_endswith_any", false},
    {"str", "endswith", "VS I I", "B", "str_endswith_any", false},
    {"str", "removeprefix", "S", "S", "str_removeprefix", false},
    {"str", "removesuffix", "S", "S", "str_removesuffix", false},
    {"str", "split", "S I", "LS", "str_split_max", false},
    {"str", "split", "I", "LS", "str_split_ws_max", false},
    {"str", "rsplit", "", "LS", "str_rsplit_ws", false},
    {"str", "rsplit", "I", "LS", "str_rsplit_ws", false},
    {"str", "rsplit", "S", "LS", "str_rsplit", false},
    {"str", "rsplit", "S I", "LS", "str_rsplit", false},
    {"str", "splitlines", "", "LS", "str_splitlines", false},
    {"str", "splitlines", "B", "LS", "str_splitlines", false},
    {"str", "replace", "S S I", "S", "str_replace", false},
    {"str", "partition", "S", "T3S", "str_partition", false},
    {"str", "rpartition", "S", "T3S", "str_rpartition", false},
    {"str", "zfill", "I", "S", "str_zfill", false},
    {"str", "ljust", "I", "S", "str_ljust", false},
    {"str", "ljust", "I S", "S", "str_ljust", false},
    {"str", "rjust", "I", "S", "str_rjust", false},
    {"str", "rjust", "I S", "S", "str_rjust", false},
    {"str", "center", "I", "S", "str_center", false},
    {"str", "center", "I S", "S", "str_center", false},
    {"str", "expandtabs", "", "S", "str_expandtabs", false},
    {"str", "expandtabs", "I", "S", "str_expandtabs", false},
    {"str", "swapcase", "", "S", "str_swapcase", false},
    {"str", "title", "", "S", "str_title", false},
    {"str", "capitalize", "", "S", "str_capitalize", false},
    {"str", "isdecimal", "", "B", "str_isdecimal", false},
    {"str", "isnumeric", "", "B", "str_isnumeric", false},
    {"list", "append", "E", "N", "list_append", true},
    {"list", "pop", "", "E", "list_pop", true},
    {"list", "pop", "I", "E", "list_pop_at", true},
    {"list", "insert", "I E", "N", "list_insert", true},
    {"list", "extend", "T", "N", "list_extend", true},
    {"list", "index", "E", "I", "list_index", false},
    {"list", "count", "E", "I", "list_count", false},
    {"list", "remove", "E", "N", "list_remove", true},
    {"list", "clear", "", "N", "list_clear", true},
    {"list", "reverse", "", "N", "list_reverse", true},
    {"list", "copy", "", "T", "list_copy", false},
    {"list", "sort", "B", "N", "list_sort", true},
    // heapq's and bisect's functions of a list (codegen/heapq.h): their dotted names are no
    // attribute Python code could spell, so only `heapq.heappush(h, x)` reaches them.
    {"list", "heapq.heappush", "E", "N", "heap_push", true},
    {"list", "heapq.heappop", "", "E", "heap_pop", true},
    {"list", "heapq.heapify", "", "N", "heap_heapify", true},
    {"list", "heapq.heappushpop", "E", "E", "heap_pushpop", true},
    {"list", "heapq.heapreplace", "E", "E", "heap_replace", true},
    {"list", "bisect.bisect_left", "E", "I", "bisect_left", false},
    {"list", "bisect.bisect_right", "E", "I", "bisect_right", false},
    {"list", "bisect.insort_left", "E", "N", "insort_left", true},
    {"list", "bisect.insort_right", "E", "N", "insort_right", true},
    {"dict", "get", "K V", "V", "dict_get", false},
    {"dict", "pop", "K", "V", "dict_pop", true},
    {"dict", "pop", "K V", "V", "dict_pop_default", true},
    {"dict", "setdefault", "K V", "V", "dict_setdefault", true},
    {"dict", "clear", "", "N", "dict_clear", true},
    {"dict", "copy", "", "T", "dict_copy", false},
    {"dict", "update", "T", "N", "dict_update", true},
    {"set", "add", "E", "N", "set_add", true},
    {"set", "discard", "E", "N", "set_discard", false},
    {"set", "remove", "E", "N", "set_remove", true},
    {"set", "clear", "", "N", "set_clear", true},
    {"set", "copy", "", "T", "set_copy", false},
    {"set", "update", "LE", "N", "set_update_list", true},
    {"set", "update", "T", "N", "set_update_set", true},
    {"set", "pop", "", "E", "set_pop", true},
    {"set", "union", "T", "T", "set_union", false},
    {"set", "intersection", "T", "T", "set_intersection", false},
    {"set", "difference", "T", "T", "set_difference", false},
    {"set", "symmetric_difference", "T", "T", "set_symmetric_difference", false},
    {"set", "intersection_update", "T", "N", "set_intersection_update", true},
    {"set", "difference_update", "T", "N", "set_difference_update", true},
    {"set", "symmetric_difference_update", "T", "N", "set_symmetric_difference_update", true},
};

const char* KindOf(const Type& t) {
  if (t.As<StringTypeNode>()) return "str";
  if (t.As<ListTypeNode>()) return "list";
  if (t.As<DictTypeNode>()) return "dict";
  if (t.As<SetTypeNode>()) return "set";
  return nullptr;
}

// The type a code stands for, given the receiver.
Type Resolve(const std::string& code, const Type& self) {
  Type elem, key, value;
  if (const auto* l = self.As<ListTypeNode>()) elem = l->item_type;
  if (const auto* s = self.As<SetTypeNode>()) elem = s->item_type;
  if (const auto* d = self.As<DictTypeNode>()) key = d->key_type, value = d->value_type;
  if (code == "E") return elem;
  if (code == "K") return key;
  if (code == "V") return value;
  if (code == "T") return self;
  if (code == "S") return StringType::Make();
  if (code == "I") return ScalarType(rt::DataType::Int(64));
  if (code == "B") return ScalarType(rt::DataType::Bool());
  if (code == "LS") return ListType::Make(StringType::Make());
  if (code == "LE") return ListType::Make(elem);
  if (code == "VS") return ListType::Make(StringType::Make(), true);
  if (code == "T3S") return TupleType::Make({StringType::Make(), StringType::Make(), StringType::Make()});
  return NoneType::Make();
}

std::vector<std::string> Codes(const char* params) {
  std::vector<std::string> out;
  std::string cur;
  for (const char* p = params;; ++p) {
    if (*p == ' ' || *p == '\0') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      if (*p == '\0') break;
    } else {
      cur += *p;
    }
  }
  return out;
}

// Methods whose meaning depends on comparing elements: CPython compares by identity first.
void CheckElementCompare(const Type& self, const std::string& method) {
  const auto* l = self.As<ListTypeNode>();
  if (!l) return;
  if ((method == "index" || method == "count" || method == "remove") && ContainsFloat(l->item_type)) {
    rt::ThrowTypeError("list." + method + " on " + TypeText(self) + ": CPython compares float elements by identity first");
  }
  // Ordering methods (sort, heapq's and bisect's): ordered elements, no float inside a container.
  if (method == "sort" || method.rfind("heapq.", 0) == 0 || method.rfind("bisect.", 0) == 0) {
    std::string what = "list." + method + " on " + TypeText(self);
    if (!IsOrderedType(l->item_type)) rt::ThrowTypeError(what + ": elements are not ordered");
    if (!IsScalarType(l->item_type) && ContainsFloat(l->item_type)) {
      rt::ThrowTypeError(what + ": CPython compares float elements by identity first");
    }
  }
}

}  // namespace

MethodInfo LookupMethod(const Type& object, const std::string& method, const rt::Array<PrimExpr>& args) {
  const char* kind = KindOf(object);
  if (kind == nullptr) rt::ThrowTypeError(TypeText(object) + " has no methods natively");
  // A tuple[T, ...] is a list nobody changes: of the list's methods, only count() is also a tuple's
  // (tuple.index's ValueError message is not list.index's).
  if (IsVarTupleType(object) && method != "count") {
    rt::ThrowTypeError("'tuple." + method + "' is not supported natively");
  }
  bool known = false;
  for (const Spec& s : kMethods) {
    if (std::string(s.kind) != kind || method != s.name) continue;
    known = true;
    std::vector<std::string> codes = Codes(s.params);
    if (codes.size() != args.size()) continue;
    bool ok = true;
    for (size_t i = 0; i < codes.size() && ok; ++i) {
      const PrimExpr& a = args[static_cast<int64_t>(i)];
      ok = a.defined() && TypeEqual(a.type(), Resolve(codes[i], object));
    }
    if (!ok) continue;
    CheckElementCompare(object, method);
    return MethodInfo{s.function, Resolve(s.result, object), s.mutates};
  }
  if (!known) rt::ThrowTypeError("'" + std::string(kind) + "." + method + "' is not supported natively");
  std::string got;
  for (size_t i = 0; i < args.size(); ++i) {
    const PrimExpr& a = args[static_cast<int64_t>(i)];
    got += (i ? ", " : "") + (a.defined() ? TypeText(a.type()) : std::string("?"));
  }
  rt::ThrowTypeError(std::string(kind) + "." + method + "() does not take (" + got + ") on " + TypeText(object));
}

std::vector<std::string> MethodNames(const std::string& kind) {
  std::vector<std::string> out;
  for (const Spec& s : kMethods) {
    if (kind == s.kind && std::find(out.begin(), out.end(), s.name) == out.end()) out.push_back(s.name);
  }
  return out;
}

}  // namespace spine::compiler
