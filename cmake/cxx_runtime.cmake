# One copy of the C++ runtime per process, inside libspine_runtime.so
# (runtime/RATIONALE.md, "One C++ runtime, inside the runtime library").
#
# libspine_runtime.so links libstdc++ statically with the whole of libsupc++
# (the exception ABI, new/delete, typeinfo: whatever a module or another spine
# library may call), exports it, and binds its own references to it inside
# the library (-Bsymbolic; its own symbols and the allocation functions stay
# interposable: runtime/interposable.dynlist), so loading it binds a few
# hundred symbols instead of libstdc++.so.6's 4,300. Every other spine DSO,
# and every compiled module, takes its C++ runtime from libspine_runtime.so
# (-nodefaultlibs: never libstdc++.so.6), so throw and catch meet in one copy
# whichever DSO they are in. Sanitizer builds keep libstdc++.so.6: ASan
# intercepts the allocation functions and __cxa_throw there.
if(SPINE_SANITIZE)
  set(SPINE_CXX_IN_RUNTIME OFF)
else()
  set(SPINE_CXX_IN_RUNTIME ON)
endif()

# The C libraries g++ would add after libstdc++: -nodefaultlibs drops them all.
set(SPINE_C_LIBRARIES m c gcc_s gcc)

function(spine_carry_cxx_runtime target)
  if(NOT SPINE_CXX_IN_RUNTIME)
    return()
  endif()
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libsupc++.a
                  OUTPUT_VARIABLE supcxx OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  set(dynlist ${PROJECT_SOURCE_DIR}/runtime/interposable.dynlist)
  target_link_options(${target} PRIVATE -static-libstdc++ "LINKER:-Bsymbolic" "LINKER:--dynamic-list=${dynlist}")
  target_link_libraries(${target} PRIVATE "-Wl,--whole-archive" ${supcxx} "-Wl,--no-whole-archive")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${dynlist})
endfunction()

# @p target takes its C++ runtime from libspine_runtime.so. With STATIC_REST,
# what the runtime library does not carry (iostreams, for the compiler
# library's printers) is linked in from libstdc++.a, hidden; without it a
# symbol the runtime does not export is a link error in a shared library (a
# Python extension resolves CPython's symbols at load time, so only its
# import can tell).
function(spine_cxx_from_runtime target)
  cmake_parse_arguments(ARG "STATIC_REST" "" "" ${ARGN})
  if(NOT SPINE_CXX_IN_RUNTIME)
    return()
  endif()
  # Its own functions bind inside it (no symbol lookup per call site at load);
  # its objects stay interposable, so vague-linkage ones still meet in one copy.
  target_link_options(${target} PRIVATE -nodefaultlibs "LINKER:-Bsymbolic-functions")
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "SHARED_LIBRARY")
    target_link_options(${target} PRIVATE "LINKER:--no-undefined")
  endif()
  target_link_libraries(${target} PRIVATE spine_runtime)
  if(ARG_STATIC_REST)
    target_link_libraries(${target} PRIVATE "-Wl,-Bstatic" stdc++ "-Wl,-Bdynamic" "-Wl,--exclude-libs,libstdc++.a")
  endif()
  target_link_libraries(${target} PRIVATE ${SPINE_C_LIBRARIES})
endfunction()

# How a compiled module is linked after its object and the runtime library
# (guest/native/compiler.py, tests/compiler/module_builder.h): its C++
# runtime from libspine_runtime.so, and any symbol nothing provides a link
# error (the function stays Python) rather than a failure to load.
if(SPINE_CXX_IN_RUNTIME)
  list(TRANSFORM SPINE_C_LIBRARIES PREPEND "-l" OUTPUT_VARIABLE c_flags)
  string(JOIN " " SPINE_MODULE_LINK_FLAGS -nodefaultlibs -Wl,--no-undefined ${c_flags})
else()
  set(SPINE_MODULE_LINK_FLAGS "")
endif()
