// print() in native code: what a native call prints is kept until it returns,
// then written to sys.stdout; a call that faults (and lets CPython run the
// function from the start) has printed nothing. runtime/compiler/RATIONALE.md
// says why, and what this changes for a program (when, not what, it sees).
#ifndef SPINE_COMPILER_PYTHON_PRINTED_OUTPUT_H_
#define SPINE_COMPILER_PYTHON_PRINTED_OUTPUT_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdint>
#include <string>

namespace spine::compiler::py {

/**
 * @brief The output of one native call from Python, in order. Native callees
 * are plain C++ calls inside it and print into it; a native function reached
 * again through Python code (a boxed operation's) has its own, restoring the
 * outer call's on exit.
 */
struct PrintedOutput {
  PrintedOutput();
  PrintedOutput(const PrintedOutput&) = delete;
  PrintedOutput& operator=(const PrintedOutput&) = delete;
  ~PrintedOutput();  // what was not written is dropped

  /**
   * Write what the call printed with one sys.stdout.write, sys.stdout looked up
   * now as print() looks it up (None: nothing is written; missing: RuntimeError
   * "lost sys.stdout"). 0, or -1 with the write's exception set.
   */
  int Write();

  std::string text;       /**< What the call printed so far (UTF-8). */
  bool printed = false;   /**< print() ran (print("", end="") too: it still needs sys.stdout). */
  PrintedOutput* outer;   /**< The call this one runs inside, if any. */
};

/** Keep @p size bytes at @p data as printed by the call in progress: 0, 1 when its output would pass
 *  SPINE_PRINT_BOUND (nothing kept), -1 with SystemError when no call is in progress. */
int KeepPrinted(const char* data, int64_t size);

}  // namespace spine::compiler::py

#endif  // SPINE_COMPILER_PYTHON_PRINTED_OUTPUT_H_
