/*
 * native.c: hot functions in the zygote (issue 7). The host may send, before
 * the init message, a 'N' control frame naming the native toolchain's Python
 * directory and the module cache. Then the zygote imports the module loader
 * (and with it libspine_runtime / libspine_compiler) before it forks, because
 * a confined child can read neither; and the Landlock ruleset grants reading
 * the cache directory, and nothing else new, so a child can dlopen the
 * modules the host compiled and names to it. Compilation never happens here.
 */
#define _GNU_SOURCE
#include "native.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "spine_runtime.h"

static char *g_python_dir; /* NULL: native functions are off */
static char *g_cache_dir;
static char g_native_error[1200];

const char *spine_native_error(void) { return g_native_error; }

int spine_native_config(const unsigned char *payload, uint32_t len) {
  const unsigned char *nul = memchr(payload, 0, len);
  if (nul == NULL || nul == payload || nul + 1 >= payload + len || payload[len - 1] == 0 ||
      memchr(nul + 1, 0, (size_t)(payload + len - nul - 1)) != NULL) {
    snprintf(g_native_error, sizeof g_native_error, "malformed native setup message");
    return -1;
  }
  free(g_python_dir);
  free(g_cache_dir);
  g_python_dir = strndup((const char *)payload, (size_t)(nul - payload));
  g_cache_dir = strndup((const char *)nul + 1, (size_t)(payload + len - nul - 1));
  if (g_python_dir == NULL || g_cache_dir == NULL || g_python_dir[0] != '/' || g_cache_dir[0] != '/') {
    snprintf(g_native_error, sizeof g_native_error, "native setup needs two absolute directories");
    return -1;
  }
  return 0;
}

int spine_native_setup(uintptr_t token) {
  if (g_python_dir == NULL) {
    return 0;
  }
  if (spine_call_entry(token, "native_setup", g_python_dir, strlen(g_python_dir)) != 0) {
    snprintf(g_native_error, sizeof g_native_error, "native setup: %s", spine_last_error());
    return -1;
  }
  return 0;
}

int spine_native_landlock(int ruleset) {
  if (g_cache_dir == NULL || ruleset < 0) {
    return 0;
  }
  if (spine_landlock_allow_read(ruleset, g_cache_dir) < 0) {
    snprintf(g_native_error, sizeof g_native_error, "native module cache: %s", spine_last_policy_error());
    return -1;
  }
  return 0;
}
