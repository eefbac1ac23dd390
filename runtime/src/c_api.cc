// The C boundary. Every function body runs inside SPINE_API_BEGIN/END, which
// turns any C++ exception into the thread-local last error and -1.
#include "spine/runtime/c_api.h"

#include <string_view>
#include <vector>

#include "spine/runtime/registry.h"
#include "spine/runtime/stack_buffer.h"
#include "spine/runtime/tuple.h"

using namespace spine::runtime;  // NOLINT(build/namespaces)

#define SPINE_API_BEGIN try {
#define SPINE_API_END                \
  }                                  \
  catch (...) {                      \
    SetLastErrorFromCurrentException(); \
    return -1;                       \
  }                                  \
  return 0;

namespace {
// Same 16-byte layout; the C array is viewed in place, never copied.
static_assert(sizeof(Any) == sizeof(SpineValue) && alignof(Any) == alignof(SpineValue), "layout");
constexpr size_t kStackKeywords = 8;
}  // namespace

extern "C" {

int SpineGetGlobal(const char* name, SpineFunctionHandle* out) {
  SPINE_API_BEGIN
  if (name == nullptr || out == nullptr) return Fail(ErrorKind::kValueError, "SpineGetGlobal: null argument"), -1;
  Callable fn = FunctionRegistry::Get(name);
  if (!fn.defined()) ThrowKeyError(std::string("global function '") + name + "' is not registered");
  object_t* o = fn.get();
  o->IncCounter();  // the handle is one owner
  *out = o;
  SPINE_API_END
}

int SpineFuncFree(SpineFunctionHandle handle) {
  if (handle) static_cast<object_t*>(handle)->DecCounter();
  return 0;
}

int SpineFuncCall(SpineFunctionHandle handle, const SpineValue* args, int num_args, const SpineStrView* kw_names,
                  const SpineValue* kw_values, int num_kwargs, SpineValue* ret) {
  SPINE_API_BEGIN
  if (handle == nullptr || ret == nullptr || num_args < 0 || num_kwargs < 0) {
    return Fail(ErrorKind::kValueError, "SpineFuncCall: bad arguments"), -1;
  }
  object_t* o = static_cast<object_t*>(handle);
  if (!o->IsType<CallableNode>()) return Fail(ErrorKind::kTypeError, "SpineFuncCall: handle is not a function"), -1;
  if (num_kwargs > 0 && (kw_names == nullptr || kw_values == nullptr)) {
    return Fail(ErrorKind::kValueError, "SpineFuncCall: keyword arrays are null"), -1;
  }
  // Keyword names: a stack array for the common case, heap only beyond it.
  StackBuffer<std::string_view, kStackKeywords> name_buf(static_cast<size_t>(num_kwargs));
  std::string_view* names = name_buf.data();
  for (int i = 0; i < num_kwargs; ++i) {
    names[i] = kw_names[i].data ? std::string_view(kw_names[i].data, kw_names[i].size) : std::string_view();
  }
  CallFrame frame;
  frame.arg_count = static_cast<size_t>(num_args);
  frame.args = reinterpret_cast<const Any*>(args);
  frame.kw_count = static_cast<size_t>(num_kwargs);
  frame.kw_names = names;
  frame.kw_values = reinterpret_cast<const Any*>(kw_values);
  CallResult result;
  if (!Callable::InvokeNode(static_cast<const CallableNode*>(o), frame, &result)) return -1;
  if (result.size() <= 1) {
    *ret = result.Take(0).Release();
  } else {
    std::vector<McValue> items;
    items.reserve(result.size());
    for (size_t i = 0; i < result.size(); ++i) items.push_back(result.Take(i));
    *ret = McValue(Tuple(std::move(items))).Release();
  }
  SPINE_API_END
}

int SpineObjectRetain(SpineObjectHandle obj) {
  if (obj) static_cast<object_t*>(obj)->IncCounter();
  return 0;
}

int SpineObjectRelease(SpineObjectHandle obj) {
  if (obj) static_cast<object_t*>(obj)->DecCounter();
  return 0;
}

int SpineValueFree(SpineValue* value) {
  if (value == nullptr) return 0;
  McValue::Adopt(*value).Clean();
  *value = McValue().Release();
  return 0;
}

int SpineTypeIndexOf(const char* name, int32_t* out) {
  SPINE_API_BEGIN
  if (name == nullptr || out == nullptr) return Fail(ErrorKind::kValueError, "SpineTypeIndexOf: null argument"), -1;
  int32_t i = TypeContext::Global().IndexOf(name);
  if (i < 0) ThrowKeyError(std::string("runtime type '") + name + "' is not registered");
  *out = i;
  SPINE_API_END
}

const char* SpineGetLastError(void) { return LastErrorMessage(); }

int SpineGetLastErrorKind(void) { return static_cast<int>(LastErrorKind()); }

}  // extern "C"
