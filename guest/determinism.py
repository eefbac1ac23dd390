"""Repeatable nondeterminism for an execution that keeps a journal.

A journaled execution may be replayed later (to resume it after a
suspension), and the replay must take the same path through the program:
its only contact with the world is its tool calls, which the host answers
from the journal, but the program may also read the clock or draw random
numbers. Such an execution has its own `Sources`:

- `random`'s module-level functions (random.random, randint, choice,
  shuffle, seed, ...) draw from a generator of its own, seeded from the
  journal's seed;
- os.urandom, and with it uuid.uuid4, secrets and random.SystemRandom, draw
  from a generator seeded from the same seed (so they are predictable to
  whoever holds the journal: a journaled program must not mint real secrets);
- the wall clock (time.time, time.time_ns, time.localtime/gmtime/ctime/
  strftime without a time, datetime.datetime.now/utcnow/today,
  datetime.date.today) is read from the host, which records each reading
  and replays them in order.

In process, executions overlap in one interpreter and these module
attributes are shared, so they are replaced once (`install`) by dispatchers
that ask which execution the running thread serves: a journaled one gets
its own sources, any other the real ones, exactly as if nothing had been
replaced. Nothing is patched or restored per execution, so one execution's
end never undoes what another relies on.

Monotonic clocks (time.monotonic, perf_counter, process_time) stay live:
the event loop reads them at every turn, a number that depends on when tool
results arrive, and they measure durations rather than decide what the
program does. A program that takes decisions from them is not repeatable,
and its replay is refused when it then asks for other calls.
"""
import datetime as _datetime
import operator
import os
import random
import time

_URANDOM_SALT = 0x5EED_0F_0E_2A


class Sources:
    """The repeatable clock and randomness of one journaled execution."""

    __slots__ = ("random", "_stream", "_read_clock_ns")

    def __init__(self, seed, read_clock_ns):
        self.random = random.Random(seed)
        self._stream = random.Random(seed ^ _URANDOM_SALT)
        self._read_clock_ns = read_clock_ns

    def time_ns(self):
        return int(self._read_clock_ns())

    def urandom(self, size):
        size = operator.index(size)
        if size < 0:
            raise ValueError("negative argument not allowed")
        return self._stream.randbytes(size)


# The `current` function the dispatchers were installed with (once per
# interpreter: a second install would wrap the dispatchers themselves).
_installed = None


def install(current):
    """Route the clock and randomness through `current()`, the running
    thread's `Sources` or None (then the real ones). Idempotent."""
    global _installed
    if _installed is not None:
        if _installed is not current:
            raise RuntimeError("the repeatable sources are already routed elsewhere")
        return
    _installed = current
    _route_time(current)
    _route_urandom(current)
    _route_random(current)
    _route_datetime(current)


def _like(original, replacement):
    """The replacement, named and documented as the function it stands for."""
    for name in ("__name__", "__qualname__", "__doc__", "__module__"):
        try:
            setattr(replacement, name, getattr(original, name))
        except (AttributeError, TypeError):
            pass
    return replacement


def _route_time(current):
    real_time, real_time_ns = time.time, time.time_ns
    localtime, gmtime, ctime, strftime = time.localtime, time.gmtime, time.ctime, time.strftime

    def time_ns():
        sources = current()
        return real_time_ns() if sources is None else sources.time_ns()

    def now():
        sources = current()
        return real_time() if sources is None else sources.time_ns() / 1e9

    def reading(function):
        # secs=None is the function's own "now" (a real reading) unless the
        # thread serves a journaled execution.
        def read(secs=None):
            if secs is None and current() is not None:
                secs = now()
            return function(secs)
        return _like(function, read)

    def formatted(format, t=None):
        if t is None:
            if current() is None:
                return strftime(format)
            t = localtime(now())
        return strftime(format, t)

    time.time, time.time_ns = _like(real_time, now), _like(real_time_ns, time_ns)
    time.localtime, time.gmtime, time.ctime = reading(localtime), reading(gmtime), reading(ctime)
    time.strftime = _like(strftime, formatted)


def _route_urandom(current):
    real = os.urandom

    def urandom(size):
        sources = current()
        return real(size) if sources is None else sources.urandom(size)

    # random keeps its own reference (SystemRandom, randbytes of the system
    # generator): both are routed.
    os.urandom = random._urandom = _like(real, urandom)


def _route_random(current):
    """The module-level functions of `random` are bound methods of its
    hidden generator; each is routed to the journaled execution's own
    generator, so neither draws from the other's sequence."""
    shared = random._inst
    for name, bound in list(vars(random).items()):
        if getattr(bound, "__self__", None) is not shared or not callable(bound):
            continue
        setattr(random, name, _like(bound, _routed_method(current, name, bound)))


def _routed_method(current, name, bound):
    def method(*args, **kwargs):
        sources = current()
        if sources is None:
            return bound(*args, **kwargs)
        return getattr(sources.random, name)(*args, **kwargs)
    return method


def _route_datetime(current):
    """datetime.datetime and datetime.date are C types whose now/today read
    the system clock directly: a journaled execution sees subclasses reading
    the routed clock instead. The module's class answers the two names per
    thread (the classes themselves cannot change), so every other execution
    keeps the very types it always had (isinstance and all)."""
    module = _datetime
    base_datetime, base_date = module.datetime, module.date

    def now():
        return time.time()  # routed: the journaled execution's clock

    class datetime(base_datetime):
        __doc__ = base_datetime.__doc__

        @classmethod
        def now(cls, tz=None):
            return cls.fromtimestamp(now(), tz)

        @classmethod
        def utcnow(cls):
            return cls.utcfromtimestamp(now())

        @classmethod
        def today(cls):
            return cls.fromtimestamp(now())

    class date(base_date):
        __doc__ = base_date.__doc__

        @classmethod
        def today(cls):
            return cls.fromtimestamp(now())

    datetime.__module__ = date.__module__ = "datetime"
    repeatable = {"datetime": datetime, "date": date}

    def per_thread(name):
        def get(self):
            if current() is not None:
                return repeatable[name]
            return self.__dict__[name]

        def put(self, value):
            self.__dict__[name] = value
        return property(get, put)

    module.__class__ = type("datetime_module", (type(module),), {
        "__doc__": type(module).__doc__,
        "datetime": per_thread("datetime"),
        "date": per_thread("date"),
    })
