/**
 * @file module_runtime_api.h
 * @brief The runtime services (SpineRuntimeApi of module_abi.h) the module
 * loader installs in every generated module: borrowed reads of runtime
 * lists, tuples, dicts, sets and strings, and builders of owned results.
 */
#ifndef SPINE_COMPILER_MODULE_RUNTIME_API_H_
#define SPINE_COMPILER_MODULE_RUNTIME_API_H_

#include "spine/compiler/module_abi.h"

namespace spine::compiler {

namespace rt = ::spine::runtime;

/** The process-wide table (static storage; never null). */
const SpineRuntimeApi* ModuleRuntimeApi();

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_MODULE_RUNTIME_API_H_
