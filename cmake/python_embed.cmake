# One CPython for everything: Debian's libpython3.11-dev. Headers come through
# pkg-config (python3-embed); the interpreter is linked from the same
# package's static libpython3.11.a, the way Debian links /usr/bin/python3,
# not from the shared libpython3.11.so that python3-embed names. The static
# objects are built without -fPIC, with profile-guided layout; the shared
# library pays a GOT load for every global and an interposable PLT call for
# every exported function, which made compute-bound programs 10-20% slower
# than under python3 (bench/RESULTS.md, "Guest interpreter").
#
# Hence, for every executable that embeds it (interface link options; the
# in-process engine links it through cgo in internal/bridge/inproc/libpython.go,
# the C tests here; the sandbox's zygote needs none: it runs inside python3):
# - -no-pie: the static archive's code is position-dependent;
# - --export-dynamic: extension modules in lib-dynload and spine's own native
#   modules resolve Py* symbols from the executable, as they do from
#   python3 (which links with -export-dynamic too).
# The libraries are those the static archive's built-in modules need:
# sysconfig's LIBS, MODLIBS and SYSLIBS (zlib, expat, libm, libdl).
pkg_check_modules(PYEMBED REQUIRED IMPORTED_TARGET python3-embed)
set(SPINE_PYTHON_LIBPL "/usr/lib/python${PYEMBED_VERSION}/config-${PYEMBED_VERSION}-${CMAKE_LIBRARY_ARCHITECTURE}")
find_file(SPINE_LIBPYTHON_STATIC libpython${PYEMBED_VERSION}.a PATHS ${SPINE_PYTHON_LIBPL} NO_DEFAULT_PATH REQUIRED)

add_library(spine_python INTERFACE)
target_include_directories(spine_python INTERFACE ${PYEMBED_INCLUDE_DIRS})
target_link_libraries(spine_python INTERFACE ${SPINE_LIBPYTHON_STATIC} z expat m dl)
target_link_options(spine_python INTERFACE -no-pie -Wl,--export-dynamic)
