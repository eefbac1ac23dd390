/**
 * \file native.h
 * \brief Hot functions in the sandbox: load the module loader in the zygote
 *        before forking, and hand a child's compiled modules to it as
 *        descriptors. See native.c.
 */
#ifndef SPINE_SANDBOX_NATIVE_H
#define SPINE_SANDBOX_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#include "spine_protocol.h" /* SPINE_NATIVE_FDS_MAX */

/** \brief Take the 'N' control frame: the toolchain's python dir (absolute). -1 if malformed. */
int spine_native_config(const unsigned char *payload, uint32_t len);

/** \brief After spine_init: import the module loader (bootstrap.native_setup). 0 when native is off. */
int spine_native_setup(uintptr_t token);

/**
 * \brief Read exactly `n` bytes of the channel `fd`, keeping the descriptors
 *        that come with them (SCM_RIGHTS, close-on-exec) in `fds`; *nfds
 *        counts them. Those beyond SPINE_NATIVE_FDS_MAX are not received.
 *        -1 when the channel ends or fails.
 */
int spine_recv_with_fds(int fd, void *buf, size_t n, int *fds, int *nfds);

/**
 * \brief Give the answer to a native crossing the descriptors that came with
 *        it: the host's JSON object at `*payload + offset` becomes
 *        `{"fds":[N,...],...}`, so the loader opens the module of the unit
 *        whose "module" is i as /proc/self/fd/<fds[i]>. The payload is
 *        reallocated. -1 (nothing changed) when it is not a JSON object or
 *        memory is short.
 */
int spine_native_attach_fds(unsigned char **payload, uint32_t *len, uint32_t offset, const int *fds, int nfds);

/** \brief Why the last native step failed. */
const char *spine_native_error(void);

#endif /* SPINE_SANDBOX_NATIVE_H */
