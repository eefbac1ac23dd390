/*
 * scratch.h: each child's private, size-capped working directory.
 *
 * The zygote mounted SPINE_SCRATCH_SLOTS tmpfs slots (mount.c). It gives a
 * free slot to each child it forks and empties the slot when the child is
 * reaped, before any other child can have it: the files of one execution
 * are never seen by another. The child makes the slot its working directory
 * and its TMPDIR and narrows Landlock to it (policy.c).
 */
#ifndef SPINE_SANDBOX_SCRATCH_H
#define SPINE_SANDBOX_SCRATCH_H

#include <stddef.h>
#include <sys/types.h>

/* Whether slots exist (the zygote has its private root). */
void spine_scratch_enable(void);
/* A free slot for a child about to be forked, or -1 (none enabled: -2). */
int spine_scratch_take(void);
/* Record the child that got `slot`; a failed fork gives it back with pid 0. */
void spine_scratch_assign(int slot, pid_t pid);
/* The child `pid` ended: empty its slot and free it. */
void spine_scratch_release(pid_t pid);
/* The path of `slot` into buf. */
int spine_scratch_path(int slot, char *buf, size_t cap);

#endif /* SPINE_SANDBOX_SCRATCH_H */
