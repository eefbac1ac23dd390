/*
 * native.c: hot functions in the sandbox. The host may send, before the init
 * message, a 'N' control frame naming the native toolchain's Python
 * directory; the zygote then imports the module loader (and with it
 * libspine_runtime / libspine_loader, not the compiler library) before it
 * forks, because a confined child can read neither. Compilation never
 * happens here.
 *
 * A child reads nothing of the module cache: it is not in the child's root
 * (mount.c) and Landlock grants nothing there. The host hands each module
 * over as a descriptor of a sealed in-memory copy, with the answer that says
 * it is ready (SCM_RIGHTS on the child's channel); the loader dlopens it as
 * /proc/self/fd/N. A memfd lives on the kernel's internal tmpfs, which
 * Landlock leaves alone, while reopening a cache file through /proc would
 * be checked against the cache's path and refused.
 */
#define _GNU_SOURCE
#include "native.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "spine_protocol.h"
#include "spine_runtime.h"

static char *g_python_dir; /* NULL: native functions are off */
static char g_native_error[1200];

const char *spine_native_error(void) { return g_native_error; }

int spine_native_config(const unsigned char *payload, uint32_t len) {
  if (len == 0 || payload[0] != '/' || memchr(payload, 0, len) != NULL) {
    snprintf(g_native_error, sizeof g_native_error, "native setup needs the toolchain's absolute python directory");
    return -1;
  }
  free(g_python_dir);
  g_python_dir = strndup((const char *)payload, len);
  if (g_python_dir == NULL) {
    snprintf(g_native_error, sizeof g_native_error, "native setup: out of memory");
    return -1;
  }
  return 0;
}

int spine_native_setup(uintptr_t token) {
  if (g_python_dir == NULL) {
    return 0;
  }
  if (spine_call_entry(token, "native_setup", g_python_dir, strlen(g_python_dir)) != 0) {
    snprintf(g_native_error, sizeof g_native_error, "native setup: %s", spine_last_error());
    return -1;
  }
  return 0;
}

/* The descriptors of one control message, appended to fds. */
static void take_rights(struct msghdr *msg, int *fds, int *nfds) {
  for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c != NULL; c = CMSG_NXTHDR(msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) {
      continue;
    }
    size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; i++) {
      int fd;
      memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      if (*nfds < SPINE_NATIVE_FDS_MAX) {
        fds[(*nfds)++] = fd;
      } else {
        close(fd);
      }
    }
  }
}

/* How many descriptors a child can take and still dlopen one of them (which
 * needs a descriptor of its own): RLIMIT_NOFILE less those open, less one.
 * The kernel installs no more than the control buffer holds (its length
 * counts exactly, so CMSG_LEN, not the padded CMSG_SPACE) and drops the rest
 * (MSG_CTRUNC); the loader says which modules did not arrive. Asked only
 * for a native answer. */
static size_t descriptor_room(void) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) < 0) {
    return 0;
  }
  size_t open = 0, max = limit.rlim_cur < 4096 ? (size_t)limit.rlim_cur : 4096;
  for (size_t fd = 0; fd < max; fd++) {
    if (fcntl((int)fd, F_GETFD) >= 0) {
      open++;
    }
  }
  size_t room = max > open + 1 ? max - open - 1 : 0;
  return room < SPINE_NATIVE_FDS_MAX ? room : SPINE_NATIVE_FDS_MAX;
}

int spine_recv_with_fds(int fd, void *buf, size_t n, int *fds, int *nfds) {
  char *p = buf;
  size_t room = descriptor_room();
  while (n > 0) {
    union {
      struct cmsghdr align;
      char bytes[CMSG_SPACE(SPINE_NATIVE_FDS_MAX * sizeof(int))];
    } control;
    struct iovec iov = {p, n};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = room > 0 ? control.bytes : NULL,
                         .msg_controllen = room > 0 ? CMSG_LEN(room * sizeof(int)) : 0};
    ssize_t r = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r <= 0) {
      return -1;
    }
    take_rights(&msg, fds, nfds);
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

int spine_native_attach_fds(unsigned char **payload, uint32_t *len, uint32_t offset, const int *fds, int nfds) {
  if (*len <= offset || (*payload)[offset] != '{') {
    return -1;
  }
  char list[16 + SPINE_NATIVE_FDS_MAX * 12];
  size_t used = (size_t)snprintf(list, sizeof list, "{\"" SPINE_NATIVE_DESCRIPTORS "\":[");
  for (int i = 0; i < nfds; i++) {
    used += (size_t)snprintf(list + used, sizeof list - used, i > 0 ? ",%d" : "%d", fds[i]);
  }
  /* `{}` stays valid: `{"fds":[..]}`; otherwise a comma before the host's members. */
  int empty = (*payload)[offset + 1] == '}';
  used += (size_t)snprintf(list + used, sizeof list - used, empty ? "]" : "],");
  size_t rest = *len - offset - 1; /* after the host's `{` */
  unsigned char *grown = malloc(offset + used + rest + 1);
  if (grown == NULL) {
    return -1;
  }
  memcpy(grown, *payload, offset);
  memcpy(grown + offset, list, used);
  memcpy(grown + offset + used, *payload + offset + 1, rest);
  grown[offset + used + rest] = 0;
  free(*payload);
  *payload = grown;
  *len = (uint32_t)(offset + used + rest);
  return 0;
}
