/**
 * \file policy.h
 * \brief The confinement a sandboxed child applies to itself before it reads
 *        any untrusted byte: rlimits, capabilities, no-new-privs, Landlock and
 *        a seccomp allowlist. See RATIONALE.md for why each piece is there.
 */
#ifndef SPINE_SANDBOX_POLICY_H
#define SPINE_SANDBOX_POLICY_H

#include <stdint.h>

/** \brief The interpreter's stdlib: the only tree a child reads (Landlock) or sees (mount.c). */
#define SPINE_STDLIB_DIR "/usr/lib/python3.11"
/* The time zone database: read-only, for zoneinfo. */
#define SPINE_ZONEINFO_DIR "/usr/share/zoneinfo"
/* Where each child's scratch directory is: one size-capped tmpfs per slot,
 * SPINE_SCRATCH_DIR "/<slot>" (mount.c, scratch.c). */
#define SPINE_SCRATCH_DIR "/scratch"
#define SPINE_SCRATCH_SLOTS 64
#define SPINE_SCRATCH_BYTES (16ULL << 20)
#define SPINE_SCRATCH_INODES 1024
/* The tasks (processes and threads) of the sandbox's user: RLIMIT_NPROC. */
#define SPINE_TASKS_MAX 1024

/** \brief Resource limits of one child, chosen by the host at pool start. */
typedef struct spine_limits {
  uint64_t memory_bytes; /**< RLIMIT_AS */
  uint64_t cpu_seconds;  /**< RLIMIT_CPU soft limit (SIGXCPU, fatal); the hard limit is one second more */
  uint64_t open_files;   /**< RLIMIT_NOFILE */
} spine_limits;

/**
 * \brief Build the Landlock ruleset once, in the zygote: read-only access to
 *        the interpreter's stdlib minus the native escape hatches.
 * \param abi filled with the kernel's Landlock ABI (0: unavailable).
 * \return the ruleset fd, or -1 when Landlock is unavailable or failed
 *         (then *abi says which; spine_last_policy_error() says why).
 */
int spine_landlock_ruleset(int *abi);

/** \brief A child's rlimits (memory, CPU, no core, no file growth, few files, no new processes). -1 on failure. */
int spine_apply_rlimits(const spine_limits *limits);

/** \brief Drop every capability (bounding, effective, permitted, inheritable, ambient), set no-new-privs and non-dumpable. */
int spine_drop_privileges(void);

/**
 * \brief Check, in a child, what it inherits from the zygote's
 *        spine_drop_privileges(): no capability, no-new-privs, non-dumpable.
 */
int spine_check_privileges(void);

/** \brief Enter the Landlock domain of `ruleset` (from spine_landlock_ruleset). */
int spine_enter_landlock(int ruleset);

/** The child's own Landlock layer over the zygote's: writes only in its
 * scratch directory `dir`, reads only under /usr (where the zygote's layer
 * already narrows them to the stdlib and the time zones); no other child's
 * scratch. -1 on failure (the child refuses to serve). */
int spine_landlock_scratch(const char *dir);


/**
 * \brief Build the seccomp allowlist once, in the zygote, as a BPF program
 *        kept in memory every child inherits. -1 on failure.
 */
/* `files_confined`: Landlock is in force, so writes, creations and removals
 * go to the kernel (which allows them in the scratch directory only);
 * without it they fail with EACCES. */
int spine_seccomp_prepare(int files_confined);

/**
 * \brief Load the prepared allowlist (default: kill the process) on every
 *        thread of the calling child, with its own pid in the signal rules.
 */
int spine_enter_seccomp(void);

/** \brief Why the last policy step failed. */
const char *spine_last_policy_error(void);

#endif /* SPINE_SANDBOX_POLICY_H */
