"""What a sandboxed program may import, and what every sandbox child inherits.

The zygote (guest-c/sandbox/main.c) receives this module with the other
guest modules and calls `prepare()` once, before it forks: the modules in
PRELOAD are loaded into the memory every child shares (a child never reads
them from disk, and extension modules whose shared libraries live outside
the child's root, such as `_sqlite3`, are loaded while the zygote can still
read them), and the import blocker is installed in `sys.meta_path`.

The blocker is convenience and a clear error, not the boundary: a program can
remove it from `sys.meta_path`. The floor is Landlock (the files of the
dangerous modules are unreadable) and seccomp (what their builtin parts would
ask the kernel kills the child). `os`, `sys`, `io` and `builtins` are never
refused: the interpreter imported them before any program, and `import`
finds them in `sys.modules` first; what a program asks of them is seccomp's
and Landlock's to decide.

In-process mode installs none of this: it is the trusted mode.
"""

import sys

# Every refused module, with why. A dotted name refuses that module and its
# submodules; the blocker also refuses a module whose package is refused.
REFUSED = {
    # Raw memory and native code: each can write anywhere in the process.
    "ctypes": "calls arbitrary native functions and writes arbitrary memory",
    "_ctypes": "the native half of ctypes",
    "_ctypes_test": "ctypes' test helpers (native code)",
    "cffi": "calls arbitrary native functions",
    "mmap": "maps descriptors and memory outside the interpreter's control",
    "_testcapi": "CPython's C API test hooks can corrupt the interpreter",
    "_testinternalcapi": "CPython's internal test hooks can corrupt the interpreter",
    "_testbuffer": "buffer-protocol test hooks (raw memory views)",
    "_testmultiphase": "import-machinery test module",
    "_testimportmultiple": "import-machinery test module",
    "_testclinic": "argument-clinic test module",
    "_xxsubinterpreters": "creates interpreters that share the process outside the host's accounting",
    "_xxtestfuzz": "fuzzing harness over internal parsers",
    "xxlimited": "example extension, native test code",
    "xxlimited_35": "example extension, native test code",
    # New processes: a child runs one program, never another process.
    "_posixsubprocess": "fork and exec of a new process",
    "subprocess": "runs other programs",
    "multiprocessing": "starts processes and shares memory with them",
    "_multiprocessing": "the native half of multiprocessing",
    "_posixshmem": "POSIX shared memory between processes",
    "pty": "forks a process on a pseudo-terminal",
    # The network: a child has no network and no socket but its channel.
    "_socket": "creates sockets",
    "socket": "creates sockets",
    "socketserver": "serves sockets",
    "ssl": "TLS over sockets",
    "_ssl": "the native half of ssl",
    "http.client": "HTTP over sockets",
    "http.server": "serves HTTP over sockets",
    "http.cookiejar": "part of the HTTP client (urllib.request)",
    "urllib.request": "fetches URLs over the network",
    "ftplib": "a network protocol client",
    "smtplib": "a network protocol client",
    "poplib": "a network protocol client",
    "imaplib": "a network protocol client",
    "nntplib": "a network protocol client",
    "telnetlib": "a network protocol client",
    "xmlrpc": "remote procedure calls over HTTP",
    "webbrowser": "starts a browser process",
    "antigravity": "opens a web browser",
    "asyncore": "socket servers",
    "asynchat": "socket servers (asyncore)",
    "smtpd": "an SMTP server over sockets",
    "nis": "queries the network's NIS directory",
    # Waiting on descriptors: select and poll are not among the calls seccomp
    # allows (asyncio, preloaded, waits with epoll and keeps its references).
    "select": "its select/poll waits are not allowed in the sandbox (asyncio's loop is)",
    "selectors": "select's waits are not allowed in the sandbox (asyncio's loop is)",
    # The process, its terminal and its signals belong to the sandbox.
    "signal": "the deadline is a SIGALRM handler a program must not replace",
    "_signal": "the native half of signal",
    "faulthandler": "installs handlers for fatal signals and writes to raw descriptors",
    "resource": "reads and tries to raise the child's limits",
    "fcntl": "descriptor and file-lock control beyond what a program's files need",
    "termios": "terminal control (the child has no terminal)",
    "tty": "terminal control (the child has no terminal)",
    "readline": "terminal line editing (the child has no terminal)",
    "curses": "a terminal user interface (the child has no terminal)",
    "_curses": "the native half of curses",
    "_curses_panel": "curses panels",
    "ossaudiodev": "opens the host's audio device",
    # Databases kept in the host's libraries (dbm.dumb, pure Python, stays).
    "_dbm": "the ndbm library is outside the child's root",
    "dbm.ndbm": "the ndbm library is outside the child's root",
    "dbm.gnu": "the gdbm library is outside the child's root",
    # The host's user database and logs: nothing of the host is a program's.
    "pwd": "reads the host's user database",
    "grp": "reads the host's group database",
    "spwd": "reads the host's shadow passwords",
    "syslog": "writes to the host's system log",
    # Desktop and installation tooling: needs a display, a terminal or pip.
    "tkinter": "needs a display",
    "turtle": "needs a display (tkinter)",
    "turtledemo": "needs a display (tkinter)",
    "idlelib": "an IDE (tkinter)",
    "ensurepip": "installs packages (runs pip in a subprocess)",
    "venv": "creates environments (runs subprocesses)",
    "test": "CPython's own test suite (starts processes, uses test hooks)",
}

# Loaded once in the zygote: the modules programs commonly import, and the
# guest modules bootstrap imports lazily. Extension modules whose shared
# libraries are outside a child's root (`_sqlite3` needs libsqlite3) must be
# here or they cannot be imported in a child at all; so must `email.utils`,
# which imports `socket` (for `getfqdn`) at load time: it keeps its own
# reference, and `prepare` then drops socket from `sys.modules` so that a
# program's `import socket` still meets the blocker. `mailbox` and
# `logging.handlers` import socket too; `unittest`, `doctest` and `pdb`
# import signal; `lzma`, `bz2` and `_crypt` need libraries outside the
# child's root; asyncio's own files are unreadable to a child (it imports
# socket, select, subprocess and signal at load time). For crypt only its
# extension is loaded (libcrypt is what a child cannot reach): importing
# `crypt` itself hashes a password with each method to learn which the
# system supports (SHA-512 and SHA-256 crypt with 5,000 rounds, bcrypt),
# about 4 ms of CPU that every zygote start would pay for a module few
# programs import; a program that imports it pays that in its own child.
PRELOAD = (
    "json", "re", "math", "cmath", "random", "datetime", "time", "collections",
    "collections.abc", "itertools", "functools", "operator", "decimal", "fractions",
    "statistics", "string", "textwrap", "heapq", "bisect", "ast", "copy", "dataclasses",
    "typing", "enum", "hashlib", "base64", "struct", "unicodedata", "zlib", "csv", "io",
    "difflib", "pprint", "uuid", "calendar", "array", "contextlib", "numbers", "html",
    "urllib.parse", "traceback", "linecache", "tokenize", "pathlib", "threading", "queue",
    "logging", "concurrent.futures", "sqlite3", "zoneinfo", "tomllib", "tempfile", "shutil",
    "glob", "html.parser", "xml.etree.ElementTree", "email", "email.message", "email.utils",
    "email.parser", "email.policy", "email.headerregistry", "email.mime.text",
    "email.mime.multipart", "mailbox", "logging.handlers", "unittest", "doctest", "pdb",
    "_crypt", "lzma", "bz2", "asyncio", "plm", "prefix",
)


# Refused modules that a preload imports only if it can (asyncio's TLS
# support: `try: import ssl` ... `except ImportError: ssl = None`) and that
# no preload needs: refused during the preloads too, so the zygote never
# loads them. Every fork copies a page-table entry for each resident page of
# the zygote and walks each of its mappings; `ssl`, its native half and
# OpenSSL's libssl were 0.75 MiB of anonymous memory and 11 mappings of
# about 19 MiB and 166. A program is refused them either way.
NOT_PRELOADED = ("ssl",)


def refusal(name):
    """The reason `name` is refused, or None when it may be imported."""
    parts = name.split(".")
    for end in range(1, len(parts) + 1):
        reason = REFUSED.get(".".join(parts[:end]))
        if reason is not None:
            return reason
    return None


class Blocker:
    """A meta-path finder that refuses REFUSED modules with a clear ImportError."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        reason = refusal(name)
        if reason is not None:
            raise ImportError(f"module {name!r} is not available in the sandbox: {reason}", name=name)
        return None


class KeptOutOfPreloads:
    """A meta-path finder that refuses NOT_PRELOADED modules while prepare()
    preloads, as the blocker refuses them afterwards."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.partition(".")[0] in NOT_PRELOADED:
            return Blocker.find_spec(name, path, target)
        return None


def prepare():
    """Preload PRELOAD (without NOT_PRELOADED), forget the refused modules
    they imported for their own use (they keep their references; a program's
    `import` then reaches the blocker, not `sys.modules`), and install the
    blocker."""
    sys.meta_path.insert(0, KeptOutOfPreloads)
    try:
        for name in PRELOAD:
            __import__(name)
    finally:
        sys.meta_path.remove(KeptOutOfPreloads)
    for name in [name for name in sys.modules if refusal(name)]:
        del sys.modules[name]
    if Blocker not in sys.meta_path:
        sys.meta_path.insert(0, Blocker)
