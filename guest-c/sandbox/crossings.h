/*
 * crossings.h: a child's crossings to the host, from any of its threads at
 * once. See crossings.c.
 */
#ifndef SPINE_SANDBOX_CROSSINGS_H
#define SPINE_SANDBOX_CROSSINGS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* The child's channel to the host, once it has moved its descriptors. */
#define SPINE_CHILD_FD 3

/* Send a frame that is not a crossing (ready, done, result, failed) whole,
 * never inside another thread's frame. -1 when the channel is gone. */
int spine_channel_send(int kind, const struct iovec *parts, int count);

/*
 * One crossing: the frame `kind` with `handle` and the request, then its
 * answer, whichever thread reads it off the channel. The answer frame's
 * payload (SPINE_ANSWER_HEAD_LEN bytes of head, then the response) is
 * malloc'd into *payload. A native crossing (fds given) has the channel to
 * itself, so the descriptors that come with its answer are its own.
 * -1 when the channel broke or the host answered out of turn.
 */
int spine_crossing(int kind, uint64_t handle, const char *request, size_t request_len,
                   unsigned char **payload, uint32_t *len, int *fds, int *nfds);

#endif /* SPINE_SANDBOX_CROSSINGS_H */
