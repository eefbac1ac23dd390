// The per-thread state of generated native code (native_thread.h).
//
// Modules bind to spine_native_thread with initial-exec accesses, which the
// dynamic linker can only resolve while this library's TLS block sits in
// static TLS. Once a library's TLS has been reached dynamically (through
// __tls_get_addr, as the rest of this library's thread_locals are), glibc
// never moves it to static TLS, and every module would fail to load. The
// initial-exec access below marks this library DF_STATIC_TLS, so its TLS
// block is placed in static TLS as soon as the library loads.
#include "spine/runtime/native_thread.h"

extern "C" {

__attribute__((tls_model("initial-exec"), visibility("default"))) __thread SpineNativeThread spine_native_thread = {
    nullptr, 0, 0};

SpineNativeThread* SpineNativeThreadState(void) { return &spine_native_thread; }

}  // extern "C"
