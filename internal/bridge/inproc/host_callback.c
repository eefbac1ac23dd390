//go:build cgo

// The C-typed trampoline the runtime calls for every tool crossing; it only
// adapts the signature of the exported Go function spineHostCall.
#include "_cgo_export.h"
#include "spine_runtime.h"

int64_t spine_go_host(uintptr_t token, int op, uint64_t handle, const char *request,
                      size_t request_len, char *out, size_t cap) {
  return spineHostCall(token, op, handle, (char *)request, request_len, out, cap);
}
