/**
 * \file native.h
 * \brief Hot functions in the zygote: load the module loader before forking,
 *        and let children read (only) the native module cache. See native.c.
 */
#ifndef SPINE_SANDBOX_NATIVE_H
#define SPINE_SANDBOX_NATIVE_H

#include <stdint.h>

/** \brief Take the 'N' control frame: python dir NUL cache dir. -1 if malformed. */
int spine_native_config(const unsigned char *payload, uint32_t len);

/** \brief After spine_init: import the module loader (bootstrap.native_setup). 0 when native is off. */
int spine_native_setup(uintptr_t token);

/** \brief Grant the ruleset read access to the cache directory. 0 when native is off. */
int spine_native_landlock(int ruleset);

/** \brief Why the last native step failed. */
const char *spine_native_error(void);

#endif /* SPINE_SANDBOX_NATIVE_H */
