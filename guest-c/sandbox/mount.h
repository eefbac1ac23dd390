/**
 * \file mount.h
 * \brief The children's filesystem view: a minimal read-only root and a
 *        private /proc, made once in the zygote. See mount.c and RATIONALE.md.
 */
#ifndef SPINE_SANDBOX_MOUNT_H
#define SPINE_SANDBOX_MOUNT_H

/**
 * \brief In the zygote, in its own user, mount and PID namespaces, before it
 *        drops its capabilities and enters Landlock: make the root a
 *        read-only tmpfs holding only the stdlib (read-only) and a procfs
 *        that shows each process only itself, and detach the host's tree.
 * \return 0, or -1 with spine_mount_error() naming the step that failed
 *         (the view is then unchanged or unusable: the zygote must not serve).
 */
int spine_private_root(void);

/** \brief Which step of spine_private_root failed, and why. */
const char *spine_mount_error(void);

#endif /* SPINE_SANDBOX_MOUNT_H */
