// Str constants of a module keep one Python object (constants.h).
#include "constants.h"

#include <dlfcn.h>
#include <link.h>

#include <cstring>

namespace spine::compiler::py {

namespace {

thread_local const ModuleImage* g_current = nullptr;

// (address, size) -> str, for every module ever called. An entry whose
// module was unloaded and whose addresses now hold other bytes is replaced
// on its next use (the bytes are compared on every hit), so a result is
// always built from the bytes native code returned.
PyObject* g_constants = nullptr;

struct Search {
  uintptr_t base;
  ModuleImage* image;
};

int Collect(struct dl_phdr_info* info, size_t, void* data) {
  auto* s = static_cast<Search*>(data);
  if (info->dlpi_addr != s->base) return 0;
  for (int i = 0; i < info->dlpi_phnum && s->image->n < ModuleImage::kMaxRanges; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_W)) continue;  // writable data is never a constant
    s->image->lo[s->image->n] = info->dlpi_addr + ph.p_vaddr;
    s->image->hi[s->image->n] = info->dlpi_addr + ph.p_vaddr + ph.p_memsz;
    ++s->image->n;
  }
  return 1;
}

// CPython interns string constants made only of ASCII letters, digits and '_'.
bool AllNameChars(const char* p, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    char c = p[i];
    if (!(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  }
  return true;
}

}  // namespace

ModuleImage ModuleImage::Of(const void* code) {
  ModuleImage image;
  Dl_info info;
  if (dladdr(code, &info) == 0 || info.dli_fbase == nullptr) return image;
  Search s{reinterpret_cast<uintptr_t>(info.dli_fbase), &image};
  dl_iterate_phdr(Collect, &s);
  return image;
}

bool ModuleImage::Holds(const char* p, int64_t size) const {
  auto a = reinterpret_cast<uintptr_t>(p);
  for (int i = 0; i < n; ++i) {
    if (a >= lo[i] && a + static_cast<uintptr_t>(size) <= hi[i]) return true;
  }
  return false;
}

ConstantScope::ConstantScope(const ModuleImage* image) : saved_(g_current) { g_current = image; }
ConstantScope::~ConstantScope() { g_current = saved_; }

PyObject* ConstantStr(const char* data, int64_t size) {
  if (g_current == nullptr || !g_current->Holds(data, size)) return nullptr;
  if (g_constants == nullptr && (g_constants = PyDict_New()) == nullptr) return nullptr;
  PyObject* key = Py_BuildValue("(KL)", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(data)),
                                static_cast<long long>(size));
  if (key == nullptr) return nullptr;
  PyObject* s = PyDict_GetItemWithError(g_constants, key);  // borrowed
  if (s != nullptr) {
    Py_ssize_t n;
    const char* bytes = PyUnicode_AsUTF8AndSize(s, &n);
    if (bytes != nullptr && n == size && std::memcmp(bytes, data, static_cast<size_t>(size)) == 0) {
      Py_DECREF(key);
      Py_INCREF(s);
      return s;
    }
    PyErr_Clear();
  } else if (PyErr_Occurred()) {
    Py_DECREF(key);
    return nullptr;
  }
  s = PyUnicode_DecodeUTF8(data, static_cast<Py_ssize_t>(size), "strict");
  if (s != nullptr && AllNameChars(data, size)) PyUnicode_InternInPlace(&s);
  if (s == nullptr || PyDict_SetItem(g_constants, key, s) != 0) Py_CLEAR(s);
  Py_DECREF(key);
  return s;
}

}  // namespace spine::compiler::py
