/*
 * The zygote of the sandboxed guest process. spine-guest (launch.c) exec's
 * /usr/bin/python3, which loads this file's module (zygote_module.c) and
 * calls spine_zygote_serve(): the guest runs on python3's own interpreter.
 *
 * The host starts it with one descriptor, fd 3: the control channel (a
 * SOCK_SEQPACKET socket). Over it the host sends the guest modules (with the
 * code the host kept from an earlier start, and gets back what was compiled
 * instead: modules.h) and the child limits; the zygote loads them into the
 * interpreter once, pre-imports the stdlib
 * modules programs use, builds the Landlock ruleset, and answers "hello".
 * From then on it is a zygote: for each "fork" message it forks a child and
 * hands the host, by SCM_RIGHTS, the child's own channel (a SOCK_STREAM
 * socket), a pidfd to kill it by, and the read end of a pipe that is the
 * child's fd 1 and 2. When a child dies it reports the wait status.
 *
 * A child confines itself (policy.c) before it reads any byte from its
 * channel, then serves one stream: entry frames (prefix_begin/feed/abort) and
 * one execute frame, after which it waits for the host to kill it. The
 * zygote never runs untrusted code and never reads a child's channel.
 *
 * Frames, on both channels: kind (1 byte), length (u32 little-endian),
 * payload. Kinds and layouts are defined by internal/protocol (frame.go), which
 * spine_protocol.h mirrors.
 */
#define _GNU_SOURCE
#include <Python.h>
#include <errno.h>
#include <malloc.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arenas.h"
#include "crossings.h"
#include "frame.h"
#include "modules.h"
#include "mount.h"
#include "native.h"
#include "policy.h"
#include "pools.h"
#include "scratch.h"
#include "zygote.h"
#include "spine_protocol.h"
#include "spine_runtime.h"

#define CONTROL_FD 3
#define CHILD_FD SPINE_CHILD_FD /* the child's channel, once it has moved its fds */
#define TOKEN 1                   /* a child serves one session: one token */


static int g_devnull = -1;
static int g_landlock_abi;
static spine_limits g_limits;
static pid_t g_zygote;
/* Taken once the zygote is ready and never released: every fork happens
 * with it held, as the child expects, and without Python running per fork. */
static PyGILState_STATE g_fork_gil;
static int g_slot = -2; /* the scratch slot of the child being forked; <0: none */

static void log_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_msg(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "spine-guest: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* ---- the child ------------------------------------------------------------ */

/* A response that did not fit the runtime's buffer, fetched by the same
 * thread's next crossing: one per thread. */
static __thread char *g_stash;
static __thread size_t g_stash_len;
/* The deadline inside the child: serve_execute arms ITIMER_REAL with the
 * execution's deadline; SIGALRM goes through CPython's own signal handler to
 * on_deadline, which the interpreter runs between bytecodes and which
 * interrupts the program, so a pure bytecode loop ends with a clean timeout
 * and keeps its output. Arming is one syscall and there is no thread to
 * start in every child. It cannot stop a long C call, and a program could
 * ignore the signal: the host kills the child at deadline plus grace either
 * way. */
static PyObject *on_deadline(PyObject *self, PyObject *args) {
  (void)self;
  (void)args;
  spine_interrupt(TOKEN, SPINE_INTERRUPT_TIMEOUT);
  Py_RETURN_NONE;
}

static PyMethodDef k_on_deadline = {"_spine_deadline", on_deadline, METH_VARARGS,
                                    "Interrupt the running program: its deadline passed."};

/* gc.freeze, for the warm zygote (warm_up). */
static PyObject *g_gc_freeze;

/* In the zygote, once: route SIGALRM to on_deadline. -1 with a Python error. */
static int install_deadline_handler(void) {
  PyObject *signal_module = PyImport_ImportModule("signal");
  PyObject *fn = signal_module ? PyCFunction_New(&k_on_deadline, NULL) : NULL;
  PyObject *old = fn ? PyObject_CallMethod(signal_module, "signal", "iO", SIGALRM, fn) : NULL;
  Py_XDECREF(old);
  /* Programs get no handle on it: sandbox_policy.prepare() drops `signal`
   * and `_signal` from sys.modules after its preloads, and `import signal`
   * then meets the blocker. Not before: a preload that imports signal
   * (unittest, pdb) would execute `_signal` afresh, and that resets the
   * Python handler of every signal with a C handler, this one included. */
  Py_XDECREF(fn);
  Py_XDECREF(signal_module);
  return old == NULL ? -1 : 0;
}

static int arm_deadline(uint32_t ms) {
  struct itimerval at = {.it_value = {.tv_sec = ms / 1000, .tv_usec = (long)(ms % 1000) * 1000L}};
  return setitimer(ITIMER_REAL, &at, NULL);
}

/* While the child warms itself up (child_warm_up) no byte goes to the host:
 * a tool call is answered here, a prepare prepares nothing. */
static int g_warming;
static const char k_warm_value[] = "{\"value\": 21}";

static int64_t warm_answer(int op, char *out, size_t cap) {
  if ((op != SPINE_OP_CALL && op != SPINE_OP_RESOLVE) || cap < sizeof k_warm_value - 1) {
    return op == SPINE_OP_PREPARE ? 0 : -1;
  }
  memcpy(out, k_warm_value, sizeof k_warm_value - 1);
  return (int64_t)(sizeof k_warm_value - 1);
}

/* Every tool crossing of the child: a frame to the host, then its answer.
 * A broken channel means the host is gone or gave up on us: exit. */
static int64_t child_host(uintptr_t token, int op, uint64_t handle, const char *request,
                          size_t request_len, char *out, size_t cap) {
  if (g_warming) {
    return warm_answer(op, out, cap);
  }
  if (op == SPINE_OP_FETCH) {
    if (g_stash == NULL || g_stash_len > cap) {
      return -1;
    }
    size_t n = g_stash_len;
    memcpy(out, g_stash, n);
    free(g_stash);
    g_stash = NULL;
    return (int64_t)n;
  }
  int kind = op == SPINE_OP_CALL      ? SPINE_FRAME_CALL
             : op == SPINE_OP_PREPARE ? SPINE_FRAME_PREPARE
             : op == SPINE_OP_NATIVE  ? SPINE_FRAME_NATIVE
             : op == SPINE_OP_WAIT    ? SPINE_FRAME_WAIT
             : op == SPINE_OP_OUTPUT  ? SPINE_FRAME_OUTPUT
                                      : SPINE_FRAME_RESOLVE;
  unsigned char *payload;
  uint32_t len;
  /* Compiled modules come as descriptors with a native answer, and only
   * with one; hot.py learns their numbers from the answer itself. */
  int fds[SPINE_NATIVE_FDS_MAX], nfds = 0;
  if (spine_crossing(kind, handle, request, request_len, &payload, &len,
                     op == SPINE_OP_NATIVE ? fds : NULL, &nfds) < 0) {
    if (errno == ENOMEM) {
      /* Say so: the host reports a child that ran out of memory as such. */
      static const char k_no_memory[] = "spine-guest: out of memory for an answer\n";
      ssize_t ignored = write(2, k_no_memory, sizeof k_no_memory - 1);
      (void)ignored;
    }
    _exit(0);
  }
  if (nfds > 0 && spine_native_attach_fds(&payload, &len, SPINE_ANSWER_HEAD_LEN, fds, nfds) < 0) {
    for (int i = 0; i < nfds; i++) close(fds[i]);
  }
  int reason = payload[8]; /* after the crossing id */
  int64_t num = (int64_t)get_u64(payload + 9);
  size_t n = len - SPINE_ANSWER_HEAD_LEN;
  int64_t rc;
  if (reason != 0) {
    /* A host-side limit: the program must not catch its way past it. */
    spine_interrupt(token, reason);
  }
  if (op == SPINE_OP_PREPARE || op == SPINE_OP_OUTPUT || num < 0) {
    rc = num;
  } else if (n > cap) {
    free(g_stash);
    g_stash = malloc(n);
    if (g_stash == NULL) {
      rc = -1;
    } else {
      memcpy(g_stash, payload + SPINE_ANSWER_HEAD_LEN, n);
      g_stash_len = n;
      rc = (int64_t)n;
    }
  } else {
    memcpy(out, payload + SPINE_ANSWER_HEAD_LEN, n);
    rc = (int64_t)n;
  }
  free(payload);
  return rc;
}

/* Set by the session_begin entry: the child serves the executions of one
 * session, one after another, keeping the program's namespace, instead of
 * exiting after one. The host kills it when the session ends. */
static int g_session;

/* A child that served its one execution waits, blocked, for the host's
 * kill instead of exiting: its exit (the address space torn down, the
 * zygote woken to reap it) would otherwise run on the two cores exactly
 * while the host wakes up to read the result, and the host kills it once
 * the caller has that result. Anything on the channel, or its end (the
 * host gone or done with it), ends it too: it never serves a second
 * execution. Threads the program left running go on until the kill, within
 * the same confinement and limits, their crossings unanswered. */
static void await_kill(void) {
  unsigned char byte;
  ssize_t n;
  do {
    n = read(CHILD_FD, &byte, 1);
  } while (n < 0 && errno == EINTR);
  _exit(n == 0 ? 0 : 2);
}

static void serve_execute(const unsigned char *payload, uint32_t len) {
  if (len < SPINE_EXECUTE_HEAD_LEN) {
    _exit(2);
  }
  if (arm_deadline(get_u32(payload)) < 0) {
    _exit(2);
  }
  spine_result result;
  if (spine_execute(TOKEN, (const char *)payload + SPINE_EXECUTE_HEAD_LEN,
                    len - SPINE_EXECUTE_HEAD_LEN, &result) != 0) {
    const char *message = spine_last_error();
    struct iovec part = {(void *)message, strlen(message)};
    spine_channel_send(SPINE_FRAME_FAILED, &part, 1);
    _exit(0);
  }
  unsigned char head[SPINE_RESULT_HEAD_LEN];
  put_u32(head, (uint32_t)result.interrupted);
  put_u32(head + 4, (uint32_t)result.response_len);
  put_u32(head + 8, (uint32_t)result.out_len);
  put_u32(head + 12, (uint32_t)result.err_len);
  struct iovec parts[4] = {{head, sizeof head},
                           {result.response, result.response_len},
                           {result.out, result.out_len},
                           {result.err, result.err_len}};
  if (spine_channel_send(SPINE_FRAME_RESULT, parts, 4) < 0) {
    _exit(0);
  }
  /* Between a session's executions, and while a served child waits for its
   * kill, no deadline runs. */
  spine_result_free(&result);
  if (arm_deadline(0) < 0) {
    _exit(2);
  }
  if (!g_session) {
    await_kill();
  }
}

static void serve_entry(const unsigned char *payload, uint32_t len) {
  const unsigned char *nul = memchr(payload, 0, len);
  if (nul == NULL) {
    _exit(2);
  }
  const char *name = (const char *)payload;
  const char *arg = (const char *)nul + 1;
  size_t arg_len = len - (size_t)(nul + 1 - payload);
  unsigned char ok = 1;
  const char *message = "";
  if (strcmp(name, SPINE_ENTRY_SESSION_BEGIN) == 0) {
    g_session = 1;
  } else if (strcmp(name, SPINE_ENTRY_PREFIX_BEGIN) != 0 && strcmp(name, SPINE_ENTRY_PREFIX_FEED) != 0 &&
             strcmp(name, SPINE_ENTRY_PREFIX_ABORT) != 0) {
    ok = 0;
    message = "unknown entry point";
  } else if (spine_call_entry(TOKEN, name, arg, arg_len) != 0) {
    ok = 0;
    message = spine_last_error();
  }
  struct iovec parts[2] = {{&ok, 1}, {(void *)message, strlen(message)}};
  if (spine_channel_send(SPINE_FRAME_DONE, parts, 2) < 0) {
    _exit(0);
  }
}

/* Put the child's descriptors where it expects them and close all others
 * (the control channel, the signalfd, other children's nothing). */
static int arrange_fds(int channel, int output) {
  int moved[2] = {fcntl(channel, F_DUPFD, 100), fcntl(output, F_DUPFD, 100)};
  if (moved[0] < 0 || moved[1] < 0) {
    return -1;
  }
  if (dup2(g_devnull, 0) < 0 || dup2(moved[1], 1) < 0 || dup2(moved[1], 2) < 0 ||
      dup2(moved[0], CHILD_FD) < 0) {
    return -1;
  }
  return syscall(SYS_close_range, CHILD_FD + 1, ~0U, 0) < 0 ? -1 : 0;
}

/* A trusted program the child runs on itself, confined, before it tells the
 * host it is ready: the pages an execution writes (reference counts of the
 * objects bootstrap and a typical program use, the allocator's pools, the
 * interpreter's frame stack, the type caches) are copied from the zygote
 * now, off the critical path, instead of one copy-on-write fault at a time
 * during the first execution. It calls a tool, prints and builds a result
 * like most programs; its tool call is answered inside the child. It costs
 * about what it saves in CPU (the copies are made once either way), so a
 * child warms up only for this, the default shape of request: PLM and
 * prefix streaming are opt-in, and warming every child for them too (a PLM
 * transform and a stream's analysis of its own) cost each child more than
 * its whole plain warm-up, for every execution, to spare the first PLM or
 * streamed one a few hundred copy-on-write faults. Their code is warmed in
 * the zygote (warm_up), in pages every child shares.
 *
 * The host's own request ('W', g_warm) takes this one's place when it sent
 * one: the engine's manifest under its key and its limits, so the zygote
 * parses that manifest and works out its tools' signatures once, for every
 * child, and a child's warm-up touches the pages its executions will (a
 * warm-up on another manifest left about a hundred copy-on-write faults,
 * most of an execution's CPU before its first tool call, to each
 * execution). */
static const char k_child_warm_up[] =
    "{\"source\":\"print('w')\\nresult = {'x': lookup(key=inputs['item']), 'y': [1.5, None, 'z']}\","
    "\"inputs\":{\"item\":3},\"manifest\":[{\"name\":\"lookup\",\"speculative\":true}]}";

/* The host's warm-up request, its chunks appended (NULL: none sent). */
static char *g_warm;
static size_t g_warm_len;

static int add_warm_chunk(const unsigned char *chunk, uint32_t len) {
  char *grown = realloc(g_warm, g_warm_len + len + 1);
  if (grown == NULL) {
    return -1;
  }
  memcpy(grown + g_warm_len, chunk, len);
  g_warm_len += len;
  grown[g_warm_len] = 0;
  g_warm = grown;
  return 0;
}

static void child_warm_up(void) {
  int warming = g_warming; /* the zygote's warm-up calls this between its own programs */
  g_warming = 1;
  spine_result result;
  const char *request = g_warm != NULL ? g_warm : k_child_warm_up;
  size_t len = g_warm != NULL ? g_warm_len : sizeof k_child_warm_up - 1;
  if (spine_execute(TOKEN, request, len, &result) == 0) {
    spine_result_free(&result);
  }
  g_warming = warming;
}

/* The child's scratch slot becomes its working directory (and so its /tmp,
 * a link to /proc/self/cwd: tempfile's default directory), and its Landlock
 * layer narrows writes to it. Before seccomp: chdir needs no rule there, and
 * the Landlock calls are not among what seccomp allows. */
static int enter_scratch(void) {
  char path[64];
  return spine_scratch_path(g_slot, path, sizeof path) < 0 || chdir(path) < 0 ||
                 spine_landlock_scratch(path) < 0
             ? -1
             : 0;
}

/* A new child waits for the host's go frame before any work of its own
 * (confinement, warm-up: a few milliseconds of CPU). The host sends it
 * when no execution needs the machine more (the creation gate,
 * internal/bridge/wire/gate.go): a child forked while an execution runs
 * costs that execution nothing but the fork. Anything else on the channel,
 * or its end, ends the child. */
static void await_go(void) {
  int kind;
  unsigned char *payload;
  uint32_t len;
  if (recv_frame(CHILD_FD, &kind, &payload, &len, NULL, NULL) < 0) {
    _exit(0);
  }
  free(payload);
  if (kind != SPINE_FRAME_GO || len != 0) {
    _exit(0);
  }
}

static void child_main(int channel, int output) {
  spine_arenas_after_fork();
  sigset_t all;
  sigemptyset(&all);
  sigprocmask(SIG_SETMASK, &all, NULL);
  signal(SIGCHLD, SIG_DFL);
  /* Die with the zygote; if it is already gone, do not outlive it. */
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != g_zygote) {
    _exit(1);
  }
  if (arrange_fds(channel, output) < 0) {
    _exit(1);
  }
  await_go();
  /* Only now: its hooks write to the interpreter's state, copy-on-write
   * faults that are creation work like the rest. */
  PyOS_AfterFork_Child();
  const char *step = "rlimits";
  if (spine_apply_rlimits(&g_limits) < 0) goto refuse;
  /* Inherited from the zygote; checked, never assumed. */
  step = "privileges";
  if (spine_check_privileges() < 0) goto refuse;
  step = "scratch directory";
  if (g_slot >= 0 && enter_scratch() < 0) goto refuse;
  step = "seccomp";
  if (spine_enter_seccomp() < 0) goto refuse;
  /* At most two malloc arenas: glibc reserves 64 MiB of address space for
   * each thread's own arena (up to 8 per CPU), so a program's threads
   * would spend RLIMIT_AS on reservations and fail to allocate long
   * before they used the memory. Before any thread exists. */
  mallopt(M_ARENA_MAX, 2);
  /* Confined. Give the interpreter back (released GIL, saved thread state) so
   * spine_execute can take it as in any other process. */
  PyGILState_Release(g_fork_gil);
  child_warm_up();
  /* Ready: the host hands this child an execution only after this frame, so
   * confinement and warm-up are never on an execution's path. */
  if (send_frame(CHILD_FD, SPINE_FRAME_READY, NULL, 0) < 0) {
    _exit(0);
  }
  for (;;) {
    int kind;
    unsigned char *payload;
    uint32_t len;
    if (recv_frame(CHILD_FD, &kind, &payload, &len, NULL, NULL) < 0) {
      _exit(0);
    }
    if (kind == SPINE_FRAME_EXECUTE) {
      serve_execute(payload, len);
    } else if (kind == SPINE_FRAME_ENTRY) {
      serve_entry(payload, len);
    } else {
      _exit(2);
    }
    free(payload);
  }
refuse:
  log_msg("child refused to serve: %s: %s", step, spine_last_policy_error());
  _exit(1);
}

/* ---- the zygote ----------------------------------------------------------- */

/* The zygote's preloads and the import blocker every child inherits are
 * guest/sandbox_policy.py (sent with the other guest modules): reviewable,
 * tested Python, not a string here. The blocker is convenience and a clear
 * error: the floor is Landlock (the files of those modules are unreadable)
 * and seccomp (what they would do kills). asyncio is among the preloads (its
 * files stay unreadable to children), and its event loop policy is
 * installed once here. */
static const char k_prepare_py[] =
    "import sandbox_policy\n"
    "sandbox_policy.prepare()\n"
    "__import__('aio').install_loop_policy()\n";

/* A control message: header and payload in one SEQPACKET datagram. */
static int control_send(int kind, const void *payload, size_t len, const int *fds, int nfds) {
  unsigned char header[SPINE_FRAME_HEADER_LEN];
  header[0] = (unsigned char)kind;
  put_u32(header + 1, (uint32_t)len);
  struct iovec parts[2] = {{header, sizeof header}, {(void *)payload, len}};
  struct msghdr msg = {.msg_iov = parts, .msg_iovlen = len > 0 ? 2 : 1};
  char control[CMSG_SPACE(3 * sizeof(int))];
  if (nfds > 0) {
    memset(control, 0, sizeof control);
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int));
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN((size_t)nfds * sizeof(int));
    memcpy(CMSG_DATA(c), fds, (size_t)nfds * sizeof(int));
  }
  ssize_t n;
  do {
    n = sendmsg(CONTROL_FD, &msg, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  return n < 0 ? -1 : 0;
}

static int control_send_frame(int kind, const void *payload, size_t len) {
  return control_send(kind, payload, len, NULL, 0);
}

static int control_error(const char *message) {
  control_send(SPINE_FRAME_ERROR, message, strlen(message), NULL, 0);
  return -1;
}

static void spawn_child(void) {
  int channel[2] = {-1, -1}, output[2] = {-1, -1};
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, channel) < 0 ||
      pipe2(output, O_CLOEXEC) < 0) {
    control_error("fork: cannot create the child's channel");
    goto cleanup;
  }
  g_slot = spine_scratch_take();
  if (g_slot == -1) {
    control_error("fork: every scratch directory is in use");
    goto cleanup;
  }
  /* No Python runs here: the zygote holds the GIL for good (g_fork_gil) and
   * skips CPython's parent-side fork hooks (it has one thread, so nothing
   * they would lock is held), because any write of the zygote to its
   * arenas would split the huge pages its children share (arenas.c). */
  pid_t pid = fork();
  if (pid == 0) {
    close(channel[0]);
    close(output[0]);
    child_main(channel[1], output[1]); /* never returns */
  }
  spine_scratch_assign(g_slot, pid > 0 ? pid : 0);
  if (pid < 0) {
    control_error("fork failed");
    goto cleanup;
  }
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  if (pidfd < 0) {
    kill(pid, SIGKILL);
    control_error("pidfd_open failed");
    goto cleanup;
  }
  unsigned char id[SPINE_CHILD_LEN];
  put_u32(id, (uint32_t)pid);
  int fds[3] = {channel[0], pidfd, output[0]};
  if (control_send(SPINE_FRAME_CHILD, id, sizeof id, fds, 3) < 0) {
    kill(pid, SIGKILL);
  }
  close(pidfd);
cleanup:
  for (int i = 0; i < 2; i++) {
    if (channel[i] >= 0) close(channel[i]);
    if (output[i] >= 0) close(output[i]);
  }
}

static void reap(int sigfd) {
  struct signalfd_siginfo info;
  while (read(sigfd, &info, sizeof info) == (ssize_t)sizeof info) {
  }
  int status;
  pid_t pid;
  struct rusage usage;
  while ((pid = wait4(-1, &status, WNOHANG, &usage)) > 0) {
    /* The CPU time tells a SIGKILL at the hard RLIMIT_CPU from other kills. */
    uint64_t cpu_ms = (uint64_t)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000 +
                      (uint64_t)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000;
    unsigned char msg[SPINE_EXIT_LEN];
    put_u32(msg, (uint32_t)pid);
    put_u32(msg + 4, (uint32_t)status);
    put_u64(msg + 8, cpu_ms);
    control_send(SPINE_FRAME_EXIT, msg, sizeof msg, NULL, 0);
    spine_scratch_release(pid);
  }
}

/* Trusted programs run a few times in the zygote, before any fork, so that
 * what a first execution does once (quickening bootstrap's bytecode, the
 * json and compiler caches, lazily built tables) is done in the pages every
 * child shares, not after the fork where each write costs a copy-on-write
 * fault. Their tool calls are answered locally (g_warming: the zygote has no
 * tool channel) and they see nothing of any user. Then gc.freeze()
 * moves every object the zygote made into the permanent generation, so a
 * child's collections neither walk nor write to them. */
static const char *const k_warm_up[] = {
    "{\"source\":\"result = {'x': [inputs['item'] * 2, str(inputs)]}\",\"inputs\":{\"item\":3},"
    "\"manifest\":[{\"name\":\"lookup\",\"description\":\"warm-up\"}]}",
    "{\"source\":\"print('a')\\nresult = sorted({'k': 1.5, 'j': None})\",\"inputs\":{},"
    "\"manifest\":[{\"name\":\"lookup\"}],\"plm\":true}",
    "{\"source\":\"raise ValueError('warm-up')\",\"inputs\":{}}",
    "{\"source\":\"a = lookup(key=1)\\nfor k in [1, 2]:\\n    print(lookup(key=k))\\n"
    "for k, v in inputs.items():\\n    a = lookup(key=f'{k}{v}')\\n"
    "result = [lookup(key=k + 1) for k in range(2)]\",\"inputs\":{\"item\":3},"
    "\"manifest\":[{\"name\":\"lookup\",\"speculative\":true}],\"plm\":true}",
};

/* A stream's analysis (prefix streaming: prefix_begin, two feeds,
 * prefix_abort), in the zygote's warm-up rounds beside the PLM programs. */
static const char *const k_stream_warm_up[][2] = {
    {SPINE_ENTRY_PREFIX_BEGIN, "{\"stream\":\"warm-up\",\"inputs\":{\"item\":3},"
                               "\"manifest\":[{\"name\":\"lookup\",\"speculative\":true}]}"},
    {SPINE_ENTRY_PREFIX_FEED, "{\"stream\":\"warm-up\",\"chunk\":\"a = lookup(key=inputs['item'])\\n"
                              "for k in [1, 2]:\\n    print(lookup(key=k))\\n\"}"},
    {SPINE_ENTRY_PREFIX_FEED, "{\"stream\":\"warm-up\",\"chunk\":\"r = [lookup(key=k) for k in 'ab']\\n\"}"},
    {SPINE_ENTRY_PREFIX_ABORT, "warm-up"},
};

static void stream_warm_up(void) {
  for (size_t i = 0; i < sizeof k_stream_warm_up / sizeof *k_stream_warm_up; i++) {
    const char *entry = k_stream_warm_up[i][0], *arg = k_stream_warm_up[i][1];
    if (spine_call_entry(TOKEN, entry, arg, strlen(arg)) != 0) {
      break; /* a slower first stream, nothing else */
    }
  }
}

static void warm_up(void) {
  g_warming = 1; /* tool calls are answered locally (warm_answer) */
  for (int round = 0; round < 8; round++) {
    for (size_t i = 0; i < sizeof k_warm_up / sizeof *k_warm_up; i++) {
      spine_result result;
      if (spine_execute(TOKEN, k_warm_up[i], strlen(k_warm_up[i]), &result) == 0) {
        spine_result_free(&result);
      }
    }
    child_warm_up(); /* a child's own warm-up then finds its code compiled */
    stream_warm_up();
  }
  g_warming = 0;
  PyGILState_STATE gil = PyGILState_Ensure();
  PyGC_Collect();
  PyObject *frozen = PyObject_CallNoArgs(g_gc_freeze);
  if (frozen == NULL) {
    PyErr_Clear(); /* a slower child, not a less confined one */
  }
  Py_XDECREF(frozen);
  if (spine_fill_pools() < 0) {
    log_msg("the object allocator's pools are not laid out as expected: not filled");
  }
  PyGILState_Release(gil);
  /* Give freed heap back: every resident page is a page-table entry each
   * fork copies. */
  malloc_trim(0);
  spine_arenas_collapse();
}

/* Receive modules and limits until the init message; start CPython. */
static int initialise(void) {
  static unsigned char buf[SPINE_CONTROL_MAX];
  module_list mods = {NULL, NULL, 0};
  for (;;) {
    ssize_t n;
    do {
      n = recv(CONTROL_FD, buf, sizeof buf, 0);
    } while (n < 0 && errno == EINTR);
    if (n < SPINE_FRAME_HEADER_LEN ||
        get_u32(buf + 1) != (uint32_t)(n - SPINE_FRAME_HEADER_LEN)) {
      log_msg("malformed or missing init message");
      return -1;
    }
    uint32_t len = (uint32_t)(n - SPINE_FRAME_HEADER_LEN);
    if (buf[0] == SPINE_FRAME_MODULE || buf[0] == SPINE_FRAME_CODE) {
      if (spine_modules_add(&mods, buf[0] == SPINE_FRAME_CODE, buf + SPINE_FRAME_HEADER_LEN, len) < 0) {
        return control_error("malformed module message");
      }
      continue;
    }
    if (buf[0] == SPINE_FRAME_WARM) {
      if (add_warm_chunk(buf + SPINE_FRAME_HEADER_LEN, len) < 0) {
        return control_error("out of memory for the warm-up request");
      }
      continue;
    }
    if (buf[0] == SPINE_FRAME_NATIVE_SETUP) {
      if (spine_native_config(buf + SPINE_FRAME_HEADER_LEN, len) < 0) {
        return control_error(spine_native_error());
      }
      continue;
    }
    if (buf[0] != SPINE_FRAME_INIT || len != SPINE_INIT_LEN) {
      return control_error("expected the init message");
    }
    g_limits.memory_bytes = get_u64(buf + SPINE_FRAME_HEADER_LEN);
    g_limits.cpu_seconds = get_u64(buf + SPINE_FRAME_HEADER_LEN + 8);
    g_limits.open_files = get_u64(buf + SPINE_FRAME_HEADER_LEN + 16);
    break;
  }
  spine_config config = {child_host, mods.items, mods.count, 0 /* one execution per child */, 1 /* in python3 */,
                         mods.compiled};
  int started = spine_init(&config);
  /* What was compiled goes to the host's cache; a failed send is a host
   * gone, which the hello's send will say. */
  if (started == 0) {
    spine_modules_send_compiled(&mods, control_send_frame);
  }
  /* The sources are compiled and run: freed, they are pages neither the
   * zygote keeps resident nor each fork copies an entry for. */
  spine_modules_free(&mods);
  if (started != 0) {
    return control_error(spine_last_error());
  }
  if (spine_native_setup(TOKEN) != 0) {
    return control_error(spine_native_error());
  }
  PyGILState_STATE gil = PyGILState_Ensure();
  /* The deadline handler first: the import blocker the preparation
   * installs refuses `signal`, on purpose. */
  PyObject *gc_module = PyImport_ImportModule("gc");
  g_gc_freeze = gc_module ? PyObject_GetAttrString(gc_module, "freeze") : NULL;
  Py_XDECREF(gc_module);
  int rc = g_gc_freeze == NULL || install_deadline_handler() < 0 ? -2 : PyRun_SimpleString(k_prepare_py);
  if (rc == -2) {
    PyErr_Clear();
  }
  PyGILState_Release(gil);
  if (rc != 0) {
    return control_error(rc == -2 ? "cannot install the deadline handler or find gc.freeze"
                                  : "cannot prepare the interpreter (pre-imports)");
  }
  warm_up();
  /* In its own namespaces (then it is PID 1 of its PID namespace) the
   * zygote gives itself, and so every child, a minimal read-only root and a
   * private /proc (mount.c), while it may still mount. Without them the host
   * learns from the hello that the view is the host's. */
  int private_root = getpid() == 1;
  if (private_root && spine_private_root() < 0) {
    return control_error(spine_mount_error());
  }
  /* Fail closed is the host's decision: it knows whether the caller lowered
   * the level. Here we only say what the kernel gives. */
  int ruleset = spine_landlock_ruleset(&g_landlock_abi);
  /* The zygote confines itself now, once, with what every child needs
   * anyway and inherits across fork: no capability, no-new-privs,
   * non-dumpable, and the Landlock domain (it reads no file after this).
   * A child then only adds what must be per child (see child_main). */
  if (spine_drop_privileges() < 0 || (ruleset >= 0 && spine_enter_landlock(ruleset) < 0)) {
    return control_error(spine_last_policy_error());
  }
  if (ruleset >= 0) {
    close(ruleset);
  }
  if (spine_seccomp_prepare(ruleset >= 0) < 0) {
    return control_error(spine_last_policy_error());
  }
  if (private_root) {
    spine_scratch_enable();
  }
  char hello[256];
  snprintf(hello, sizeof hello, "{\"landlock\":%d,\"landlock_error\":\"%s\",\"seccomp\":true,\"root\":%s}",
           ruleset >= 0 ? g_landlock_abi : 0,
           ruleset >= 0 ? "" : spine_last_policy_error(), private_root ? "true" : "false");
  return control_send(SPINE_FRAME_HELLO, hello, strlen(hello), NULL, 0);
}

int spine_zygote_serve(void) {
  g_zygote = getpid();
  if (fcntl(CONTROL_FD, F_GETFD) < 0) {
    log_msg("fd 3 must be the control channel");
    return 2;
  }
  fcntl(CONTROL_FD, F_SETFD, FD_CLOEXEC);
  g_devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  spine_arenas_use_huge_chunks();
  if (g_devnull < 0 || initialise() < 0) {
    return 1;
  }
  g_fork_gil = PyGILState_Ensure();
  /* The host stops and continues starting children while executions run
   * (its creation gate); only their exits concern the zygote, so a stop or
   * continue must not wake it. */
  struct sigaction no_stops = {.sa_handler = SIG_DFL, .sa_flags = SA_NOCLDSTOP};
  sigemptyset(&no_stops.sa_mask);
  if (sigaction(SIGCHLD, &no_stops, NULL) < 0) {
    control_error("sigaction(SIGCHLD) failed");
    return 1;
  }
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, NULL);
  int sigfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
  if (sigfd < 0) {
    return control_error("signalfd failed") < 0 ? 1 : 1;
  }
  unsigned char buf[64];
  for (;;) {
    struct pollfd fds[2] = {{CONTROL_FD, POLLIN, 0}, {sigfd, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return 1;
    }
    if (fds[1].revents & POLLIN) {
      reap(sigfd);
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t n = recv(CONTROL_FD, buf, sizeof buf, MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (n < SPINE_FRAME_HEADER_LEN) {
        /* The host is gone: as PID 1 of the namespace our exit kills every child. */
        return 0;
      }
      if (buf[0] == SPINE_FRAME_FORK) {
        spawn_child();
      }
    }
  }
}
