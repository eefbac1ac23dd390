/* scratch.c: the zygote's bookkeeping of the children's scratch slots. */
#define _GNU_SOURCE
#include "scratch.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"

static int g_enabled;
static pid_t g_owner[SPINE_SCRATCH_SLOTS]; /* 0: free; -1: being forked */

void spine_scratch_enable(void) { g_enabled = 1; }

int spine_scratch_take(void) {
  if (!g_enabled) {
    return -2;
  }
  for (int slot = 0; slot < SPINE_SCRATCH_SLOTS; slot++) {
    if (g_owner[slot] == 0) {
      g_owner[slot] = -1;
      return slot;
    }
  }
  return -1;
}

void spine_scratch_assign(int slot, pid_t pid) {
  if (slot >= 0) {
    g_owner[slot] = pid;
  }
}

int spine_scratch_path(int slot, char *buf, size_t cap) {
  return snprintf(buf, cap, SPINE_SCRATCH_DIR "/%d", slot) >= (int)cap ? -1 : 0;
}

/* Remove everything under the directory `dirfd` (closed here). A child that
 * died is gone with all its descriptors, so nothing changes underneath. */
static void empty_dir(int dirfd) {
  DIR *d = fdopendir(dirfd);
  if (d == NULL) {
    close(dirfd);
    return;
  }
  struct dirent *entry;
  while ((entry = readdir(d)) != NULL) {
    const char *name = entry->d_name;
    if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) {
      continue;
    }
    if (unlinkat(dirfd, name, 0) == 0) {
      continue;
    }
    int sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub >= 0) {
      empty_dir(sub);
      unlinkat(dirfd, name, AT_REMOVEDIR);
    }
  }
  closedir(d);
}

void spine_scratch_release(pid_t pid) {
  for (int slot = 0; slot < SPINE_SCRATCH_SLOTS; slot++) {
    if (g_owner[slot] != pid || pid <= 0) {
      continue;
    }
    char path[64];
    int fd = spine_scratch_path(slot, path, sizeof path) < 0
                 ? -1
                 : open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      return; /* never handed out again: a slot that cannot be emptied stays taken */
    }
    empty_dir(fd);
    g_owner[slot] = 0;
    return;
  }
}
