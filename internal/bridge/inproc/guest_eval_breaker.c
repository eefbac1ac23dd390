//go:build cgo

// See guest-c/eval_breaker.c; its own translation unit (it sets Py_BUILD_CORE).
#include "../../../guest-c/eval_breaker.c"
