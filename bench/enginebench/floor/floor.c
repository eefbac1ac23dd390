/*
 * The floor of an in-process execution: the embedded CPython alone, in a C
 * loop, doing what spine does for the trivial program, without Go and
 * without spine's runtime: read the inputs JSON, compile the program, run
 * it in a fresh namespace whose `lookup` is a plain Python function (the
 * tool, with no crossing), and encode `result` as JSON.
 *
 * usage: floor N  -> prints the median wall nanoseconds of one iteration,
 * then the process CPU nanoseconds per iteration.
 */
#include <Python.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char *k_program = "result = {'x': lookup(key=inputs['item'])}";
static const char *k_inputs = "{\"item\": 3}";

static int cmp(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

static long long clock_ns(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2000;
  if (n <= 0) {
    n = 2000;
  }
  PyConfig config;
  PyConfig_InitIsolatedConfig(&config);
  config.site_import = 0;
  config.install_signal_handlers = 0;
  PyStatus status = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(status)) {
    fprintf(stderr, "floor: cannot start CPython\n");
    return 1;
  }
  PyObject *json = PyImport_ImportModule("json");
  PyObject *loads = json ? PyObject_GetAttrString(json, "loads") : NULL;
  PyObject *dumps = json ? PyObject_GetAttrString(json, "dumps") : NULL;
  PyObject *tools = PyDict_New();
  PyObject *defined = tools ? PyRun_String("def lookup(key):\n    return 7 * key\n", Py_file_input, tools, tools) : NULL;
  PyObject *lookup = tools ? PyDict_GetItemString(tools, "lookup") : NULL;
  if (loads == NULL || dumps == NULL || defined == NULL || lookup == NULL) {
    PyErr_Print();
    return 1;
  }
  long long *samples = malloc(sizeof *samples * (size_t)n);
  long long cpu_start = 0;
  for (int i = -200; i < n; i++) {
    if (i == 0) {
      cpu_start = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    }
    long long start = now_ns();
    PyObject *inputs = PyObject_CallFunction(loads, "s", k_inputs);
    PyObject *code = Py_CompileString(k_program, "<spine>", Py_file_input);
    PyObject *scope = PyDict_New();
    PyDict_SetItemString(scope, "__builtins__", PyEval_GetBuiltins());
    PyDict_SetItemString(scope, "inputs", inputs);
    PyDict_SetItemString(scope, "lookup", lookup);
    PyObject *ran = code ? PyEval_EvalCode(code, scope, scope) : NULL;
    PyObject *result = ran ? PyDict_GetItemString(scope, "result") : NULL;
    PyObject *encoded = result ? PyObject_CallOneArg(dumps, result) : NULL;
    if (encoded == NULL) {
      PyErr_Print();
      return 1;
    }
    Py_DECREF(encoded);
    Py_DECREF(ran);
    Py_DECREF(scope);
    Py_DECREF(code);
    Py_DECREF(inputs);
    if (i >= 0) {
      samples[i] = now_ns() - start;
    }
  }
  long long cpu = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
  qsort(samples, (size_t)n, sizeof *samples, cmp);
  printf("%lld %lld\n", samples[n / 2], cpu / n);
  return 0;
}
