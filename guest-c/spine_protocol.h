/**
 * \file spine_protocol.h
 * \brief The guest's half of the host protocol: frame kinds and layouts,
 *        crossings, interrupt reasons and entry points.
 *
 * The definition is the host's, internal/protocol (frame.go documents every
 * frame's layout); this header mirrors it and internal/protocol's
 * TestMirrorsMatch fails when a value here drifts from it. Keep every
 * constant in the simple forms that test reads: NAME = 'c' or NAME = 123 in
 * an enum, #define NAME (A << B) or #define NAME "text".
 */
#ifndef SPINE_PROTOCOL_H
#define SPINE_PROTOCOL_H

/** \brief Frame kinds: the first byte of every frame, on both channels. */
enum spine_frame_kind {
  /* control channel, host <-> zygote */
  SPINE_FRAME_MODULE = 'M',
  SPINE_FRAME_CODE = 'B',
  SPINE_FRAME_COMPILED = 'K',
  SPINE_FRAME_NATIVE_SETUP = 'N',
  SPINE_FRAME_WARM = 'W',
  SPINE_FRAME_INIT = 'I',
  SPINE_FRAME_HELLO = 'H',
  SPINE_FRAME_ERROR = 'E',
  SPINE_FRAME_FORK = 'F',
  SPINE_FRAME_CHILD = 'C',
  SPINE_FRAME_EXIT = 'X',
  /* child channel, host <-> one child */
  SPINE_FRAME_GO = 'g',
  SPINE_FRAME_READY = 'R',
  SPINE_FRAME_EXECUTE = 'x',
  SPINE_FRAME_ENTRY = 'e',
  SPINE_FRAME_ANSWER = 'a',
  SPINE_FRAME_CALL = 'c',
  SPINE_FRAME_PREPARE = 'p',
  SPINE_FRAME_RESOLVE = 'r',
  SPINE_FRAME_NATIVE = 'n',
  SPINE_FRAME_OUTPUT = 'o',
  SPINE_FRAME_WAIT = 'w',
  SPINE_FRAME_DONE = 'd',
  SPINE_FRAME_RESULT = 'z',
  SPINE_FRAME_FAILED = 'f',
};

/** \brief The fixed parts of the frames' layouts, in bytes. */
enum spine_frame_layout {
  SPINE_FRAME_HEADER_LEN = 5,    /**< kind, u32 payload length (little-endian) */
  SPINE_INIT_LEN = 24,           /**< 'I': u64 memory bytes, u64 CPU seconds, u64 open files */
  SPINE_CHILD_LEN = 4,           /**< 'C': u32 pid */
  SPINE_EXIT_LEN = 16,           /**< 'X': u32 pid, u32 wait status, u64 CPU ms */
  SPINE_EXECUTE_HEAD_LEN = 4,    /**< 'x': u32 deadline in ms, then the request */
  SPINE_CROSSING_HEAD_LEN = 16,  /**< 'c' 'p' 'r' 'n' 'w' 'o': u64 crossing id, u64 handle, then the request */
  SPINE_ANSWER_HEAD_LEN = 17,    /**< 'a': u64 crossing id, u8 interrupt reason, i64 number, then the response */
  SPINE_RESULT_HEAD_LEN = 16,    /**< 'z': u32 reason, u32 response/stdout/stderr lengths */
};

/* A child's crossings are numbered 1, 2, 3... in the order it sends them
 * (the crossing id); the answer to one carries its id, so threads may cross
 * at once and each finds its own answer. The host takes any other number
 * for a breach (internal/protocol/crossing_ids.go). */

/** \brief The largest frame a child accepts from the host. */
#define SPINE_HOST_FRAME_MAX (256u << 20)
/** \brief The largest control datagram the zygote receives. */
#define SPINE_CONTROL_MAX (256 << 10)

/** \brief What a tool callback is asked to do (a crossing). */
typedef enum spine_op {
  SPINE_OP_CALL = 1,    /**< run the request now; answer is the response JSON */
  SPINE_OP_PREPARE = 2, /**< start the request on a worker; answer is a handle (0: none) */
  SPINE_OP_RESOLVE = 3, /**< wait for `handle` (checking it matches the request); answer is the response JSON */
  SPINE_OP_FETCH = 4,   /**< copy the response held back because it did not fit `out` */
  SPINE_OP_NATIVE = 5,  /**< a hot-function request (compile, poll); answer is the response JSON */
  SPINE_OP_WAIT = 6,    /**< an async program's event loop waits for its started calls; answer is the response JSON */
  SPINE_OP_OUTPUT = 7,  /**< output written live (`handle`: 1 stdout, 2 stderr); answer is 0 */
} spine_op;

/** \brief Reasons for spine_interrupt(); the program sees them as `_spine.Interrupt`. */
enum {
  SPINE_INTERRUPT_TIMEOUT = 1, /**< the wall-clock deadline passed */
  SPINE_INTERRUPT_CANCEL = 2,  /**< the caller cancelled the execution */
  SPINE_INTERRUPT_LIMIT = 3,   /**< a host-side limit (e.g. tool calls) was exceeded */
};

/** \brief The bootstrap entry points an entry frame may name. */
#define SPINE_ENTRY_PREFIX_BEGIN "prefix_begin"
#define SPINE_ENTRY_PREFIX_FEED "prefix_feed"
#define SPINE_ENTRY_PREFIX_ABORT "prefix_abort"
/* Serve executions one after another (a session's), not exit after one. */
#define SPINE_ENTRY_SESSION_BEGIN "session_begin"

/** \brief The member a child adds to a native answer: the descriptors of the modules that came with it. */
#define SPINE_NATIVE_DESCRIPTORS "fds"
/** \brief Most module descriptors one native answer carries; the host holds back the rest for a later poll. */
#define SPINE_NATIVE_FDS_MAX 32

#endif /* SPINE_PROTOCOL_H */
