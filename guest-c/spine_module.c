/*
 * The `_spine` module: call / prepare / resolve, and the Interrupt exception.
 *
 * Written in the modern style (multi-phase init, module state) so the module
 * object owns its exception type. The host callback is process-wide because
 * CPython 3.11 has one interpreter per process here and the runtime owns it;
 * the running executions are per thread (struct spine_run). Neither holds a
 * Go pointer, only a function address and integer tokens.
 */
#include "spine_module.h"
#include "gil_request.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  PyObject *interrupt_type; /* _spine.Interrupt, a BaseException subclass */
} spine_state;

static spine_host_fn g_host;
/* A strong reference held while the module lives: the interrupt's trace
 * function has no module argument, and there is one module per process. */
static PyObject *g_interrupt_type;

/* One execution (or bootstrap entry) running on some thread. Executions may
 * overlap in one interpreter (in process, each on its own thread state,
 * taking turns on the GIL while they wait in tools), so everything the
 * module knew of "the" running execution is per run. */
typedef struct spine_run {
  uintptr_t token;
  /* The interrupt reason (0: none). Set once, by compare-and-swap, so an
   * interrupt aimed at a finished execution can never hit the next one:
   * the token must still be registered for it to land. */
  _Atomic int reason;
  /* Set while the run's own thread is inside a crossing (GIL released):
   * that thread arms the interrupt itself when the crossing returns. */
  _Atomic int crossing;
  PyThreadState *tstate; /* the thread state that runs the program */
  /* Set while a bootstrap entry (prefix analysis) runs rather than a
   * program: no frame of it is the program's, and all of it may be
   * stopped, so an interrupt is raised wherever it lands. */
  int in_entry;
  /* Set while the event loop of a program with top-level `await` runs it
   * (`_spine.program_loop`): its coroutines are suspended while the loop
   * waits, so no frame of the program is on the stack, yet the program
   * runs. */
  int program_loop;
  struct spine_run *next;
  /* The run this thread served before this one began, back when it ends: a
   * host may run an execution from inside another's crossing on the same
   * thread (a hook that executes a program). */
  struct spine_run *outer;
} spine_run;

/* The runs now running, for spine_interrupt (any thread, GIL or not). */
static pthread_mutex_t g_runs_lock = PTHREAD_MUTEX_INITIALIZER;
static spine_run *g_runs;
/* The run begun on this thread. A thread the program started has none and
 * serves the newest run (in the sandbox, the only one). */
static __thread spine_run *t_run;

/* The response buffer: reused, so a tool call allocates nothing on the C
 * side unless a response outgrows it. One per thread: a program's threads
 * may cross at once (with the GIL released), and each answer lands in its
 * own thread's buffer. The transport shares what it must (the sandbox
 * child's one channel carries crossings of several threads at once, each
 * answer finding its thread: sandbox/crossings.c). */
static __thread char *g_buf;
static __thread size_t g_cap;

#define SPINE_REASON_LIMIT 8 /* reasons are 1..7 */
#define SPINE_INITIAL_BUFFER (64 * 1024)

void spine_module_set_host(spine_host_fn host) { g_host = host; }

/* Call with g_runs_lock held. */
static spine_run *find_run(uintptr_t token) {
  spine_run *run = g_runs;
  while (run != NULL && run->token != token) {
    run = run->next;
  }
  return run;
}

/* The token of the run a thread the program started serves (`adopt`): the
 * run of the thread that started it, while that run lasts. 0: none named. */
static __thread uintptr_t t_adopted;

/* The run this thread serves: its own; for a thread the program started,
 * the one it adopted (NULL once that run is over: its calls then fail), or
 * the newest when it adopted none. GIL held: runs begin and end only under
 * it, so the list may be read without the lock. */
static spine_run *current_run(void) {
  if (t_run != NULL) {
    return t_run;
  }
  if (t_adopted != 0) {
    return find_run(t_adopted);
  }
  return g_runs;
}

static int begin(uintptr_t token, int in_entry) {
  spine_run *run = calloc(1, sizeof *run);
  if (run == NULL) {
    return -1;
  }
  run->token = token;
  run->tstate = PyThreadState_Get();
  run->in_entry = in_entry;
  pthread_mutex_lock(&g_runs_lock);
  run->next = g_runs;
  g_runs = run;
  pthread_mutex_unlock(&g_runs_lock);
  run->outer = t_run;
  t_run = run;
  return 0;
}

int spine_module_begin(uintptr_t token) { return begin(token, 0); }

int spine_module_begin_entry(uintptr_t token) { return begin(token, 1); }

static int interrupt_trace(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg);

int spine_module_end(void) {
  spine_run *run = t_run;
  if (run == NULL) {
    return 0;
  }
  pthread_mutex_lock(&g_runs_lock);
  spine_run **link = &g_runs;
  while (*link != run) {
    link = &(*link)->next;
  }
  *link = run->next;
  pthread_mutex_unlock(&g_runs_lock);
  t_run = run->outer;
  /* The thread state may serve the next execution (the sandbox keeps one). */
  if (run->tstate->c_tracefunc == interrupt_trace) {
    _PyEval_SetTrace(run->tstate, NULL, NULL);
  }
  int reason = atomic_load(&run->reason);
  free(run);
  return reason;
}

/* True when any frame on the stack runs the program's code (compiled as
 * "<spine>"), or the program's event loop runs `frame` (outside bootstrap,
 * which must be free to end the loop). The interrupt is raised only then:
 * once the program is done, bootstrap must be free to encode the error. */
static int in_user_code(const spine_run *run, PyFrameObject *current) {
  if (run->program_loop) {
    PyCodeObject *code = PyFrame_GetCode(current);
    int ours = PyUnicode_CompareWithASCIIString(code->co_filename, "<guest/bootstrap.py>") == 0;
    Py_DECREF(code);
    if (!ours) {
      return 1;
    }
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

/* Have `frame` call the trace function at every instruction, not only at
 * a new line: `while True: pass` is one instruction jumping to itself, and
 * makes no line event. */
static void trace_every_instruction(PyFrameObject *frame) {
  if (PyObject_SetAttrString((PyObject *)frame, "f_trace_opcodes", Py_True) < 0) {
    PyErr_Clear();
  }
}

/* The interrupt, raised if it stands and the running code may meet it (see
 * interrupt_trace); 0 and no error otherwise. GIL held, on the run's thread. */
static int raise_interrupt(spine_run *run, PyFrameObject *frame) {
  int reason = atomic_load(&run->reason);
  if (reason == 0 || (!run->in_entry && (frame == NULL || !in_user_code(run, frame)))) {
    return 0;
  }
  PyErr_SetString(g_interrupt_type, reason_text(reason));
  return -1;
}

/* The trace function of an interrupted run's thread state, called at every
 * instruction of its frames. It stays set until the run ends, so a program
 * that catches the Interrupt meets it again at once, and an interrupt that
 * lands while bootstrap (not the program) runs is not lost: it waits for
 * the program's frames. Outside them it never raises, so bootstrap can
 * always encode the error; during an entry it raises anywhere. It raises
 * only at an instruction (where the frame enters the traceback with its
 * line), never at a call or a return. A trace function, not a pending call:
 * CPython 3.11 runs pending calls only on the main thread, and in process
 * every execution has a thread of its own. */
static int interrupt_trace(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg) {
  (void)obj;
  (void)arg;
  spine_run *run = t_run;
  if (run == NULL || atomic_load(&run->reason) == 0) {
    return 0;
  }
  if (what == PyTrace_CALL) {
    trace_every_instruction(frame);
    return 0;
  }
  if (what != PyTrace_LINE && what != PyTrace_OPCODE) {
    return 0;
  }
  return raise_interrupt(run, frame);
}

/* Set the trace of run `token` if it is still running and interrupted, and
 * have every frame on its stack trace each instruction. GIL held. */
static void arm(uintptr_t token) {
  pthread_mutex_lock(&g_runs_lock);
  spine_run *run = find_run(token);
  if (run != NULL && atomic_load(&run->reason) != 0 && run->tstate->c_tracefunc != interrupt_trace) {
    _PyEval_SetTrace(run->tstate, interrupt_trace, NULL);
    PyFrameObject *frame = PyThreadState_GetFrame(run->tstate);
    while (frame != NULL) {
      trace_every_instruction(frame);
      PyFrameObject *back = PyFrame_GetBack(frame);
      Py_DECREF(frame);
      frame = back;
    }
  }
  pthread_mutex_unlock(&g_runs_lock);
}

int spine_module_interrupt(uintptr_t token, int reason) {
  if (token == 0 || reason <= 0 || reason >= SPINE_REASON_LIMIT) {
    return -1;
  }
  pthread_mutex_lock(&g_runs_lock);
  spine_run *run = find_run(token);
  int none = 0;
  int landed = run != NULL && atomic_compare_exchange_strong(&run->reason, &none, reason);
  int crossing = landed && atomic_load(&run->crossing);
  PyInterpreterState *interp = landed ? PyThreadState_GetInterpreter(run->tstate) : NULL;
  pthread_mutex_unlock(&g_runs_lock);
  if (!landed) {
    return -1;
  }
  if (crossing) {
    return 0; /* its thread arms it on the way back (leave_crossing) */
  }
  if (PyGILState_Check()) {
    arm(token); /* from the program's own thread (the sandbox's deadline handler) */
  } else {
    spine_request_gil(interp); /* the GIL now, not after the switch interval */
    PyGILState_STATE gil = PyGILState_Ensure();
    arm(token);
    PyGILState_Release(gil);
  }
  return 0;
}

/* Around a crossing made with the GIL released: an interrupt that comes
 * meanwhile is armed by the run's own thread when it has the GIL back. */
static void enter_crossing(spine_run *run) {
  if (run != NULL && run == t_run) {
    atomic_store(&run->crossing, 1);
  }
}

/* -1 with the Interrupt set when the crossing's own run was interrupted
 * and the program may meet it here (at the call, as its line); otherwise
 * the trace is armed for later. */
static int leave_crossing(spine_run *run) {
  if (run == NULL || run != t_run) {
    return 0;
  }
  atomic_store(&run->crossing, 0);
  if (atomic_load(&run->reason) == 0) {
    return 0;
  }
  arm(run->token);
  return raise_interrupt(run, PyEval_GetFrame());
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
#define CROSS_INTERRUPTED (-3) /* the Interrupt is set */

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
static int64_t cross_without_answer(spine_run *run, int op, uint64_t handle, const char *req,
                                    Py_ssize_t len) {
  uintptr_t token = run->token;
  int64_t n;
  enter_crossing(run);
  Py_BEGIN_ALLOW_THREADS
  n = g_host(token, op, handle, req, (size_t)len, NULL, 0);
  Py_END_ALLOW_THREADS
  return leave_crossing(run) < 0 ? CROSS_INTERRUPTED : n;
}

/* The run a crossing belongs to, or NULL with a Python error. */
static spine_run *running(void) {
  spine_run *run = current_run();
  if (g_host == NULL || run == NULL) {
    PyErr_SetString(PyExc_RuntimeError, "spine: no execution is running");
  }
  return run;
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
  spine_run *run = running();
  if (run == NULL || request_bytes(request, &req, &len) < 0) {
    return NULL;
  }
  uintptr_t token = run->token;
  int64_t n;
  enter_crossing(run);
  Py_BEGIN_ALLOW_THREADS
  n = cross(token, op, handle, req, len);
  Py_END_ALLOW_THREADS
  if (leave_crossing(run) < 0) {
    return NULL;
  }
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
  spine_run *run = running();
  if (run == NULL || request_bytes(request, &req, &len) < 0) {
    return NULL;
  }
  int64_t handle = cross_without_answer(run, SPINE_OP_PREPARE, 0, req, len);
  if (handle == CROSS_INTERRUPTED) {
    return NULL;
  }
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

PyDoc_STRVAR(current_doc,
             "current() -> int\n\n"
             "The token of the execution this thread serves (0: none), for a thread\n"
             "the program starts to adopt().");

static PyObject *spine_current(PyObject *module, PyObject *unused) {
  (void)module;
  (void)unused;
  spine_run *run = current_run();
  return PyLong_FromUnsignedLongLong(run != NULL ? (unsigned long long)run->token : 0);
}

PyDoc_STRVAR(adopt_doc,
             "adopt(token) -> None\n\n"
             "Make this thread (one the program started) serve the execution `token`\n"
             "while it lasts: its crossings are that execution's, and fail once it\n"
             "is over (in process, executions overlap; the newest is not its own).");

static PyObject *spine_adopt(PyObject *module, PyObject *token) {
  (void)module;
  unsigned long long value = PyLong_AsUnsignedLongLong(token);
  if (value == (unsigned long long)-1 && PyErr_Occurred()) {
    return NULL;
  }
  t_adopted = (uintptr_t)value;
  Py_RETURN_NONE;
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
  spine_run *run = running();
  if (run == NULL) {
    return NULL;
  }
  run->program_loop = flag;
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
  spine_run *run = running();
  if (run == NULL || request_bytes(args[1], &data, &len) < 0) {
    return NULL;
  }
  int64_t n = cross_without_answer(run, SPINE_OP_OUTPUT, (uint64_t)stream, data, len);
  if (n == CROSS_INTERRUPTED) {
    return NULL;
  }
  if (n < 0) {
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
    {"current", (PyCFunction)spine_current, METH_NOARGS, current_doc},
    {"adopt", (PyCFunction)spine_adopt, METH_O, adopt_doc},
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
