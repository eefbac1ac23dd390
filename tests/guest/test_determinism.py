"""pytest for guest/determinism.py: the sources are routed per thread.

Installing the dispatchers changes process-global modules for good, so the
checks run in a fresh interpreter of their own (the same /usr/bin/python3).
"""
import os
import subprocess
import sys

GUEST = os.path.join(os.path.dirname(__file__), "..", "..", "guest")

# Two threads overlap, taking turns through a pair of events so that each
# reads while the other is between its reads: one serves journaled Sources
# (a fixed clock, seed 7), the other none.
CHECK = r'''
import datetime, os, random, threading, time
import determinism

local = threading.local()
determinism.install(lambda: getattr(local, "sources", None))
determinism.install(determinism._installed)  # idempotent
clock = iter(range(10**18, 10**18 + 10**12, 10**9))
real_datetime = datetime.datetime.__mro__[0]
seen = {}
turn = [threading.Event(), threading.Event()]

def journaled():
    local.sources = determinism.Sources(7, lambda: next(clock))
    got = []
    for _ in range(5):
        got.append((random.random(), random.randint(1, 10**9), time.time(), os.urandom(4)))
        turn[1].set(); turn[0].wait(); turn[0].clear()
    got.append(datetime.datetime.now().year)
    got.append(type(datetime.datetime) is type and datetime.datetime is not real_datetime)
    local.sources = None
    seen["journaled"] = got
    turn[1].set()

def plain():
    got = []
    for _ in range(5):
        turn[1].wait(); turn[1].clear()
        got.append((random.random(), time.time(), os.urandom(4)))
        turn[0].set()
    turn[1].wait()
    got.append(datetime.datetime.now().year)
    got.append(datetime.datetime is real_datetime)
    seen["plain"] = got

random.seed(3)
threads = [threading.Thread(target=journaled), threading.Thread(target=plain)]
for t in threads: t.start()
for t in threads: t.join()

mirror = random.Random(7)
stream = random.Random(7 ^ determinism._URANDOM_SALT)
expected = []
for i in range(5):
    expected.append((mirror.random(), mirror.randint(1, 10**9), 1e9 + i, stream.randbytes(4)))
assert seen["journaled"][:5] == expected, (seen["journaled"], expected)
assert seen["journaled"][5] == 2001 and seen["journaled"][6] is True

unseeded = random.Random(3)
now = time.time()
drawn = set(mirror.random() for _ in range(1000)) | {e[0] for e in expected}
for r, t, u in seen["plain"][:5]:
    assert r == unseeded.random()  # the shared generator, undisturbed
    assert r not in drawn
    assert abs(t - now) < 60
    assert u not in {e[3] for e in expected}
assert seen["plain"][5] == datetime.date.today().year and seen["plain"][6] is True
assert time.localtime().tm_year == datetime.date.today().year
assert isinstance(datetime.datetime.now(), datetime.datetime)
print("ok")
'''


def test_sources_are_routed_per_thread():
    done = subprocess.run([sys.executable, "-c", CHECK], env={**os.environ, "PYTHONPATH": GUEST},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok\n"
