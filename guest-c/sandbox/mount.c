/*
 * mount.c: what a child can see of the filesystem at all.
 *
 * Landlock governs opening files and listing directories, not stat,
 * readlink or path lookups: under it alone a program still learns the host's
 * file names, sizes and times, and through /proc the host's PIDs. So the
 * zygote, which runs in its own user, mount and PID namespaces, replaces its
 * root once, before it drops its capabilities (a mount needs them) and
 * enters Landlock (which forbids mounts), and before it forks anything:
 *
 *   /                      tmpfs, read-only, a few directories, and the
 *                          host's top-level links into /usr (merged /usr:
 *                          the interpreter's path is /lib/python3.11)
 *   /usr/lib/python3.11    the stdlib, bind-mounted read-only (children
 *                          import from it lazily; Landlock still hides
 *                          ctypes and the rest inside it)
 *   /usr/share/zoneinfo    the time zone database, read-only
 *   /scratch/N             one size-capped tmpfs per scratch slot: the
 *                          working directory of one child at a time
 *   /tmp                   a link to /proc/self/cwd: a child's scratch slot
 *   /proc                  a new procfs of the zygote's PID namespace with
 *                          hidepid=ptraceable (a process finds, even by
 *                          name, only those it may trace: every other one
 *                          here is non-dumpable, so each child finds only
 *                          itself) and subset=pid (no system-wide files)
 *
 * and pivot_root detaches the host's tree: no path leads back to it. Every
 * child inherits the view across fork, so a child pays nothing for it.
 * Nothing else is needed: a child's stdin is the /dev/null the zygote opened
 * before, randomness comes from getrandom(2), and a native module arrives as
 * a descriptor (opened as /proc/self/fd/N), never by a path into the cache.
 *
 * Each step is a small function that fails closed: on error the zygote
 * reports the step and never forks. Until pivot_root succeeds, the mounts
 * made so far are only in the zygote's own mount namespace, under STAGE.
 */
#define _GNU_SOURCE
#include "mount.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "policy.h"

/* Where the new root is assembled: any existing directory will do, the tmpfs
 * over it lives only in the zygote's mount namespace. */
#define STAGE "/tmp"

static char g_error[512];

const char *spine_mount_error(void) { return g_error; }

static int mount_fail(const char *step) {
  snprintf(g_error, sizeof g_error, "private root: %s: %s", step, strerror(errno));
  return -1;
}

/* Nothing mounted from here on propagates to the host's namespace (and
 * nothing of the host's propagates in). */
static int make_mounts_private(void) {
  return mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ? mount_fail("making every mount private") : 0;
}

/* The new root: a tmpfs just big enough for a few directories. */
static int mount_stage(void) {
  if (mount("tmpfs", STAGE, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=32k,nr_inodes=128,mode=0755") < 0) {
    return mount_fail("mounting the tmpfs root on " STAGE);
  }
  return 0;
}

/* mkdir -p of `path` (absolute) under STAGE. */
static int make_dirs(const char *path) {
  char buf[256];
  if (snprintf(buf, sizeof buf, STAGE "%s", path) >= (int)sizeof buf) {
    errno = ENAMETOOLONG;
    return mount_fail(path);
  }
  for (char *slash = buf + strlen(STAGE) + 1;; slash++) {
    if (*slash != '/' && *slash != 0) {
      continue;
    }
    char saved = *slash;
    *slash = 0;
    if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
      return mount_fail(buf);
    }
    *slash = saved;
    if (saved == 0) {
      return 0;
    }
  }
}

/* The flags a remount of a bind mount in a user namespace must keep: those
 * of the source mount the kernel locked when it copied the host's tree. */
static unsigned long locked_flags(const char *source) {
  struct statvfs st;
  unsigned long flags = 0;
  if (statvfs(source, &st) == 0) {
    if (st.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
    if (st.f_flag & ST_NOATIME) flags |= MS_NOATIME;
    if (st.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
    if (st.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  }
  return flags;
}

/* `dir` of the host, at the same path in the new root, read-only. */
static int bind_read_only(const char *dir) {
  char target[256];
  if (snprintf(target, sizeof target, STAGE "%s", dir) >= (int)sizeof target) {
    errno = ENAMETOOLONG;
    return mount_fail(dir);
  }
  if (make_dirs(dir) < 0) {
    return -1;
  }
  if (mount(dir, target, NULL, MS_BIND | MS_REC, NULL) < 0) {
    return mount_fail(dir);
  }
  unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | locked_flags(dir);
  if (mount(NULL, target, NULL, flags, NULL) < 0) {
    return mount_fail("making a bind mount read-only");
  }
  return 0;
}

/* On a merged-/usr system /lib is a symlink to usr/lib, and the interpreter
 * finds its stdlib as /lib/python3.11: the new root gets the same top-level
 * links into /usr (they point at nothing else that is there). */
static int mirror_usr_links(void) {
  DIR *root = opendir("/");
  if (root == NULL) {
    return mount_fail("listing /");
  }
  int rc = 0;
  struct dirent *entry;
  while (rc == 0 && (entry = readdir(root)) != NULL) {
    char target[256], link[256];
    if (entry->d_type != DT_LNK) {
      continue;
    }
    ssize_t n = readlinkat(dirfd(root), entry->d_name, target, sizeof target - 1);
    if (n <= 0) {
      continue;
    }
    target[n] = 0;
    if (strncmp(target, "usr/", 4) != 0 && strncmp(target, "/usr/", 5) != 0) {
      continue;
    }
    if (snprintf(link, sizeof link, STAGE "/%s", entry->d_name) >= (int)sizeof link ||
        symlink(target, link) < 0) {
      rc = mount_fail("mirroring a link into /usr");
    }
  }
  closedir(root);
  return rc;
}

static int mount_proc(void) {
  if (make_dirs("/proc") < 0) {
    return -1;
  }
  if (mount("proc", STAGE "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
            "hidepid=ptraceable,subset=pid") < 0) {
    return mount_fail("mounting a private /proc (hidepid=ptraceable,subset=pid)");
  }
  return 0;
}

/* The time zone database, for zoneinfo; a host without one has none to give
 * (zoneinfo then raises ZoneInfoNotFoundError). */
static int bind_zoneinfo(void) {
  struct stat st;
  if (stat(SPINE_ZONEINFO_DIR, &st) < 0 && errno == ENOENT) {
    return 0;
  }
  return bind_read_only(SPINE_ZONEINFO_DIR);
}

/* One tmpfs per scratch slot, each capped in bytes and inodes: a child's
 * working directory (scratch.c hands out the slots). They are mounted now
 * because nothing can be mounted once the zygote has dropped its
 * capabilities and entered Landlock. */
static int mount_scratch_slots(void) {
  char options[96];
  snprintf(options, sizeof options, "size=%llu,nr_inodes=%d,mode=0700",
           (unsigned long long)SPINE_SCRATCH_BYTES, SPINE_SCRATCH_INODES);
  for (int slot = 0; slot < SPINE_SCRATCH_SLOTS; slot++) {
    char dir[64], target[96];
    snprintf(dir, sizeof dir, SPINE_SCRATCH_DIR "/%d", slot);
    snprintf(target, sizeof target, STAGE "%s", dir);
    if (make_dirs(dir) < 0) {
      return -1;
    }
    if (mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, options) < 0) {
      return mount_fail("mounting a scratch tmpfs");
    }
  }
  return 0;
}

/* /tmp names each process's own working directory, its scratch slot: one
 * link in the shared root, a different directory for every child. */
static int link_tmp(void) {
  if (symlink("/proc/self/cwd", STAGE "/tmp") < 0) {
    return mount_fail("linking /tmp to the working directory");
  }
  return 0;
}

/* Nothing more is created: the root itself becomes read-only. */
static int seal_stage(void) {
  if (mount(NULL, STAGE, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
    return mount_fail("making the root read-only");
  }
  return 0;
}

/* pivot_root(".", ".") stacks the old root on the new one; detaching it
 * leaves no mount, and so no path, of the host's tree in this namespace. */
static int enter_stage(void) {
  if (chdir(STAGE) < 0) {
    return mount_fail("chdir to the new root");
  }
  if (syscall(SYS_pivot_root, ".", ".") < 0) {
    return mount_fail("pivot_root");
  }
  if (umount2(".", MNT_DETACH) < 0) {
    return mount_fail("detaching the host's tree");
  }
  if (chdir("/") < 0) {
    return mount_fail("chdir /");
  }
  return 0;
}

/* Checked, never assumed: the root is our tmpfs and /proc is the new one
 * (its "self" names our PID in this namespace, not the host's). */
static int check_view(void) {
  struct statfs root;
  if (statfs("/", &root) < 0 || root.f_type != TMPFS_MAGIC || !(root.f_flags & ST_RDONLY)) {
    errno = EPERM;
    return mount_fail("the root is not the read-only tmpfs");
  }
  char self[32], expected[32];
  ssize_t n = readlink("/proc/self", self, sizeof self - 1);
  snprintf(expected, sizeof expected, "%d", (int)getpid());
  if (n <= 0 || (self[n] = 0, strcmp(self, expected) != 0)) {
    errno = EPERM;
    return mount_fail("/proc is not this PID namespace's");
  }
  return 0;
}

int spine_private_root(void) {
  if (make_mounts_private() < 0 || mount_stage() < 0 || bind_read_only(SPINE_STDLIB_DIR) < 0 ||
      bind_zoneinfo() < 0 || mirror_usr_links() < 0 || mount_proc() < 0 || mount_scratch_slots() < 0 || link_tmp() < 0 ||
      seal_stage() < 0 || enter_stage() < 0 || check_view() < 0) {
    return -1;
  }
  return 0;
}
