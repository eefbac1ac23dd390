// Module loader: dlopen, registry decoding, Callable wrapping.
#include "spine/compiler/module_loader.h"

#include <dlfcn.h>

#include <cstring>

#include "spine/compiler/module_runtime_api.h"
#include "spine/runtime/error.h"
#include "spine/runtime/registry.h"
#include "spine/runtime/stack_buffer.h"

namespace spine::compiler {

namespace {

// The callback generated modules report faults through. Faults become the
// runtime's error kinds; those the runtime has no kind for carry the Python
// exception name in front of the message (see RATIONALE.md).
void ModuleSetError(int32_t kind, const char* message) {
  const char* msg = message ? message : "";
  switch (kind) {
    case SPINE_FAULT_FALLBACK:
      rt::SetLastError(rt::ErrorKind::kOverflowError, (std::string("native fallback: ") + msg).c_str());
      break;
    case SPINE_FAULT_ZERODIV:
      rt::SetLastError(rt::ErrorKind::kRuntimeError, (std::string("ZeroDivisionError: ") + msg).c_str());
      break;
    case SPINE_FAULT_RUNTIME:
      rt::SetLastError(rt::ErrorKind::kRuntimeError, (std::string("RuntimeError: ") + msg).c_str());
      break;
    case SPINE_FAULT_VALUE: rt::SetLastError(rt::ErrorKind::kValueError, msg); break;
    case SPINE_FAULT_TYPE: rt::SetLastError(rt::ErrorKind::kTypeError, msg); break;
    case SPINE_FAULT_INDEX: rt::SetLastError(rt::ErrorKind::kIndexError, msg); break;
    case SPINE_FAULT_KEY: rt::SetLastError(rt::ErrorKind::kKeyError, msg); break;
    // Only the Python binding runs boxed operations; it raises the interpreter's exception itself.
    case SPINE_FAULT_PYTHON: rt::SetLastError(rt::ErrorKind::kRuntimeError, "a Python exception"); break;
    // The program's own class, by name: guest/native/loader.py finds it in the function's globals.
    case SPINE_FAULT_CLASS:
      rt::SetLastError(rt::ErrorKind::kRuntimeError, (std::string("program exception ") + msg).c_str());
      break;
    // A class called with a literal argument tuple: guest/native/loader.py calls it again.
    case SPINE_FAULT_CALLED:
      rt::SetLastError(rt::ErrorKind::kRuntimeError, (std::string("exception called ") + msg).c_str());
      break;
    default: rt::SetLastError(rt::ErrorKind::kRuntimeError, msg); break;
  }
}

void* Symbol(void* handle, const char* name, const std::string& path) {
  dlerror();
  void* p = dlsym(handle, name);
  if (p == nullptr) rt::ThrowRuntimeError("module '" + path + "' does not export " + name);
  return p;
}

// Environment of one module function: the entry point, a count on the
// module (so dlclose cannot run while the function exists) and its signature.
struct FunctionEnv {
  SpineBackendFunc fn;
  Module module;
  std::string name;
  rt::ParamDesc params[1];
  rt::FunctionSig sig;
};

bool FunctionEntry(void* env_p, const rt::CallFrame* frame, rt::CallResult* result) {
  auto* env = static_cast<FunctionEnv*>(env_p);
  rt::Parameters args = rt::FrameVarargs(*frame, &env->sig);
  // Arguments are borrowed: the Value array views the caller's values.
  rt::StackBuffer<SpineValue, 8> values(args.size());
  SpineValue* vals = values.data();
  for (size_t i = 0; i < args.size(); ++i) vals[i] = args[i].value();
  SpineValue ret;
  std::memset(&ret, 0, sizeof(ret));
  ret.t = SPINE_TYPE_NULL;
  rt::ClearLastError();
  if (env->fn(vals, static_cast<int>(args.size()), &ret, nullptr) != 0) {
    if (rt::LastErrorKind() == rt::ErrorKind::kNone) rt::SetLastError(rt::ErrorKind::kRuntimeError, "module function failed");
    return false;
  }
  // The module hands over an owned value (immediate, owned string or a
  // runtime object holding one count), which is exactly what Adopt takes.
  return result->PushTake(rt::McValue::Adopt(ret));
}

}  // namespace

std::vector<std::string> DecodeRegistryNames(const char* names) {
  if (names == nullptr) rt::ThrowRuntimeError("module registry has no name table");
  size_t count = static_cast<unsigned char>(names[0]);
  std::vector<std::string> out;
  const char* p = names + 1;
  for (size_t i = 0; i < count; ++i) {
    size_t len = std::strlen(p);
    if (len == 0) rt::ThrowRuntimeError("module registry: empty function name");
    out.emplace_back(p, len);
    p += len + 1;
  }
  return out;
}

LibraryModuleNode::~LibraryModuleNode() {
  if (handle) dlclose(handle);
}

Module Module::Load(const std::string& path) {
  // RTLD_NOW: missing symbols fail here, not at a first call. RTLD_LOCAL: two
  // modules may define the same names without interposing on each other.
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* e = dlerror();
    rt::ThrowRuntimeError("cannot load module '" + path + "': " + (e ? e : "unknown error"));
  }
  auto node = rt::MakeObject<LibraryModuleNode>();
  node->path = path;
  node->handle = h;  // from here on the node closes it, also when a check below throws
  auto* ctx = static_cast<SpineModuleCtx*>(Symbol(h, "__mc_module_ctx", path));
  if (ctx->abi_version != SPINE_MODULE_ABI_VERSION) {
    rt::ThrowRuntimeError("module '" + path + "' was generated for ABI " + std::to_string(ctx->abi_version) +
                          ", this runtime speaks " + std::to_string(SPINE_MODULE_ABI_VERSION));
  }
  auto* reg = static_cast<SpineFuncRegistry*>(Symbol(h, "__mc_func_registry__", path));
  auto* closures = static_cast<const char*>(Symbol(h, "__mc_closures_names__", path));
  if (!DecodeRegistryNames(closures).empty()) {
    rt::ThrowRuntimeError("module '" + path + "' declares closures, which this loader does not support");
  }
  node->names = DecodeRegistryNames(reg->names);
  if (reg->funcs == nullptr && !node->names.empty()) rt::ThrowRuntimeError("module registry has no function array");
  for (size_t i = 0; i < node->names.size(); ++i) {
    if (reg->funcs[i] == nullptr) rt::ThrowRuntimeError("module function '" + node->names[i] + "' is null");
    node->funcs.push_back(reg->funcs[i]);
  }
  ctx->set_error = &ModuleSetError;
  ctx->api = ModuleRuntimeApi();
  return Module(rt::object_p<rt::object_t>(node));
}

const std::vector<std::string>& Module::FunctionNames() const {
  return static_cast<const LibraryModuleNode*>(get())->names;
}

rt::Callable Module::GetFunction(const std::string& name) const {
  const auto* n = static_cast<const LibraryModuleNode*>(get());
  for (size_t i = 0; i < n->names.size(); ++i) {
    if (n->names[i] != name) continue;
    auto* env = new FunctionEnv{n->funcs[i], *this, name, {}, {}};
    // One varargs parameter: the module wrapper checks count and exact types itself.
    env->params[0] = rt::ParamDesc{"args", rt::TypeIndex::Any, rt::kParamVarargs};
    env->sig.name = env->name;
    env->sig.param_count = 1;
    env->sig.params = env->params;
    env->sig.return_count = 1;
    return rt::Callable::Create(&env->sig, &FunctionEntry, env, [](void* p) { delete static_cast<FunctionEnv*>(p); });
  }
  rt::ThrowKeyError("module '" + n->path + "' has no function '" + name + "'");
}

namespace {
REGISTER_GLOBAL("runtime.ModuleLoader").Params({rt::Arg("path")}).SetBody([](std::string path) {
  return Module::Load(path);
});
REGISTER_GLOBAL("runtime.ModuleGetFunction").Params({rt::Arg("module"), rt::Arg("name")}).SetBody(
    [](Module m, std::string name) { return m.GetFunction(name); });
REGISTER_GLOBAL("runtime.ModuleFunctionNames").Params({rt::Arg("module")}).SetBody([](Module m) {
  rt::List out;
  for (const std::string& s : m.FunctionNames()) out.append(rt::McValue(s));
  return out;
});
}  // namespace

}  // namespace spine::compiler
