// SpineRuntimeApi over runtime objects: what the loader installs in every
// generated module (module_abi.h). Readers hand out borrowed views of the
// runtime's own storage, builders create owned runtime objects. Nothing
// here throws across the C boundary.
#include "spine/compiler/module_runtime_api.h"

#include <new>
#include <vector>

#include "spine/compiler/value_format.h"
#include "spine/runtime/dict.h"
#include "spine/runtime/list.h"
#include "spine/runtime/set.h"
#include "spine/runtime/str.h"
#include "spine/runtime/tuple.h"

namespace spine::compiler {
namespace {

static_assert(SPINE_TAG_STR_OBJECT == rt::TypeIndex::RuntimeStr, "module ABI tag mismatch");
static_assert(SPINE_TAG_LIST == rt::TypeIndex::RuntimeList, "module ABI tag mismatch");
static_assert(SPINE_TAG_DICT == rt::TypeIndex::RuntimeDict, "module ABI tag mismatch");
static_assert(SPINE_TAG_SET == rt::TypeIndex::RuntimeSet, "module ABI tag mismatch");
static_assert(SPINE_TAG_TUPLE == rt::TypeIndex::RuntimeTuple, "module ABI tag mismatch");

const std::vector<rt::McValue>& SeqData(const SpineValue* seq) {
  auto* o = static_cast<rt::object_t*>(seq->u.v_pointer);
  return seq->t == SPINE_TAG_TUPLE ? static_cast<rt::TupleNode*>(o)->data : static_cast<rt::ListNode*>(o)->data;
}

int64_t SeqLen(const SpineValue* seq) { return static_cast<int64_t>(SeqData(seq).size()); }

// A borrowed view: the 16 bytes of the element (McValue has Value's layout).
void SeqGet(const SpineValue* seq, int64_t i, SpineValue* out) { *out = SeqData(seq)[static_cast<size_t>(i)].value(); }

int TableNext(const SpineValue* table, int64_t* pos, SpineValue* key, SpineValue* value) {
  auto* o = static_cast<rt::object_t*>(table->u.v_pointer);
  bool is_dict = table->t == SPINE_TAG_DICT;
  const rt::HashTable& t = is_dict ? static_cast<rt::DictNode*>(o)->table : static_cast<rt::SetNode*>(o)->table;
  const auto& entries = t.entries();
  for (auto i = static_cast<size_t>(*pos); i < entries.size(); ++i) {
    if (!entries[i].live) continue;
    *key = entries[i].key.value();
    if (is_dict) *value = entries[i].value.value();
    *pos = static_cast<int64_t>(i + 1);
    return 1;
  }
  return 0;
}

const char* StrData(const SpineValue* str, int64_t* size) {
  const std::string& s = static_cast<rt::StrNode*>(str->u.v_pointer)->data;
  *size = static_cast<int64_t>(s.size());
  return s.data();
}

int NewStr(const char* data, int64_t size, SpineValue* out) {
  try {
    *out = rt::McValue(std::string_view(data, static_cast<size_t>(size))).Release();
    return 0;
  } catch (...) {
    return -1;
  }
}

// Hand a new object to the module with the one count it owns.
void* Give(rt::object_r r) {
  rt::object_t* p = r.get();
  p->IncCounter();
  return p;
}

void* NewList(int64_t reserve) {
  try {
    rt::List l;
    if (reserve > 0) l.reserve(static_cast<size_t>(reserve));
    return Give(l);
  } catch (...) {
    return nullptr;
  }
}

int ListAppend(void* list, SpineValue* item) {
  rt::McValue v = rt::McValue::Adopt(*item);
  try {
    static_cast<rt::ListNode*>(list)->data.push_back(std::move(v));
    return 0;
  } catch (...) {
    return -1;
  }
}

void* NewTuple(SpineValue* items, int64_t n) {
  std::vector<rt::McValue> owned;
  try {
    owned.reserve(static_cast<size_t>(n));
  } catch (...) {
    for (int64_t i = 0; i < n; ++i) rt::McValue::Adopt(items[i]);  // released at once
    return nullptr;
  }
  for (int64_t i = 0; i < n; ++i) owned.push_back(rt::McValue::Adopt(items[i]));
  try {
    return Give(rt::Tuple(std::move(owned)));
  } catch (...) {
    return nullptr;
  }
}

void* NewDict() {
  try {
    return Give(rt::Dict());
  } catch (...) {
    return nullptr;
  }
}

int DictSet(void* dict, SpineValue* key, SpineValue* value) {
  rt::McValue k = rt::McValue::Adopt(*key), v = rt::McValue::Adopt(*value);
  try {
    static_cast<rt::DictNode*>(dict)->table.Insert(std::move(k), std::move(v));
    return 0;
  } catch (...) {
    return -1;
  }
}

void Release(SpineValue* value) { rt::McValue::Adopt(*value); }

int ListReplace(const SpineValue* list, SpineValue* items) {
  rt::McValue source = rt::McValue::Adopt(*items);
  try {
    static_cast<rt::ListNode*>(list->u.v_pointer)->data =
        static_cast<rt::ListNode*>(source.value().u.v_pointer)->data;
    return 0;
  } catch (...) {
    return -1;
  }
}

int DictReplace(const SpineValue* dict, SpineValue* entries) {
  rt::McValue source = rt::McValue::Adopt(*entries);
  try {
    static_cast<rt::DictNode*>(dict->u.v_pointer)->table =
        static_cast<rt::DictNode*>(source.value().u.v_pointer)->table;
    return 0;
  } catch (...) {
    return -1;
  }
}

// Without CPython in the process no order is CPython's: any fixed hash (FNV-1a) will do.
int64_t HashStr(const char* data, int64_t size) {
  uint64_t h = 14695981039346656037ULL;
  for (int64_t i = 0; i < size; ++i) h = (h ^ static_cast<unsigned char>(data[i])) * 1099511628211ULL;
  return h == ~uint64_t(0) ? -2 : static_cast<int64_t>(h);
}

// Runtime sets have their own table: the module reads them member by member (table_next).
int SetShape(const SpineValue*, int64_t*, int64_t*, int64_t*) { return -1; }

int SetSlot(const SpineValue*, int64_t, SpineValue*, int64_t*) { return 0; }

void* NewSet(int64_t, int64_t) {
  try {
    return Give(rt::Set());
  } catch (...) {
    return nullptr;
  }
}

// The runtime set keeps its own order: active keys are inserted, dummies mean nothing to it.
int SetPlace(void* set, int64_t, SpineValue* key, int64_t) {
  if (key->t == SPINE_TYPE_NULL) return 0;
  rt::McValue k = rt::McValue::Adopt(*key);
  try {
    static_cast<rt::SetNode*>(set)->table.Insert(std::move(k), rt::McValue());
    return 0;
  } catch (...) {
    return -1;
  }
}

int SetReplace(const SpineValue* set, SpineValue* members) {
  rt::McValue source = rt::McValue::Adopt(*members);
  try {
    static_cast<rt::SetNode*>(set->u.v_pointer)->table = static_cast<rt::SetNode*>(source.value().u.v_pointer)->table;
    return 0;
  } catch (...) {
    return -1;
  }
}

const SpineRuntimeApi kApi = {&SeqLen,   &SeqGet,      &TableNext,   &StrData,  &NewStr,   &NewList,
                              &ListAppend, &NewTuple,  &NewDict,     &DictSet,  &Release,  &ListReplace,
                              &DictReplace, &HashStr,  &SetShape,    &SetSlot,  &NewSet,   &SetPlace,
                              &SetReplace,
                              nullptr,  // boxed values are CPython objects: none here (RATIONALE.md)
                              &FormatValue};

}  // namespace

const SpineRuntimeApi* ModuleRuntimeApi() { return &kApi; }

}  // namespace spine::compiler
