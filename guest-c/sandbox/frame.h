/*
 * frame.h: frames on a stream channel (a child's channel to the host):
 * kind (1 byte), payload length (u32 little-endian), payload. The kinds and
 * layouts are internal/protocol's (frame.go), mirrored by spine_protocol.h.
 */
#ifndef SPINE_SANDBOX_FRAME_H
#define SPINE_SANDBOX_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* Little-endian integers in frames. */
static inline void put_u32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static inline void put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static inline uint32_t get_u32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t get_u64(const unsigned char *p) {
  return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

/* Read exactly n bytes (retrying EINTR); -1 when the channel ends or fails. */
int read_all(int fd, void *buf, size_t n);

/* Write one frame made of at most 7 parts, in one writev where it fits. Not
 * safe against another writer of the same channel: callers serialise (the
 * child's channel: spine_channel_send). */
int send_frame(int fd, int kind, const struct iovec *parts, int count);

/* Read one frame; the payload is malloc'd and NUL-terminated. With fds, the
 * descriptors that came with it (a native answer's modules) land there. */
int recv_frame(int fd, int *kind, unsigned char **payload, uint32_t *len, int *fds, int *nfds);

#endif /* SPINE_SANDBOX_FRAME_H */
