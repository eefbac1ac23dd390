/*
 * policy.c: what a sandboxed child does to itself before it reads any
 * untrusted byte. Every step fails closed: a step that cannot be applied
 * returns -1 and the child exits without serving (the host sees a crash of a
 * child that never ran anything, never a child running with less confinement
 * than it reported). RATIONALE.md explains the choices.
 */
#define _GNU_SOURCE
#include "policy.h"

#include <dirent.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

static char g_error[512];

const char *spine_last_policy_error(void) { return g_error; }

static int policy_fail(const char *what) {
  snprintf(g_error, sizeof g_error, "%s: %s", what, strerror(errno));
  return -1;
}

/* ---- Landlock -------------------------------------------------------------
 * Debian 12's kernel headers stop at ABI 2; the kernel we run on may be much
 * newer, so the constants of later ABIs are spelled out here. The ruleset
 * attribute grows with the ABI; we pass the size the running ABI knows. */

#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_FS_EXECUTE (1ULL << 0)
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_READ_FILE (1ULL << 2)
#define LL_FS_READ_DIR (1ULL << 3)
#define LL_FS_ALL_V1 ((1ULL << 13) - 1)
#define LL_FS_REFER (1ULL << 13)    /* ABI 2 */
#define LL_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#define LL_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#define LL_NET_BIND_TCP (1ULL << 0)    /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ULL << 1) /* ABI 4 */
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)        /* ABI 6 */

struct ll_ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

struct ll_path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

#define STDLIB_DIR SPINE_STDLIB_DIR
#define DYNLOAD_DIR STDLIB_DIR "/lib-dynload"
#define PYCACHE_DIR STDLIB_DIR "/__pycache__"

/* Top-level stdlib entries a program never gets to read: native escape
 * hatches (ctypes), process and socket machinery the seccomp floor would kill
 * anyway, and the build configuration. Everything else under the stdlib is
 * readable, nothing is writable. */
static const char *const k_stdlib_denied[] = {
    "ctypes", "multiprocessing", "ensurepip", "venv", "idlelib",
    "tkinter", "turtledemo", "test", "lib-dynload", "subprocess.py", "socket.py",
    "socketserver.py", "pty.py", "asyncio", "config-3.11-x86_64-linux-gnu", NULL};

/* Extension modules (lib-dynload) a program may load, by name prefix: an
 * allowlist, so a new .so dropped in by an upgrade stays unreadable. _ctypes,
 * mmap, _multiprocessing, _posixshmem, _test*, _xx*, readline, termios, _ssl,
 * _asyncio and the rest are not on it. */
static const char *const k_dynload_allowed[] = {
    "_bz2.", "_codecs_", "_contextvars.", "_decimal.", "_hashlib.", "_json.",
    "_lsprof.", "_lzma.", "_multibytecodec.", "_queue.", "_typing.", "_uuid.",
    "_zoneinfo.", "audioop.", NULL};

static int listed(const char *name, const char *const *list, int prefix) {
  for (size_t i = 0; list[i] != NULL; i++) {
    if (prefix ? strncmp(name, list[i], strlen(list[i])) == 0 : strcmp(name, list[i]) == 0) {
      return 1;
    }
  }
  return 0;
}

/* Which entries of a directory are granted. */
typedef int (*granted_fn)(const char *name);

/* The stdlib's top level: all but the denied entries, and but __pycache__,
 * which gets rules of its own (pycache_granted). */
static int stdlib_granted(const char *name) {
  return !listed(name, k_stdlib_denied, 0) && strcmp(name, "__pycache__") != 0;
}

static int dynload_granted(const char *name) { return listed(name, k_dynload_allowed, 1); }

/* The stdlib's __pycache__: the compiled bytecode of every module but the
 * denied ones. Without this, `import socket` past the import blocker loads
 * socket.cpython-311.pyc, which the import system prefers to the unreadable
 * socket.py once stat (which Landlock does not govern) says it is fresh. */
static int pycache_granted(const char *name) {
  char source[128];
  size_t module = strcspn(name, ".");
  if (module + sizeof ".py" > sizeof source) {
    return 0;
  }
  memcpy(source, name, module);
  memcpy(source + module, ".py", sizeof ".py");
  return !listed(source, k_stdlib_denied, 0);
}

static int add_rule(int ruleset, int dirfd, const char *path, uint64_t access) {
  int fd = openat(dirfd, path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    return policy_fail(path);
  }
  struct ll_path_beneath_attr attr = {.allowed_access = access, .parent_fd = fd};
  long rc = syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &attr, 0);
  int saved = errno;
  close(fd);
  errno = saved;
  return rc < 0 ? policy_fail("landlock_add_rule") : 0;
}

/* One rule per allowed entry of `dir`: Landlock grants, never subtracts, so
 * "the stdlib minus ctypes" is spelled as every entry but ctypes. */
static int add_entries(int ruleset, const char *dir, granted_fn granted) {
  int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirfd < 0) {
    return policy_fail(dir);
  }
  DIR *d = fdopendir(dirfd);
  if (d == NULL) {
    close(dirfd);
    return policy_fail(dir);
  }
  int rc = 0;
  struct dirent *entry;
  while (rc == 0 && (entry = readdir(d)) != NULL) {
    const char *name = entry->d_name;
    if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) {
      continue;
    }
    if (!granted(name)) {
      continue;
    }
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
      continue; /* vanished or unreadable: simply not granted */
    }
    if (S_ISDIR(st.st_mode)) {
      rc = add_rule(ruleset, dirfd, name, LL_FS_READ_FILE | LL_FS_READ_DIR);
    } else if (S_ISREG(st.st_mode)) {
      rc = add_rule(ruleset, dirfd, name, LL_FS_READ_FILE);
    }
  }
  closedir(d);
  return rc;
}

/* An installation without compiled bytecode has no __pycache__: nothing to grant. */
static int add_pycache(int ruleset) {
  struct stat st;
  if (stat(PYCACHE_DIR, &st) < 0 && errno == ENOENT) {
    return 0;
  }
  return add_rule(ruleset, AT_FDCWD, PYCACHE_DIR, LL_FS_READ_DIR) < 0 ? -1
                                                                     : add_entries(ruleset, PYCACHE_DIR, pycache_granted);
}

/* The filesystem rights Landlock handles at `abi`: all it knows. */
static uint64_t handled_fs(int abi) {
  uint64_t fs = LL_FS_ALL_V1;
  if (abi >= 2) fs |= LL_FS_REFER;
  if (abi >= 3) fs |= LL_FS_TRUNCATE;
  if (abi >= 5) fs |= LL_FS_IOCTL_DEV;
  return fs;
}

static int g_abi; /* the ABI spine_landlock_ruleset found; 0: no Landlock */

/* A directory that may be absent on this host (no tzdata, no private root
 * for the scratch slots): nothing to grant then. */
static int add_optional(int ruleset, const char *dir, uint64_t access) {
  struct stat st;
  if (stat(dir, &st) < 0 && errno == ENOENT) {
    return 0;
  }
  return add_rule(ruleset, AT_FDCWD, dir, access);
}

int spine_landlock_ruleset(int *abi) {
  *abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
  if (*abi <= 0) {
    *abi = 0;
    return policy_fail("landlock is not available in this kernel");
  }
  struct ll_ruleset_attr attr = {.handled_access_fs = handled_fs(*abi)};
  size_t size = sizeof attr.handled_access_fs;
  g_abi = *abi;
  if (*abi >= 4) {
    /* No TCP bind or connect at all: no rule ever grants them. */
    attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
    size = 2 * sizeof(uint64_t);
  }
  if (*abi >= 6) {
    /* No signal to and no abstract socket of a process outside the domain. */
    attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
    size = sizeof attr;
  }
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
  if (ruleset < 0) {
    return policy_fail("landlock_create_ruleset");
  }
  /* Listing the stdlib directory (the import system scans it) and reading the
   * entries that remain; the compiled bytecode and the extension modules one
   * by one. */
  if (add_rule(ruleset, AT_FDCWD, STDLIB_DIR, LL_FS_READ_DIR) < 0 ||
      add_entries(ruleset, STDLIB_DIR, stdlib_granted) < 0 ||
      add_pycache(ruleset) < 0 ||
      add_entries(ruleset, DYNLOAD_DIR, dynload_granted) < 0 ||
      add_optional(ruleset, SPINE_ZONEINFO_DIR, LL_FS_READ_FILE | LL_FS_READ_DIR) < 0 ||
      /* Every right in the scratch slots; each child narrows it to its own
       * (spine_landlock_scratch), and the zygote empties a slot when its
       * child ends. */
      add_optional(ruleset, SPINE_SCRATCH_DIR, handled_fs(*abi)) < 0) {
    close(ruleset);
    return -1;
  }
  return ruleset;
}

int spine_enter_landlock(int ruleset) {
  if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0) {
    return policy_fail("landlock_restrict_self");
  }
  return 0;
}

int spine_landlock_scratch(const char *dir) {
  if (g_abi <= 0) {
    return 0; /* no Landlock: the zygote's hello said so, the host decided */
  }
  struct ll_ruleset_attr attr = {.handled_access_fs = handled_fs(g_abi)};
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr.handled_access_fs, 0);
  if (ruleset < 0) {
    return policy_fail("landlock_create_ruleset (scratch)");
  }
  /* /usr holds the stdlib and the time zones; the zygote's layer still
   * decides what under it is readable. */
  int rc = add_rule(ruleset, AT_FDCWD, "/usr", LL_FS_READ_FILE | LL_FS_READ_DIR) < 0 ||
                   add_rule(ruleset, AT_FDCWD, dir, handled_fs(g_abi)) < 0 ||
                   spine_enter_landlock(ruleset) < 0
               ? -1
               : 0;
  close(ruleset);
  return rc;
}

/* ---- rlimits, capabilities ------------------------------------------------ */

static int limit2(int resource, uint64_t soft, uint64_t hard, const char *what) {
  struct rlimit rl = {.rlim_cur = soft, .rlim_max = hard};
  return setrlimit(resource, &rl) < 0 ? policy_fail(what) : 0;
}

static int limit(int resource, uint64_t value, const char *what) {
  struct rlimit rl = {.rlim_cur = value, .rlim_max = value};
  return setrlimit(resource, &rl) < 0 ? policy_fail(what) : 0;
}

int spine_apply_rlimits(const spine_limits *limits) {
  /* A file never grows past twice the scratch directory, so the tmpfs's
   * own ENOSPC is what a program that fills its scratch meets; should a
   * file ever reach the limit, SIGXFSZ is ignored and the write fails with
   * EFBIG instead of killing. */
  signal(SIGXFSZ, SIG_IGN);
  if (limit(RLIMIT_AS, limits->memory_bytes, "RLIMIT_AS") < 0 ||
      /* SIGXCPU at the soft limit (fatal: no handler), SIGKILL a second later
       * should the program have caught it. */
      limit2(RLIMIT_CPU, limits->cpu_seconds, limits->cpu_seconds + 1, "RLIMIT_CPU") < 0 ||
      limit(RLIMIT_CORE, 0, "RLIMIT_CORE") < 0 ||
      limit(RLIMIT_FSIZE, 2 * SPINE_SCRATCH_BYTES, "RLIMIT_FSIZE") < 0 ||
      limit(RLIMIT_NOFILE, limits->open_files, "RLIMIT_NOFILE") < 0 ||
      limit(RLIMIT_MEMLOCK, 0, "RLIMIT_MEMLOCK") < 0 ||
      limit(RLIMIT_MSGQUEUE, 0, "RLIMIT_MSGQUEUE") < 0 ||
      limit(RLIMIT_LOCKS, 0, "RLIMIT_LOCKS") < 0 ||
      /* Threads, not processes (seccomp kills a clone without CLONE_THREAD).
       * The kernel counts every task of the user, here the sandbox's user
       * namespace (the zygote and all children): a ceiling for the pool. A
       * child's own threads are bounded by its RLIMIT_AS (each stack is
       * mapped memory) and share its RLIMIT_CPU. */
      limit(RLIMIT_NPROC, SPINE_TASKS_MAX, "RLIMIT_NPROC") < 0) {
    return -1;
  }
  return 0;
}


int spine_drop_privileges(void) {
  /* Inside the user namespace the zygote is root of that namespace; without
   * one (a lowered level) it may be real root. Either way the child keeps no
   * capability at all. */
  for (int cap = 0; cap <= 63; cap++) {
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL) {
      return policy_fail("PR_CAPBSET_DROP");
    }
  }
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL) {
    return policy_fail("PR_CAP_AMBIENT_CLEAR_ALL");
  }
  struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  if (syscall(SYS_capset, &header, data) < 0) {
    return policy_fail("capset");
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
    return policy_fail("PR_SET_NO_NEW_PRIVS");
  }
  /* Non-dumpable: no core, and /proc/<pid> of the child is not its own to
   * hand out to a sibling. */
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
    return policy_fail("PR_SET_DUMPABLE");
  }
  return 0;
}

int spine_check_privileges(void) {
  struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[2];
  if (syscall(SYS_capget, &header, data) < 0) {
    return policy_fail("capget");
  }
  for (int i = 0; i < 2; i++) {
    if (data[i].effective != 0 || data[i].permitted != 0 || data[i].inheritable != 0) {
      errno = EPERM;
      return policy_fail("the child holds a capability");
    }
  }
  if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1 || prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0) {
    errno = EPERM;
    return policy_fail("no-new-privs or non-dumpable is not in force");
  }
  return 0;
}

/* ---- seccomp ---------------------------------------------------------------
 * An allowlist: what CPython needs to run already-loaded code, import from
 * the (Landlock-confined) stdlib, allocate, and talk over descriptors it
 * already holds. Everything else kills the whole process (SIGSYS), which the
 * host reports as a violation. */

static const int k_allowed[] = {
    SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev),
    SCMP_SYS(pread64), SCMP_SYS(lseek), SCMP_SYS(close),
    SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(statx), SCMP_SYS(stat),
    SCMP_SYS(lstat), SCMP_SYS(getdents64), SCMP_SYS(readlink),
    SCMP_SYS(readlinkat), SCMP_SYS(access), SCMP_SYS(faccessat),
    SCMP_SYS(faccessat2), SCMP_SYS(getcwd), SCMP_SYS(dup), SCMP_SYS(dup3),
    SCMP_SYS(brk), SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap),
    SCMP_SYS(mprotect), SCMP_SYS(madvise),
    SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn),
    SCMP_SYS(sigaltstack), SCMP_SYS(futex), SCMP_SYS(sched_yield),
    SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres), SCMP_SYS(clock_nanosleep),
    SCMP_SYS(nanosleep), SCMP_SYS(gettimeofday), SCMP_SYS(setitimer), SCMP_SYS(getpid),
    SCMP_SYS(gettid), SCMP_SYS(getppid), SCMP_SYS(getuid), SCMP_SYS(geteuid),
    SCMP_SYS(getgid), SCMP_SYS(getegid), SCMP_SYS(getrandom),
    SCMP_SYS(getrusage), SCMP_SYS(times), SCMP_SYS(uname),
    SCMP_SYS(sched_getaffinity), SCMP_SYS(rseq),
    SCMP_SYS(exit), SCMP_SYS(exit_group),
    /* asyncio's event loop: an epoll set, and the self-pipe (an AF_UNIX
     * socketpair, filtered below) read with recv and written with send;
     * socket objects made from a descriptor ask getsockname. recvfrom and
     * sendto on a connected stream are read and write: no new peer. */
    SCMP_SYS(epoll_create1), SCMP_SYS(epoll_ctl), SCMP_SYS(epoll_wait),
    SCMP_SYS(epoll_pwait), SCMP_SYS(recvfrom), SCMP_SYS(sendto),
    SCMP_SYS(getsockname),
};

static int rule(scmp_filter_ctx ctx, uint32_t action, int nr, unsigned count,
                const struct scmp_arg_cmp *args) {
  int rc = seccomp_rule_add_array(ctx, action, nr, count, args);
  if (rc < 0) {
    errno = -rc;
    return policy_fail("seccomp_rule_add");
  }
  return 0;
}

#ifdef SPINE_SECCOMP_DEBUG
static void on_sigsys(int sig, siginfo_t *info, void *uc) {
  (void)sig; (void)uc;
  char msg[64];
  int n = snprintf(msg, sizeof msg, "seccomp: forbidden syscall %d\n", info->si_syscall);
  write(2, msg, (size_t)n);
  _exit(99);
}
#define SPINE_DEFAULT_ACTION SCMP_ACT_TRAP
#else
#define SPINE_DEFAULT_ACTION SCMP_ACT_KILL_PROCESS
#endif

/* The filter is built once, in the zygote (libseccomp costs about half a
 * millisecond of CPU and a hundred page faults per build), with a sentinel
 * where the child's own pid belongs. A child copies nothing: it patches the
 * sentinel in its private copy of the program and loads it. */
#define SELF_SENTINEL 0x5e1f5e1fU

static struct sock_filter *g_filter;
static unsigned short g_filter_len;

/* Calls on files whose target Landlock checks (in the scratch directory
 * only): allowed when Landlock is in force, EACCES without it, so a program
 * that writes outside its scratch directory gets a PermissionError either
 * way, never a kill. */
static const int k_file_changes[] = {
    SCMP_SYS(mkdir), SCMP_SYS(mkdirat), SCMP_SYS(rmdir), SCMP_SYS(unlink), SCMP_SYS(unlinkat),
    SCMP_SYS(rename), SCMP_SYS(renameat), SCMP_SYS(renameat2), SCMP_SYS(symlink),
    SCMP_SYS(symlinkat), SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(truncate),
};

/* Calls on descriptors the child already holds (its files, its channel):
 * nothing new is reached. */
static const int k_descriptor_calls[] = {
    SCMP_SYS(ftruncate), SCMP_SYS(fsync), SCMP_SYS(fdatasync), SCMP_SYS(fallocate),
    SCMP_SYS(pwrite64), SCMP_SYS(pwritev), SCMP_SYS(preadv), SCMP_SYS(sendfile),
    SCMP_SYS(copy_file_range), SCMP_SYS(flock), SCMP_SYS(chdir), SCMP_SYS(fchdir),
    /* threads: the robust-futex list glibc registers for each */
    SCMP_SYS(set_robust_list),
};

/* Attribute changes Landlock does not govern: refused with EPERM (a
 * PermissionError) rather than a kill; the scratch files' modes and times
 * are the kernel's defaults. */
static const int k_attribute_changes[] = {
    SCMP_SYS(chmod), SCMP_SYS(fchmod), SCMP_SYS(fchmodat), SCMP_SYS(chown),
    SCMP_SYS(fchown), SCMP_SYS(lchown), SCMP_SYS(fchownat), SCMP_SYS(utimensat),
    SCMP_SYS(utimes), SCMP_SYS(utime), SCMP_SYS(futimesat),
};

static int rule(scmp_filter_ctx ctx, uint32_t action, int nr, unsigned count,
                const struct scmp_arg_cmp *args);

static int rule_each(scmp_filter_ctx ctx, uint32_t action, const int *calls, size_t count) {
  for (size_t i = 0; i < count; i++) {
    if (rule(ctx, action, calls[i], 0, NULL) < 0) {
      return -1;
    }
  }
  return 0;
}

/* EACCES for an openat with any writing flag (one rule per flag: a rule's
 * comparisons all must hold, and any one of these flags is writing). */
static int open_for_writing_refused(scmp_filter_ctx ctx, scmp_datum_t writing) {
  for (int bit = 0; bit < 32; bit++) {
    scmp_datum_t flag = (scmp_datum_t)1 << bit;
    if ((writing & flag) == 0) {
      continue;
    }
    struct scmp_arg_cmp set[] = {SCMP_A2(SCMP_CMP_MASKED_EQ, flag, flag)};
    if (rule(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 1, set) < 0) {
      return -1;
    }
  }
  return 0;
}

static int build_filter(scmp_filter_ctx ctx, int files_confined) {
  /* Only the native arch: i386 and x32 entry points (a classic way around a
   * filter written for x86_64 numbers) kill too. */
  if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) < 0) {
    errno = EINVAL;
    return policy_fail("seccomp_attr_set");
  }
  /* A binary tree over the syscall numbers instead of one comparison after
   * another: when a child loads the filter, the kernel runs it once per
   * syscall number to find those always allowed (its action cache), with
   * interrupts off, and every syscall the cache does not answer runs it
   * again. Both walk log(n) comparisons instead of up to n. */
  if (seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2) < 0) {
    errno = EINVAL;
    return policy_fail("seccomp_attr_set(SCMP_FLTATR_CTL_OPTIMIZE)");
  }
  for (size_t i = 0; i < sizeof k_allowed / sizeof k_allowed[0]; i++) {
    if (rule(ctx, SCMP_ACT_ALLOW, k_allowed[i], 0, NULL) < 0) {
      return -1;
    }
  }
  /* openat read-only: even were Landlock missing, nothing is created,
   * truncated or written through the filesystem. O_TMPFILE includes the
   * O_DIRECTORY bit (which opendir uses), so only its own bit is tested. */
  const scmp_datum_t writing = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | (O_TMPFILE & ~O_DIRECTORY);
  struct scmp_arg_cmp readonly[] = {SCMP_A2(SCMP_CMP_MASKED_EQ, writing, 0)};
  /* Threads of this process only: a clone without CLONE_THREAD (fork, a new
   * process) still kills. clone3 hides its flags in memory seccomp cannot
   * read: ENOSYS makes glibc fall back to clone. */
  struct scmp_arg_cmp thread[] = {SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)};
  /* fcntl record locks on its own descriptors (sqlite3 locks its files). */
  static const int fcntl_locks[] = {F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW};
  uint32_t file_action = files_confined ? SCMP_ACT_ALLOW : SCMP_ACT_ERRNO(EACCES);
  if (rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1, thread) < 0 ||
      rule(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0, NULL) < 0 ||
      rule_each(ctx, file_action, k_file_changes, sizeof k_file_changes / sizeof *k_file_changes) < 0 ||
      rule_each(ctx, SCMP_ACT_ALLOW, k_descriptor_calls, sizeof k_descriptor_calls / sizeof *k_descriptor_calls) < 0 ||
      rule_each(ctx, SCMP_ACT_ERRNO(EPERM), k_attribute_changes,
                sizeof k_attribute_changes / sizeof *k_attribute_changes) < 0) {
    return -1;
  }
  for (size_t i = 0; i < sizeof fcntl_locks / sizeof fcntl_locks[0]; i++) {
    struct scmp_arg_cmp cmd[] = {SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)fcntl_locks[i])};
    if (rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 1, cmd) < 0) {
      return -1;
    }
  }
  /* Signals only to this process (abort() is tgkill(self)); the sentinel
   * becomes the child's pid in spine_enter_seccomp. */
  struct scmp_arg_cmp to_self[] = {SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)SELF_SENTINEL)};
  /* fcntl: descriptor flags only; F_SETOWN/F_SETSIG could aim SIGIO elsewhere. */
  static const int fcntl_ok[] = {F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC};
  /* prlimit64 read-only, on itself: resource.getrlimit works, nothing is raised. */
  struct scmp_arg_cmp get_limit[] = {SCMP_A0(SCMP_CMP_EQ, 0), SCMP_A2(SCMP_CMP_EQ, 0)};
  /* ioctl: close-on-exec flags only; isatty's TCGETS is answered "not a
   * terminal" (true: the child has none) instead of killing. */
  struct scmp_arg_cmp fioclex[] = {SCMP_A1(SCMP_CMP_EQ, FIOCLEX)};
  struct scmp_arg_cmp fionclex[] = {SCMP_A1(SCMP_CMP_EQ, FIONCLEX)};
  struct scmp_arg_cmp tcgets[] = {SCMP_A1(SCMP_CMP_EQ, TCGETS)};
  /* TIOCGWINSZ likewise: shutil.get_terminal_size (argparse's help
   * formatter) asks it of stdout and falls back to 80x24 on ENOTTY. */
  struct scmp_arg_cmp tiocgwinsz[] = {SCMP_A1(SCMP_CMP_EQ, TIOCGWINSZ)};
  /* recvmsg with exactly MSG_CMSG_CLOEXEC: how a child reads a native answer,
   * whose compiled modules arrive as descriptors (SCM_RIGHTS) on the channel
   * it already holds; it creates or connects no socket. */
  struct scmp_arg_cmp cmsg_cloexec[] = {SCMP_A2(SCMP_CMP_EQ, MSG_CMSG_CLOEXEC)};
  /* ioctl FIONBIO: socket.setblocking (asyncio makes its self-pipe
   * non-blocking). */
  struct scmp_arg_cmp fionbio[] = {SCMP_A1(SCMP_CMP_EQ, FIONBIO)};
  /* socketpair AF_UNIX only: a pair of connected ends inside this process
   * (asyncio's self-pipe). socket, connect, bind and every other family
   * still kill. */
  struct scmp_arg_cmp unix_pair[] = {SCMP_A0(SCMP_CMP_EQ, AF_UNIX)};
  /* openat: with Landlock in force, any flags (Landlock allows writes and
   * creations in the scratch directory only, EACCES elsewhere); without it,
   * read-only, and opening for writing fails with EACCES. */
  if ((files_confined ? rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 0, NULL)
                      : rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1, readonly) < 0 ||
                            open_for_writing_refused(ctx, writing)) < 0 ||
      rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(kill), 1, to_self) < 0 ||
      rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, to_self) < 0 ||
      rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 2, get_limit) < 0 ||
      rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1, fioclex) < 0 ||
      rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1, fionclex) < 0 ||
      rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1, fionbio) < 0 ||
      rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socketpair), 1, unix_pair) < 0 ||
      rule(ctx, SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(ioctl), 1, tcgets) < 0 ||
      rule(ctx, SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(ioctl), 1, tiocgwinsz) < 0 ||
      rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(recvmsg), 1, cmsg_cloexec) < 0) {
    return -1;
  }
  for (size_t i = 0; i < sizeof fcntl_ok / sizeof fcntl_ok[0]; i++) {
    struct scmp_arg_cmp cmd[] = {SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)fcntl_ok[i])};
    if (rule(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 1, cmd) < 0) {
      return -1;
    }
  }
  return 0;
}

/* Count the comparisons against the pid sentinel, and patch them to `pid`
 * (when non-zero). Only the 32-bit immediates of equality jumps are looked
 * at: that is how libseccomp compares the low half of an argument. */
static int patch_self(struct sock_filter *prog, unsigned short len, uint32_t pid) {
  int found = 0;
  for (unsigned short i = 0; i < len; i++) {
    if (prog[i].code == (BPF_JMP | BPF_JEQ | BPF_K) && prog[i].k == SELF_SENTINEL) {
      found++;
      if (pid != 0) {
        prog[i].k = pid;
      }
    }
  }
  return found;
}

int spine_seccomp_prepare(int files_confined) {
  int rc = -1, fd = -1;
  scmp_filter_ctx ctx = seccomp_init(SPINE_DEFAULT_ACTION);
  if (ctx == NULL) {
    errno = ENOMEM;
    return policy_fail("seccomp_init");
  }
  if (build_filter(ctx, files_confined) < 0) {
    goto cleanup;
  }
  fd = memfd_create("spine-seccomp", MFD_CLOEXEC);
  if (fd < 0) {
    policy_fail("memfd_create");
    goto cleanup;
  }
  int exported = seccomp_export_bpf(ctx, fd);
  if (exported < 0) {
    errno = -exported;
    policy_fail("seccomp_export_bpf");
    goto cleanup;
  }
  off_t size = lseek(fd, 0, SEEK_END);
  if (size <= 0 || size % (off_t)sizeof(struct sock_filter) != 0 ||
      size / (off_t)sizeof(struct sock_filter) > BPF_MAXINSNS) {
    errno = EINVAL;
    policy_fail("seccomp_export_bpf: unexpected program size");
    goto cleanup;
  }
  g_filter = malloc((size_t)size);
  if (g_filter == NULL || pread(fd, g_filter, (size_t)size, 0) != size) {
    policy_fail("reading the exported seccomp program");
    goto cleanup;
  }
  g_filter_len = (unsigned short)(size / (off_t)sizeof(struct sock_filter));
  /* libseccomp may share one comparison between kill and tgkill: at least
   * one must be there, or the filter is not the one written above. */
  if (patch_self(g_filter, g_filter_len, 0) < 1) {
    errno = EINVAL;
    policy_fail("seccomp program: the pid rules are not where they are expected");
    goto cleanup;
  }
  rc = 0;
cleanup:
  if (rc < 0) {
    free(g_filter);
    g_filter = NULL;
  }
  if (fd >= 0) {
    close(fd);
  }
  seccomp_release(ctx);
  return rc;
}

int spine_enter_seccomp(void) {
  if (g_filter == NULL) {
    errno = EINVAL;
    return policy_fail("seccomp: no program prepared");
  }
#ifdef SPINE_SECCOMP_DEBUG
  struct sigaction sa = {.sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO};
  sigaction(SIGSYS, &sa, NULL);
#endif
  if (patch_self(g_filter, g_filter_len, (uint32_t)getpid()) < 1) {
    errno = EINVAL;
    return policy_fail("seccomp program: pid rules");
  }
  struct sock_fprog prog = {.len = g_filter_len, .filter = g_filter};
  /* TSYNC: should the child ever have another thread, it is bound too. */
  long rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog);
  if (rc != 0) {
    if (rc > 0) {
      errno = ESRCH; /* rc is the thread that could not be synchronised */
    }
    return policy_fail("seccomp(SECCOMP_SET_MODE_FILTER)");
  }
  return 0;
}
