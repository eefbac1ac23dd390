//go:build cgo

// The _spine module, compiled into the Go binary by cgo (same file as CMake's).
#include "../../../guest-c/spine_module.c"
