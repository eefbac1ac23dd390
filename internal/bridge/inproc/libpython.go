//go:build cgo

package inproc

// The interpreter is linked from Debian's static libpython3.11.a (package
// libpython3.11-dev, the headers' own package), the way Debian links
// /usr/bin/python3, not from the shared libpython3.11.so that pkg-config's
// python3-embed names: the shared library's position-independent code made
// compute-bound programs 10-20% slower than under python3 (see
// cmake/python_embed.cmake, which links spine-guest the same way, and
// bench/RESULTS.md, "Guest interpreter").
//
// - The archive's code is position-dependent: Go's default build mode (exe)
//   links with -no-pie, so it fits; -buildmode=pie does not link.
// - --export-dynamic: extension modules in lib-dynload (_decimal, _sqlite3,
//   …) and the native toolchain's modules resolve Py* symbols from the
//   executable. Go exports only its cgo-exported symbols unless told.
// - The libraries are those the archive's built-in modules need (sysconfig's
//   LIBS, MODLIBS, SYSLIBS), as in cmake/python_embed.cmake.

/*
#cgo CFLAGS: -I/usr/include/python3.11
#cgo linux,amd64 LDFLAGS: /usr/lib/python3.11/config-3.11-x86_64-linux-gnu/libpython3.11.a
#cgo linux,arm64 LDFLAGS: /usr/lib/python3.11/config-3.11-aarch64-linux-gnu/libpython3.11.a
#cgo LDFLAGS: -lz -lexpat -lm -ldl -Wl,--export-dynamic
*/
import "C"
