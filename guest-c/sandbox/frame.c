/*
 * frame.c: frames on a stream channel; see frame.h.
 */
#define _GNU_SOURCE
#include "frame.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "native.h" /* spine_recv_with_fds */
#include "spine_protocol.h"

int read_all(int fd, void *buf, size_t n) {
  char *p = buf;
  while (n > 0) {
    ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r <= 0) {
      return -1;
    }
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

/* One frame from parts, in one writev: the host wakes once per frame, not
 * once per part, and a frame is never interleaved with another. */
#define FRAME_PARTS_MAX 8

int send_frame(int fd, int kind, const struct iovec *parts, int count) {
  if (count + 1 > FRAME_PARTS_MAX) {
    return -1;
  }
  size_t total = 0;
  for (int i = 0; i < count; i++) total += parts[i].iov_len;
  if (total > UINT32_MAX) {
    return -1;
  }
  unsigned char header[SPINE_FRAME_HEADER_LEN];
  header[0] = (unsigned char)kind;
  put_u32(header + 1, (uint32_t)total);
  struct iovec iov[FRAME_PARTS_MAX];
  iov[0] = (struct iovec){header, sizeof header};
  int n = 1;
  for (int i = 0; i < count; i++) {
    if (parts[i].iov_len > 0) iov[n++] = parts[i];
  }
  struct iovec *next = iov;
  while (n > 0) {
    ssize_t w = writev(fd, next, n);
    if (w < 0 && errno == EINTR) {
      continue;
    }
    if (w <= 0) {
      return -1;
    }
    /* A short write (a frame larger than the socket buffer): skip what went. */
    while (n > 0 && (size_t)w >= next->iov_len) {
      w -= (ssize_t)next->iov_len;
      next++;
      n--;
    }
    if (n > 0) {
      next->iov_base = (char *)next->iov_base + w;
      next->iov_len -= (size_t)w;
    }
  }
  return 0;
}

/* Read one frame; the payload is malloc'd (NUL-terminated for convenience).
 * Descriptors the host sent with it (a native answer's modules) are put in
 * fds, when given; without fds, a frame never carries any. */
int recv_frame(int fd, int *kind, unsigned char **payload, uint32_t *len, int *fds, int *nfds) {
  unsigned char header[SPINE_FRAME_HEADER_LEN];
  if ((fds != NULL ? spine_recv_with_fds(fd, header, sizeof header, fds, nfds)
                   : read_all(fd, header, sizeof header)) < 0) {
    return -1;
  }
  *kind = header[0];
  *len = get_u32(header + 1);
  if (*len > SPINE_HOST_FRAME_MAX) {
    return -1;
  }
  *payload = malloc((size_t)*len + 1);
  if (*payload == NULL) {
    return -1;
  }
  if (read_all(fd, *payload, *len) < 0) {
    free(*payload);
    return -1;
  }
  (*payload)[*len] = 0;
  return 0;
}
