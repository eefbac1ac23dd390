# The native toolchain (issue 7, hot functions): what a host needs at run time
# to compile guest functions and load them. `make native` installs it into
# build/spine-native (component "native"); `make build` copies it beside
# bin/spine as bin/spine-native. Layout (relocatable, RUNPATH $ORIGIN-relative):
#   lib/      libspine_runtime.so, libspine_loader.so (module loader),
#             libspine_compiler.so (registry, AST, codegen)
#   python/   spine_runtime / spine_loader / spine_compiler extension modules and the frontend
#             package native/ (simple_compile, module_loader, the compile service)
#   include/  the headers generated C++ includes (codegen_support.h, value.h, ...)
if(NOT TARGET spine_runtime_py OR NOT TARGET spine_loader_py OR NOT TARGET spine_compiler_py)
  return()  # sanitizer builds have no Python modules, hence no toolchain
endif()
set_target_properties(spine_runtime spine_loader spine_compiler PROPERTIES INSTALL_RPATH "$ORIGIN")
set_target_properties(spine_runtime_py spine_loader_py spine_compiler_py PROPERTIES INSTALL_RPATH "$ORIGIN/../lib")
install(TARGETS spine_runtime spine_loader spine_compiler LIBRARY DESTINATION lib COMPONENT native)
install(TARGETS spine_runtime_py spine_loader_py spine_compiler_py LIBRARY DESTINATION python COMPONENT native)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/guest/native DESTINATION python COMPONENT native
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/ ${PROJECT_SOURCE_DIR}/runtime/compiler/include/
        DESTINATION include COMPONENT native)
# Bytecode for the frontend and the loader, so that neither the compile
# service nor a zygote compiles them from source in every process (the
# zygote's import of native.loader: 7.5 ms of CPU without, 3.8 ms with).
# checked-hash: valid whatever the files' times after a copy (make build's
# cp -r), and never stale: Python compares it with the source's hash.
# The cache identity skips __pycache__ (it follows from the sources).
install(CODE "execute_process(COMMAND /usr/bin/python3 -m compileall -q -f --invalidation-mode checked-hash
                \"\${CMAKE_INSTALL_PREFIX}/python/native\" COMMAND_ERROR_IS_FATAL ANY)" COMPONENT native)
# pch/: the codegen header precompiled with the flags modules are compiled
# with (native.compiler.precompile_header, so the flags are written once),
# and the digest of the headers it was built from: it saves each module's
# compile the 20-40 ms of parsing the header.
install(CODE "execute_process(COMMAND /usr/bin/python3 -I -S -c
                \"import sys; sys.path.insert(0, sys.argv[1] + '/python'); from native.compiler import precompile_header; precompile_header(sys.argv[1] + '/include', sys.argv[1] + '/pch')\"
                \"\${CMAKE_INSTALL_PREFIX}\" COMMAND_ERROR_IS_FATAL ANY)" COMPONENT native)
# toolchain.stamp, written last by every install: the host takes its metadata
# (one stat) for the state of the whole toolchain when it looks up the cache
# identity it remembers, instead of statting every file in every process
# (internal/native/identity_memo.go). The identity itself leaves it out.
install(CODE "string(TIMESTAMP installed \"%Y-%m-%dT%H:%M:%SZ\" UTC)
              file(WRITE \"\${CMAKE_INSTALL_PREFIX}/toolchain.stamp\" \"installed \${installed}\\n\")" COMPONENT native)
