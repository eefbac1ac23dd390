//go:build cgo

// See guest-c/gil_request.c; its own translation unit (it sets Py_BUILD_CORE).
#include "../../../guest-c/gil_request.c"
