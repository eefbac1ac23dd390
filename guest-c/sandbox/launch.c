/*
 * spine-guest: the sandbox launcher. The host starts it with the control
 * channel on fd 3; it replaces itself with Debian's /usr/bin/python3 (the
 * one CPython whose headers, library and stdlib spine builds against),
 * isolated (-I: no environment, no user site, no script directory on the
 * path), without site, bytecode writing or stdio buffering, in UTF-8 mode
 * (as the embedded configuration was), which loads the `_spine_zygote`
 * extension module built beside this launcher and runs the zygote in it
 * (main.c, zygote_module.c). Nothing of the confinement happens here: the
 * zygote and each child set it up as before, after exec.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef SPINE_PYTHON_EXECUTABLE
#error "SPINE_PYTHON_EXECUTABLE: the python3 binary of the CPython spine builds against"
#endif

/* Loaded by its exact path: nothing else in the launcher's directory is
 * importable. */
static const char k_start[] =
    "import sys, importlib.util as u\n"
    "s = u.spec_from_file_location('_spine_zygote', sys.argv[1])\n"
    "m = u.module_from_spec(s)\n"
    "s.loader.exec_module(m)\n"
    "m.serve()\n";

int main(void) {
  char module[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", module, sizeof module - 1);
  char *slash = n > 0 ? memrchr(module, '/', (size_t)n) : NULL;
  static const char k_name[] = "/_spine_zygote.so";
  if (slash == NULL || (size_t)(slash - module) + sizeof k_name > sizeof module) {
    fprintf(stderr, "spine-guest: cannot find its own directory\n");
    return 2;
  }
  memcpy(slash, k_name, sizeof k_name);
  char *argv[] = {SPINE_PYTHON_EXECUTABLE, "-I", "-S", "-B", "-u", "-X", "utf8", "-c", (char *)k_start, module, NULL};
  execv(SPINE_PYTHON_EXECUTABLE, argv);
  perror("spine-guest: exec " SPINE_PYTHON_EXECUTABLE);
  return 127;
}
