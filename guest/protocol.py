"""The guest's half of the host protocol, and one canonical encoding of a tool request.

The protocol is defined by the host (internal/protocol); the constants below
mirror it. Its TestMirrorsMatch imports this module and fails when an
upper-case name drifts, is missing, or is not defined there.

Every path that names a tool call (a plain call, a PLM prepare, a prefix
prepare, a resolve, a prefix claim) encodes it here, so two requests for the
same call are byte-identical and can be matched by string equality. The host
canonicalises the same way before it compares a resolve with its prepare.
"""
import json

# The outcomes a guest may claim in an error response ("kind"): only what the
# guest alone can know. Anything else (a bad request, a host limit, a
# timeout) is the host's to say, and a response claiming it is a breach.
OUTCOME_PROGRAM = "program"  # the program raised
OUTCOME_RESULT_LIMIT = "result_limit"  # the result exceeded its size or depth limit
OUTCOME_INTERRUPT = "interrupt"  # the program met _spine.Interrupt
GUEST_OUTCOMES = (OUTCOME_PROGRAM, OUTCOME_RESULT_LIMIT, OUTCOME_INTERRUPT)

# The exceptions a tool's error may raise in the program (a response's
# "type"), the default first: no other name is ever raised, whatever the
# host's response says.
TOOL_EXCEPTIONS = ("RuntimeError", "ValueError", "KeyError", "PermissionError", "TimeoutError", "LookupError")

# The filename the program's code is compiled under: the runtime
# (spine_module.c) delivers interrupts only to frames of this file.
PROGRAM_FILENAME = "<spine>"

# The streams of an output crossing (_spine.output), which hands the host
# the program's output as it is written when the request asks for it live.
OUTPUT_STDOUT = 1
OUTPUT_STDERR = 2

# The limits of an execution when its request names none.
DEFAULT_LIMITS = {
    "stdout_bytes": 1 << 20,
    "result_bytes": 16 << 20,
    "result_depth": 100,
    "recursion": 1000,
    "fanout": 64,
}

# What a response carries besides its value is clipped to these, so that it
# stays within the host's envelope allowance (4 MiB beyond the value).
MESSAGE_CHARS = 16 << 10
TRACEBACK_CHARS = 32 << 10
TRANSFORMED_CHARS = 128 << 10
NATIVE_REPORT_BYTES = 1 << 20

# The bootstrap entry points the host may call with one string.
ENTRY_PREFIX_BEGIN = "prefix_begin"
ENTRY_PREFIX_FEED = "prefix_feed"
ENTRY_PREFIX_ABORT = "prefix_abort"
ENTRY_NATIVE_SETUP = "native_setup"
# A session's executions share one namespace: a sandboxed child told
# session_begin serves several; session_end drops a session's namespace.
ENTRY_SESSION_BEGIN = "session_begin"
ENTRY_SESSION_END = "session_end"

# The operations of a native crossing (hot functions).
NATIVE_START = "start"
NATIVE_COMPILE = "compile"
NATIVE_POLL = "poll"
# The member a sandboxed child adds to a native answer: the descriptors of
# the compiled modules that came with it (a unit's "module" indexes them).
NATIVE_DESCRIPTORS = "fds"
# A kept plan: the request asks the guest for its own (REQUEST_KEEP_PLAN),
# which its first native start carries (NATIVE_KEPT).
REQUEST_KEEP_PLAN = "keep_plan"
NATIVE_KEPT = "kept"

# The tool name of the clock crossing of a journaled execution: the host
# answers it with the wall-clock time (UnixNano) and records it, so that a
# replay reads the same times (determinism.py).
CLOCK_TOOL = "__spine_clock"

def one_shot(encoder):
    """encoder.encode, without the Python set-up JSONEncoder.iterencode
    repeats on every call (its options read again, a closure made): the
    same C encoder, made from options read once. On the path of every tool
    call and every result."""
    make = json.encoder.c_make_encoder
    if make is None or encoder.indent is not None:
        return encoder.encode
    options = (encoder.default, json.encoder.encode_basestring_ascii if encoder.ensure_ascii
               else json.encoder.encode_basestring, None, encoder.key_separator, encoder.item_separator,
               encoder.sort_keys, encoder.skipkeys, encoder.allow_nan)
    join = "".join

    def encode(value):
        # A fresh markers dict each time: the cycle check's, as encode's.
        return join(make({} if encoder.check_circular else None, *options)(value, 0))
    return encode


_encode = one_shot(json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")
))


def encode_request(name, args):
    """Return the canonical JSON text of a call of tool `name` with keyword `args`.

    Raises TypeError for an argument JSON cannot encode (naming its type) and
    ValueError for NaN or an infinity, so the error surfaces at the call site.
    """
    return _encode({"tool": name, "args": args})


def encode_call_now(name, args):
    """The prepare request of a call the program is making now, not a guess.

    A tool called in async code starts at once on a host worker and is
    awaited later: `"now": true` tells the host it is a real call (counted,
    traced as not early, allowed for effectful tools too), not speculation.
    The resolve that collects it carries the plain `encode_request` text.
    """
    return _encode({"tool": name, "args": args, "now": True})
