// What native calls print, written when they return (printed_output.h).
#include "printed_output.h"

#include "spine/compiler/module_abi.h"

namespace spine::compiler::py {

namespace {

thread_local PrintedOutput* g_output = nullptr;  // the native call in progress on this thread

}  // namespace

PrintedOutput::PrintedOutput() : outer(g_output) { g_output = this; }

PrintedOutput::~PrintedOutput() { g_output = outer; }

int PrintedOutput::Write() {
  if (!printed) return 0;
  printed = false;
  std::string out;
  out.swap(text);
  PyObject* file = PySys_GetObject("stdout");  // borrowed
  if (file == nullptr) {
    PyErr_SetString(PyExc_RuntimeError, "lost sys.stdout");
    return -1;
  }
  if (file == Py_None) return 0;
  Py_INCREF(file);  // the write may replace sys.stdout
  PyObject* s = PyUnicode_DecodeUTF8(out.data(), static_cast<Py_ssize_t>(out.size()), "surrogatepass");
  int rc = s == nullptr ? -1 : PyFile_WriteObject(s, file, Py_PRINT_RAW);
  Py_XDECREF(s);
  Py_DECREF(file);
  return rc;
}

int KeepPrinted(const char* data, int64_t size) {
  PrintedOutput* call = g_output;
  if (call == nullptr) {
    PyErr_SetString(PyExc_SystemError, "print() outside a native call");
    return -1;
  }
  if (size < 0 || call->text.size() + static_cast<uint64_t>(size) > SPINE_PRINT_BOUND) return 1;
  call->text.append(data, static_cast<size_t>(size));
  call->printed = true;
  return 0;
}

}  // namespace spine::compiler::py
