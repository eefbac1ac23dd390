/*
 * runtime.c: embeds CPython for the guest and runs bootstrap's entry points.
 *
 * CPython is initialised once per process (Py_Finalize and re-initialisation
 * are fragile), isolated, without site and without signal handlers (the Go
 * runtime owns SIGSEGV, SIGPROF and SIGURG). Between calls the interpreter
 * thread releases the GIL, so nothing else ever waits on it while idle.
 * With thread_per_call, each calling thread has a thread state of its own
 * instead of taking turns on the initial one (enter/leave below).
 */
#include "spine_runtime.h"

#include <Python.h>
#include <marshal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_module.h"

static _Thread_local char t_error[1024];

static PyObject *g_bootstrap;   /* the bootstrap module */
static PyObject *g_execute;     /* bootstrap.execute */
static PyObject *g_take_output; /* bootstrap.take_output */
static PyThreadState *g_thread; /* saved between calls, GIL released */
static PyInterpreterState *g_interp;
static int g_thread_per_call;
static int g_initialised;

const char *spine_last_error(void) { return t_error; }

static int fail(const char *message) {
  snprintf(t_error, sizeof t_error, "%s", message);
  return -1;
}

/* Record the pending Python exception as the thread-local error and clear it. */
static int fail_python(const char *context) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  const char *text = NULL;
  PyObject *str = value ? PyObject_Str(value) : NULL;
  if (str != NULL) {
    text = PyUnicode_AsUTF8(str);
  }
  snprintf(t_error, sizeof t_error, "%s: %s: %s", context,
           type ? ((PyTypeObject *)type)->tp_name : "error",
           text ? text : "(no message)");
  PyErr_Clear();
  Py_XDECREF(str);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
  return -1;
}

/* The head of every compiled-code entry this interpreter makes and accepts:
 * importlib's magic number (the bytecode format, 4 bytes), then the length
 * (u32 little-endian) and text of sys.version (the exact build). marshal's
 * format is only promised for one interpreter, so code from any other is
 * compiled again, never run. Made once, after the interpreter starts. */
static char *g_code_head;
static size_t g_code_head_len;

static int make_code_head(void) {
  long magic = PyImport_GetMagicNumber();
  if (magic == -1 && PyErr_Occurred()) {
    return fail_python("spine_init: no magic number");
  }
  const char *version = Py_GetVersion();
  size_t version_len = strlen(version);
  g_code_head = malloc(8 + version_len);
  if (g_code_head == NULL) {
    return fail("spine_init: out of memory");
  }
  for (int i = 0; i < 4; i++) {
    g_code_head[i] = (char)((unsigned long)magic >> (8 * i));
    g_code_head[4 + i] = (char)(version_len >> (8 * i));
  }
  memcpy(g_code_head + 8, version, version_len);
  g_code_head_len = 8 + version_len;
  return 0;
}

/* The code object of a module's earlier compilation (m->code), if this
 * interpreter made it; NULL, with no exception pending, when there is none,
 * it is another interpreter's, or it does not unmarshal to a code object:
 * the caller compiles the source instead. The host checked that the entry
 * is whole and belongs to this very source (internal/guestcache). */
static PyObject *cached_code(const spine_module_source *m) {
  if (m->code == NULL || m->code_len <= g_code_head_len ||
      memcmp(m->code, g_code_head, g_code_head_len) != 0) {
    return NULL;
  }
  PyObject *code = PyMarshal_ReadObjectFromString(m->code + g_code_head_len,
                                                  (Py_ssize_t)(m->code_len - g_code_head_len));
  if (code == NULL || !PyCode_Check(code)) {
    PyErr_Clear();
    Py_XDECREF(code);
    return NULL;
  }
  return code;
}

/* A compiled-code entry for `code`, head and marshal data, in a malloc'd
 * buffer for the host to keep; on failure nothing (the next start compiles
 * again). */
static void keep_code(PyObject *code, spine_compiled *out) {
  PyObject *data = PyMarshal_WriteObjectToString(code, Py_MARSHAL_VERSION);
  char *bytes;
  Py_ssize_t n;
  if (data == NULL || PyBytes_AsStringAndSize(data, &bytes, &n) < 0) {
    PyErr_Clear();
    Py_XDECREF(data);
    return;
  }
  out->code = malloc(g_code_head_len + (size_t)n);
  if (out->code != NULL) {
    memcpy(out->code, g_code_head, g_code_head_len);
    memcpy(out->code + g_code_head_len, bytes, (size_t)n);
    out->code_len = g_code_head_len + (size_t)n;
  }
  Py_DECREF(data);
}

static PyObject *compile_source(const spine_module_source *m, PyObject *path) {
  PyObject *text = PyUnicode_DecodeUTF8(m->source, (Py_ssize_t)m->source_len, "strict");
  const char *utf8 = text ? PyUnicode_AsUTF8(text) : NULL;
  PyObject *code = utf8 ? Py_CompileStringObject(utf8, path, Py_file_input, NULL, -1) : NULL;
  Py_XDECREF(text);
  return code;
}

/* Execute module `name`, registered in sys.modules under that name, with a
 * filename that tracebacks can show: from its earlier compilation when the
 * host kept one this interpreter made (compiling the guest's modules is a
 * quarter of a process's start), else compiled from source, and then, when
 * the caller asks (`kept`), handed back for the host to keep. */
static int load_module(const spine_module_source *m, spine_compiled *kept) {
  char filename[256];
  snprintf(filename, sizeof filename, "<guest/%s.py>", m->name);
  PyObject *code = cached_code(m);
  if (code == NULL) {
    PyObject *path = PyUnicode_FromString(filename);
    code = path ? compile_source(m, path) : NULL;
    Py_XDECREF(path);
    if (code != NULL && kept != NULL) {
      keep_code(code, kept);
    }
  }
  if (code == NULL) {
    return fail_python(m->name);
  }
  PyObject *module = PyImport_ExecCodeModuleWithPathnames(m->name, code, filename, NULL);
  Py_DECREF(code);
  if (module == NULL) {
    return fail_python(m->name);
  }
  if (strcmp(m->name, "bootstrap") == 0) {
    Py_XSETREF(g_bootstrap, module);
  } else {
    Py_DECREF(module);
  }
  return 0;
}

static int start_python(void) {
  /* UTF-8 mode, before anything else: the isolated configuration leaves the
   * locale unconfigured (C/POSIX), which makes the filesystem encoding and
   * open()'s default ASCII, so a program writing '\u03b2' to a file got a
   * UnicodeEncodeError that CPython on any usual system never gives. */
  PyPreConfig preconfig;
  PyPreConfig_InitIsolatedConfig(&preconfig);
  preconfig.utf8_mode = 1;
  PyStatus status = Py_PreInitialize(&preconfig);
  if (PyStatus_Exception(status)) {
    return fail(status.err_msg ? status.err_msg : "Py_PreInitialize failed");
  }
  PyConfig config;
  PyConfig_InitIsolatedConfig(&config);
  config.site_import = 0;
  config.install_signal_handlers = 0;
  config.write_bytecode = 0;
  config.buffered_stdio = 0;
  config.user_site_directory = 0;
  config.use_environment = 0;
  config.parse_argv = 0;
  /* The interpreter is embedded in a host whose argv means nothing to it. */
  status = PyConfig_SetString(&config, &config.program_name, L"spine");
  if (!PyStatus_Exception(status)) {
    status = Py_InitializeFromConfig(&config);
  }
  PyConfig_Clear(&config);
  if (PyStatus_Exception(status)) {
    return fail(status.err_msg ? status.err_msg : "Py_InitializeFromConfig failed");
  }
  return 0;
}

/* Hosted: the interpreter already runs, so _spine cannot go in the inittab;
 * it is made from its definition and put in sys.modules, where `import
 * _spine` finds it first. GIL held. */
static int register_spine_module(void) {
  PyModuleDef *def = (PyModuleDef *)PyInit__spine();
  PyObject *machinery = PyImport_ImportModule("importlib.machinery");
  PyObject *spec = machinery ? PyObject_CallMethod(machinery, "ModuleSpec", "sO", "_spine", Py_None) : NULL;
  PyObject *module = spec ? PyModule_FromDefAndSpec(def, spec) : NULL;
  int rc = module != NULL && PyModule_ExecDef(module, def) == 0 &&
                   PyDict_SetItemString(PyImport_GetModuleDict(), "_spine", module) == 0
               ? 0
               : fail_python("spine_init: cannot register the _spine module");
  Py_XDECREF(module);
  Py_XDECREF(spec);
  Py_XDECREF(machinery);
  return rc;
}

int spine_init(const spine_config *config) {
  if (g_initialised) {
    return fail("spine_init: CPython is already initialised in this process");
  }
  if (config == NULL || config->host == NULL || config->module_count == 0) {
    return fail("spine_init: a host callback and the guest modules are required");
  }
  if (config->hosted) {
    if (!Py_IsInitialized() || !PyGILState_Check()) {
      return fail("spine_init: hosted, but no running interpreter whose GIL this thread holds");
    }
    if (register_spine_module() < 0) {
      return -1;
    }
  } else if (PyImport_AppendInittab("_spine", PyInit__spine) < 0) {
    return fail("spine_init: cannot register the _spine module");
  } else if (start_python() < 0) {
    return -1;
  }
  g_initialised = 1;
  g_thread_per_call = config->thread_per_call;
  g_interp = PyInterpreterState_Get();
  spine_module_set_host(config->host);
  int rc = g_code_head == NULL ? make_code_head() : 0;
  for (size_t i = 0; i < config->module_count && rc == 0; i++) {
    rc = load_module(&config->modules[i], config->compiled ? &config->compiled[i] : NULL);
  }
  if (rc == 0 && g_bootstrap == NULL) {
    rc = fail("spine_init: no module named bootstrap was given");
  }
  if (rc == 0) {
    g_execute = PyObject_GetAttrString(g_bootstrap, "execute");
    g_take_output = PyObject_GetAttrString(g_bootstrap, "take_output");
    if (g_execute == NULL || g_take_output == NULL) {
      rc = fail_python("spine_init: bootstrap lacks execute/take_output");
    }
  }
  if (rc == 0 && g_thread_per_call) {
    /* In process, no zygote preloads asyncio and installs its loop policy. */
    PyObject *done = PyObject_CallMethod(g_bootstrap, "in_process_setup", NULL);
    if (done == NULL) {
      rc = fail_python("spine_init: bootstrap.in_process_setup failed");
    }
    Py_XDECREF(done);
  }
  g_thread = PyEval_SaveThread();
  return rc;
}

/* Copy a bytes object into a fresh malloc'd buffer the host will own. */
static int take_bytes(PyObject *bytes, char **data, size_t *len) {
  char *src;
  Py_ssize_t n;
  if (PyBytes_AsStringAndSize(bytes, &src, &n) < 0) {
    return -1;
  }
  *data = malloc(n > 0 ? (size_t)n : 1);
  if (*data == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  memcpy(*data, src, (size_t)n);
  *len = (size_t)n;
  return 0;
}

static int collect_output(spine_result *result) {
  PyObject *output = PyObject_CallNoArgs(g_take_output);
  if (output == NULL) {
    return -1;
  }
  int rc = -1;
  if (!PyTuple_Check(output) || PyTuple_GET_SIZE(output) != 2) {
    PyErr_SetString(PyExc_TypeError, "take_output must return (stdout, stderr)");
  } else if (take_bytes(PyTuple_GET_ITEM(output, 0), &result->out, &result->out_len) == 0 &&
             take_bytes(PyTuple_GET_ITEM(output, 1), &result->err, &result->err_len) == 0) {
    rc = 0;
  }
  Py_DECREF(output);
  return rc;
}

/* With thread_per_call, the thread state of the calling thread: made on its
 * first call and kept (a new one per call would map and unmap its frame
 * stack every time), and emptied of what one call left for the next. */
static _Thread_local PyThreadState *t_state;

/* Take the GIL for one call, on the calling thread's own thread state (so
 * calls on different threads overlap wherever they release the GIL) or on
 * the initial one. */
static PyThreadState *enter(void) {
  if (!g_thread_per_call) {
    PyEval_RestoreThread(g_thread);
    return g_thread;
  }
  if (t_state == NULL) {
    t_state = PyThreadState_New(g_interp);
    if (t_state == NULL) {
      return NULL;
    }
  }
  PyEval_RestoreThread(t_state);
  return t_state;
}

/* What a thread state carries from one call to the next, dropped: its
 * thread-local storage (threading.local), contextvars and asyncio's hooks;
 * the next call starts as on a new thread. */
static void forget_the_call(PyThreadState *tstate) {
  Py_CLEAR(tstate->dict);
  Py_CLEAR(tstate->context);
  tstate->context_ver++;
  Py_CLEAR(tstate->async_gen_firstiter);
  Py_CLEAR(tstate->async_gen_finalizer);
  PyErr_Clear();
}

static void leave(PyThreadState *tstate) {
  if (g_thread_per_call) {
    forget_the_call(tstate);
    PyEval_SaveThread();
  } else {
    g_thread = PyEval_SaveThread();
  }
}

int spine_execute(uintptr_t token, const char *request, size_t request_len,
                  spine_result *result) {
  memset(result, 0, sizeof *result);
  if (g_execute == NULL) {
    return fail("spine_execute: the runtime is not initialised");
  }
  if (token == 0) {
    return fail("spine_execute: token must be non-zero");
  }
  PyThreadState *tstate = enter();
  if (tstate == NULL) {
    return fail("spine_execute: no memory for a thread state");
  }
  if (spine_module_begin(token) < 0) {
    leave(tstate);
    return fail("spine_execute: no memory for the execution");
  }
  int rc = -1;
  PyObject *arg = PyBytes_FromStringAndSize(request, (Py_ssize_t)request_len);
  PyObject *response = arg ? PyObject_CallOneArg(g_execute, arg) : NULL;
  Py_XDECREF(arg);
  result->interrupted = spine_module_end();
  if (response == NULL) {
    fail_python("spine_execute");
  } else if (take_bytes(response, &result->response, &result->response_len) < 0 ||
             collect_output(result) < 0) {
    fail_python("spine_execute");
  } else {
    rc = 0;
  }
  Py_XDECREF(response);
  leave(tstate);
  if (rc < 0) {
    spine_result_free(result);
  }
  return rc;
}

int spine_call_entry(uintptr_t token, const char *entry, const char *arg,
                     size_t arg_len) {
  if (g_bootstrap == NULL) {
    return fail("spine_call_entry: the runtime is not initialised");
  }
  PyThreadState *tstate = enter();
  if (tstate == NULL) {
    return fail("spine_call_entry: no memory for a thread state");
  }
  if (spine_module_begin_entry(token) < 0) {
    leave(tstate);
    return fail("spine_call_entry: no memory for the entry");
  }
  int rc = 0;
  PyObject *fn = PyObject_GetAttrString(g_bootstrap, entry);
  PyObject *text = fn ? PyUnicode_DecodeUTF8(arg, (Py_ssize_t)arg_len, "replace") : NULL;
  PyObject *out = text ? PyObject_CallOneArg(fn, text) : NULL;
  if (out == NULL) {
    rc = fail_python(entry);
  }
  Py_XDECREF(out);
  Py_XDECREF(text);
  Py_XDECREF(fn);
  spine_module_end();
  leave(tstate);
  return rc;
}

int spine_interrupt(uintptr_t token, int reason) {
  return spine_module_interrupt(token, reason);
}

void spine_result_free(spine_result *result) {
  if (result == NULL) {
    return;
  }
  free(result->response);
  free(result->out);
  free(result->err);
  memset(result, 0, sizeof *result);
}
