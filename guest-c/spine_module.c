/*
 * The `_spine` module: call / prepare / resolve, and the Interrupt exception.
 *
 * Written in the modern style (multi-phase init, module state) so the module
 * object owns its exception type. The host callback and the running token are
 * process-wide because CPython 3.11 has one interpreter per process here and
 * the runtime owns it; they are not Go pointers, only a function address and
 * an integer.
 */
#include "spine_module.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  PyObject *interrupt_type; /* _spine.Interrupt, a BaseException subclass */
} spine_state;

static spine_host_fn g_host;
static uintptr_t g_token;
/* The running token and the interrupt reason packed in one word, so an
 * interrupt aimed at a finished execution can never hit the next one:
 * spine_interrupt() succeeds only by compare-and-swap on (token, 0). */
static _Atomic uint64_t g_run_state;
/* A strong reference held while the module lives: the pending-call hook has
 * no module argument, and there is one module per process. */
static PyObject *g_interrupt_type;
/* Set while a bootstrap entry (prefix analysis) runs rather than a program:
 * no frame of it is the program's, and all of it may be stopped, so an
 * interrupt is raised wherever it lands. Interpreter thread only. */
static int g_in_entry;
/* Set while the event loop of a program with top-level `await` runs it
 * (`_spine.program_loop`): its coroutines are suspended while the loop
 * waits, so no frame of the program is on the stack, yet the program runs. */
static int g_program_loop;

/* The response buffer: reused, so a tool call allocates nothing on the C
 * side unless a response outgrows it. One per thread: a program's threads
 * may cross at once (with the GIL released), and each answer lands in its
 * own thread's buffer. The transport shares what it must (the sandbox
 * child's one channel carries crossings of several threads at once, each
 * answer finding its thread: sandbox/crossings.c). */
static __thread char *g_buf;
static __thread size_t g_cap;

#define SPINE_REASON_BITS 3
#define SPINE_INITIAL_BUFFER (64 * 1024)

void spine_module_set_host(spine_host_fn host) { g_host = host; }

void spine_module_begin(uintptr_t token) {
  g_token = token;
  g_in_entry = 0;
  g_program_loop = 0;
  atomic_store(&g_run_state, (uint64_t)token << SPINE_REASON_BITS);
}

void spine_module_begin_entry(uintptr_t token) {
  spine_module_begin(token);
  g_in_entry = 1;
}

int spine_module_end(void) {
  uint64_t state = atomic_exchange(&g_run_state, 0);
  g_token = 0;
  g_in_entry = 0;
  g_program_loop = 0;
  return (int)(state & ((1u << SPINE_REASON_BITS) - 1));
}

static int current_reason(void) {
  uint64_t state = atomic_load(&g_run_state);
  if ((state >> SPINE_REASON_BITS) != (uint64_t)g_token) {
    return 0;
  }
  return (int)(state & ((1u << SPINE_REASON_BITS) - 1));
}

/* True when any frame on the stack runs the program's code (compiled as
 * "<spine>"), or the program's event loop runs. The interrupt is raised only
 * then: once the program is done, bootstrap must be free to encode the error. */
static int in_user_code(void) {
  if (g_program_loop) {
    return 1;
  }
  PyFrameObject *frame = PyEval_GetFrame(); /* borrowed */
  Py_XINCREF(frame);
  int found = 0;
  while (frame != NULL && !found) {
    PyCodeObject *code = PyFrame_GetCode(frame);
    found = PyUnicode_CompareWithASCIIString(code->co_filename, "<spine>") == 0;
    Py_DECREF(code);
    PyFrameObject *back = PyFrame_GetBack(frame);
    Py_DECREF(frame);
    frame = back;
  }
  Py_XDECREF(frame);
  return found;
}

static const char *reason_text(int reason) {
  switch (reason) {
  case SPINE_INTERRUPT_TIMEOUT:
    return "execution exceeded its deadline";
  case SPINE_INTERRUPT_CANCEL:
    return "execution was cancelled";
  case SPINE_INTERRUPT_LIMIT:
    return "execution exceeded a limit";
  default:
    return "execution was interrupted";
  }
}

/* Pending-call hook, run on the interpreter thread between bytecodes. It
 * stays armed until the execution ends, so a program that catches the
 * Interrupt meets it again at its next bytecode boundary, and an interrupt
 * that lands while bootstrap (not the program) runs is not lost: it waits for
 * the program's frames. Outside them it never raises, so bootstrap can always
 * encode the error; during an entry it raises anywhere (see g_in_entry). */
static int interrupt_hook(void *arg) {
  uintptr_t token = (uintptr_t)arg;
  if (token != g_token) {
    return 0;
  }
  int reason = current_reason();
  if (reason == 0) {
    return 0;
  }
  Py_AddPendingCall(interrupt_hook, arg);
  if (!g_in_entry && !in_user_code()) {
    return 0;
  }
  PyErr_SetString(g_interrupt_type, reason_text(reason));
  return -1;
}

int spine_module_interrupt(uintptr_t token, int reason) {
  if (token == 0 || reason <= 0 || reason >= (1 << SPINE_REASON_BITS)) {
    return -1;
  }
  uint64_t expected = (uint64_t)token << SPINE_REASON_BITS;
  if (!atomic_compare_exchange_strong(&g_run_state, &expected,
                                      expected | (uint64_t)reason)) {
    return -1;
  }
  /* Py_AddPendingCall needs neither the GIL nor a thread state; from this
   * thread it does not wake the eval loop, so wake it explicitly. */
  if (Py_AddPendingCall(interrupt_hook, (void *)token) != 0) {
    return -1;
  }
  spine_wake_eval_loop();
  return 0;
}

/* Accept str (UTF-8, no copy: CPython caches the encoding) or bytes. */
static int request_bytes(PyObject *obj, const char **data, Py_ssize_t *len) {
  if (PyUnicode_Check(obj)) {
    *data = PyUnicode_AsUTF8AndSize(obj, len);
    return *data == NULL ? -1 : 0;
  }
  if (PyBytes_Check(obj)) {
    *data = PyBytes_AS_STRING(obj);
    *len = PyBytes_GET_SIZE(obj);
    return 0;
  }
  PyErr_Format(PyExc_TypeError, "request must be str or bytes, not %.100s",
               Py_TYPE(obj)->tp_name);
  return -1;
}

/* Grow the buffer to `need`; no Python error (the GIL may be released). */
static int ensure_buffer(size_t need) {
  if (need <= g_cap && g_buf != NULL) {
    return 0;
  }
  size_t cap = g_cap ? g_cap : SPINE_INITIAL_BUFFER;
  while (cap < need) {
    cap *= 2;
  }
  char *buf = realloc(g_buf, cap);
  if (buf == NULL) {
    return -1;
  }
  g_buf = buf;
  g_cap = cap;
  return 0;
}

#define CROSS_NO_MEMORY (-2)

/* One crossing, called with the GIL released: the host may block (a tool, a
 * resolve waiting for a worker) and must not hold the interpreter while it
 * does. The answer is in this thread's g_buf. */
static int64_t cross(uintptr_t token, int op, uint64_t handle, const char *req, Py_ssize_t len) {
  if (ensure_buffer(SPINE_INITIAL_BUFFER) < 0) {
    return CROSS_NO_MEMORY;
  }
  int64_t n = g_host(token, op, handle, req, (size_t)len, g_buf, g_cap);
  if (n >= 0 && (uint64_t)n > g_cap) {
    if (ensure_buffer((size_t)n) < 0) {
      return CROSS_NO_MEMORY;
    }
    n = g_host(token, SPINE_OP_FETCH, handle, req, (size_t)len, g_buf, g_cap);
  }
  return n;
}

/* A crossing whose answer is only its number (a prepare's handle, an
 * output's acknowledgement), with the GIL released like every other. */
static int64_t cross_without_answer(int op, uint64_t handle, const char *req, Py_ssize_t len) {
  uintptr_t token = g_token;
  int64_t n;
  Py_BEGIN_ALLOW_THREADS
  n = g_host(token, op, handle, req, (size_t)len, NULL, 0);
  Py_END_ALLOW_THREADS
  return n;
}

static PyObject *host_failure(int op) {
  PyErr_Format(PyExc_RuntimeError,
               "spine: the host failed to answer a %s crossing",
               op == SPINE_OP_PREPARE ? "prepare"
               : op == SPINE_OP_RESOLVE ? "resolve"
               : op == SPINE_OP_NATIVE  ? "native"
               : op == SPINE_OP_OUTPUT  ? "output"
               : op == SPINE_OP_WAIT    ? "wait"
                                        : "call");
  return NULL;
}

static PyObject *respond(int op, uint64_t handle, PyObject *request) {
  const char *req;
  Py_ssize_t len;
  if (g_host == NULL || g_token == 0) {
    PyErr_SetString(PyExc_RuntimeError, "spine: no execution is running");
    return NULL;
  }
  if (request_bytes(request, &req, &len) < 0) {
    return NULL;
  }
  uintptr_t token = g_token;
  int64_t n;
  Py_BEGIN_ALLOW_THREADS
  n = cross(token, op, handle, req, len);
  Py_END_ALLOW_THREADS
  if (n == CROSS_NO_MEMORY) {
    return PyErr_NoMemory();
  }
  if (n < 0 || (uint64_t)n > g_cap) {
    return host_failure(op);
  }
  return PyBytes_FromStringAndSize(g_buf, (Py_ssize_t)n);
}

PyDoc_STRVAR(call_doc, "call(request) -> bytes\n\n"
                       "Run the tool request now and return the host's response JSON.");

static PyObject *spine_call(PyObject *module, PyObject *request) {
  (void)module;
  return respond(SPINE_OP_CALL, 0, request);
}

PyDoc_STRVAR(prepare_doc,
             "prepare(request) -> int\n\n"
             "Start the tool request on a host worker; return its handle (0: none).");

static PyObject *spine_prepare(PyObject *module, PyObject *request) {
  (void)module;
  const char *req;
  Py_ssize_t len;
  if (g_host == NULL || g_token == 0) {
    PyErr_SetString(PyExc_RuntimeError, "spine: no execution is running");
    return NULL;
  }
  if (request_bytes(request, &req, &len) < 0) {
    return NULL;
  }
  int64_t handle = cross_without_answer(SPINE_OP_PREPARE, 0, req, len);
  if (handle < 0) {
    return host_failure(SPINE_OP_PREPARE);
  }
  return PyLong_FromLongLong(handle);
}

PyDoc_STRVAR(resolve_doc,
             "resolve(handle, request) -> bytes\n\n"
             "Wait for a prepared call and return its response JSON; the host runs\n"
             "the request normally if the handle does not match it.");

static PyObject *spine_resolve(PyObject *module, PyObject *const *args,
                               Py_ssize_t nargs) {
  (void)module;
  if (nargs != 2) {
    PyErr_Format(PyExc_TypeError, "resolve() takes 2 arguments (%zd given)", nargs);
    return NULL;
  }
  unsigned long long handle = PyLong_AsUnsignedLongLong(args[0]);
  if (handle == (unsigned long long)-1 && PyErr_Occurred()) {
    return NULL;
  }
  return respond(SPINE_OP_RESOLVE, (uint64_t)handle, args[1]);
}

PyDoc_STRVAR(native_doc,
             "native(request) -> bytes\n\n"
             "Hand a hot-function request (function source to compile, a poll) to the\n"
             "host and return its response JSON. The host compiles outside the guest.");

static PyObject *spine_native(PyObject *module, PyObject *request) {
  (void)module;
  return respond(SPINE_OP_NATIVE, 0, request);
}

PyDoc_STRVAR(wait_doc,
             "wait(request) -> bytes\n\n"
             "Wait until one of the started calls in request {\"handles\": [...], \"ms\": n}\n"
             "is done, or n milliseconds (the host's deadline first); return the host's\n"
             "{\"done\": [...]}. The event loop of an async program waits here.");

static PyObject *spine_wait(PyObject *module, PyObject *request) {
  (void)module;
  return respond(SPINE_OP_WAIT, 0, request);
}

PyDoc_STRVAR(program_loop_doc,
             "program_loop(on) -> None\n\n"
             "Say whether the program's own event loop is running it: while on, the\n"
             "host's interrupt is raised in any frame, not only in the program's.");

static PyObject *spine_program_loop(PyObject *module, PyObject *on) {
  (void)module;
  int flag = PyObject_IsTrue(on);
  if (flag < 0) {
    return NULL;
  }
  g_program_loop = flag;
  Py_RETURN_NONE;
}

PyDoc_STRVAR(output_doc,
             "output(stream, data) -> None\n\n"
             "Hand the host output as the program writes it (stream 1: stdout, 2:\n"
             "stderr), for a caller that reads it live.");

static PyObject *spine_output(PyObject *module, PyObject *const *args,
                              Py_ssize_t nargs) {
  (void)module;
  if (nargs != 2) {
    PyErr_Format(PyExc_TypeError, "output() takes 2 arguments (%zd given)", nargs);
    return NULL;
  }
  unsigned long long stream = PyLong_AsUnsignedLongLong(args[0]);
  if (stream == (unsigned long long)-1 && PyErr_Occurred()) {
    return NULL;
  }
  const char *data;
  Py_ssize_t len;
  if (g_host == NULL || g_token == 0) {
    PyErr_SetString(PyExc_RuntimeError, "spine: no execution is running");
    return NULL;
  }
  if (request_bytes(args[1], &data, &len) < 0) {
    return NULL;
  }
  if (cross_without_answer(SPINE_OP_OUTPUT, (uint64_t)stream, data, len) < 0) {
    return host_failure(SPINE_OP_OUTPUT);
  }
  Py_RETURN_NONE;
}

static PyMethodDef spine_methods[] = {
    {"call", (PyCFunction)spine_call, METH_O, call_doc},
    {"prepare", (PyCFunction)spine_prepare, METH_O, prepare_doc},
    {"resolve", (PyCFunction)(void (*)(void))spine_resolve, METH_FASTCALL, resolve_doc},
    {"native", (PyCFunction)spine_native, METH_O, native_doc},
    {"output", (PyCFunction)(void (*)(void))spine_output, METH_FASTCALL, output_doc},
    {"program_loop", (PyCFunction)spine_program_loop, METH_O, program_loop_doc},
    {"wait", (PyCFunction)spine_wait, METH_O, wait_doc},
    {NULL, NULL, 0, NULL},
};

static int spine_exec(PyObject *module) {
  spine_state *state = PyModule_GetState(module);
  state->interrupt_type = PyErr_NewExceptionWithDoc(
      "_spine.Interrupt",
      "Raised in the program when the host stops it (deadline, cancel, limit).",
      PyExc_BaseException, NULL);
  if (state->interrupt_type == NULL) {
    return -1;
  }
  if (PyModule_AddObjectRef(module, "Interrupt", state->interrupt_type) < 0) {
    return -1;
  }
  Py_XSETREF(g_interrupt_type, Py_NewRef(state->interrupt_type));
  return 0;
}

static int spine_traverse(PyObject *module, visitproc visit, void *arg) {
  spine_state *state = PyModule_GetState(module);
  Py_VISIT(state->interrupt_type);
  return 0;
}

static int spine_clear(PyObject *module) {
  spine_state *state = PyModule_GetState(module);
  Py_CLEAR(state->interrupt_type);
  return 0;
}

static void spine_free(void *module) { spine_clear((PyObject *)module); }

static PyModuleDef_Slot spine_slots[] = {
    {Py_mod_exec, spine_exec},
    {0, NULL},
};

static struct PyModuleDef spine_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_spine",
    .m_doc = "The guest's crossings back to the spine host.",
    .m_size = sizeof(spine_state),
    .m_methods = spine_methods,
    .m_slots = spine_slots,
    .m_traverse = spine_traverse,
    .m_clear = spine_clear,
    .m_free = spine_free,
};

PyMODINIT_FUNC PyInit__spine(void) { return PyModuleDef_Init(&spine_module); }
