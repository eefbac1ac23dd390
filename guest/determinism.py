"""Repeatable nondeterminism for an execution that keeps a journal.

A journaled execution may be replayed later (to resume it after a
suspension), and the replay must take the same path through the program:
its only contact with the world is its tool calls, which the host answers
from the journal, but the program may also read the clock or draw random
numbers. While such an execution runs:

- `random` (its module-level generator) is seeded from the journal's seed;
- os.urandom, and with it uuid.uuid4, secrets and random.SystemRandom, draw
  from a generator seeded from the same seed (so they are predictable to
  whoever holds the journal: a journaled program must not mint real secrets);
- the wall clock (time.time, time.time_ns, time.localtime/gmtime/ctime/
  strftime without a time, datetime.datetime.now/utcnow/today,
  datetime.date.today) is read from the host, which records each reading
  and replays them in order.

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


def install(seed, read_clock_ns):
    """Make the sources repeatable; return the function that restores them."""
    saved = [(time, name, getattr(time, name)) for name in
             ("time", "time_ns", "localtime", "gmtime", "ctime", "strftime")]
    saved += [(os, "urandom", os.urandom), (random, "_urandom", random._urandom),
              (_datetime, "datetime", _datetime.datetime), (_datetime, "date", _datetime.date)]
    state = random.getstate()
    random.seed(seed)
    stream = random.Random(seed ^ _URANDOM_SALT)
    localtime, gmtime, ctime, strftime = time.localtime, time.gmtime, time.ctime, time.strftime

    def time_ns():
        return int(read_clock_ns())

    def now():
        return time_ns() / 1e9

    def urandom(size):
        size = operator.index(size)
        if size < 0:
            raise ValueError("negative argument not allowed")
        return stream.randbytes(size)

    base_datetime, base_date = _datetime.datetime, _datetime.date

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
    time.time, time.time_ns = now, time_ns
    time.localtime = lambda secs=None: localtime(now() if secs is None else secs)
    time.gmtime = lambda secs=None: gmtime(now() if secs is None else secs)
    time.ctime = lambda secs=None: ctime(now() if secs is None else secs)
    time.strftime = lambda format, t=None: strftime(format, localtime(now()) if t is None else t)
    os.urandom = random._urandom = urandom
    _datetime.datetime, _datetime.date = datetime, date

    def restore():
        for module, name, value in saved:
            setattr(module, name, value)
        random.setstate(state)

    return restore
