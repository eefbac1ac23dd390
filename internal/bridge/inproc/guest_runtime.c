//go:build cgo

// The guest runtime, compiled into the Go binary by cgo (same file as CMake's).
#include "../../../guest-c/runtime.c"
