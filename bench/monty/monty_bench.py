"""pydantic-monty on spine's core benchmark program; prints one JSON object.

The program is bench/enginebench's `trivial` with a trailing `result` (Monty
returns the value of the last expression); `lookup` is an external function
returning 7*key, served in this process, as spine's Go tool is in the host.

Figures (seconds):
  checkout: a session checked out of the warm pool per execution, fed once and
            returned: fresh state per execution, like a spine sandbox child;
  held:     feed_run again and again on one checked-out session (state
            persists between runs: cheaper, and no isolation between them; a
            new session every 500 feeds, Monty's suspension limit);
  per_second: executions/s with `threads` threads, each a checkout per
            execution, on a pool of `processes` workers.
"""

import json
import os
import sys
import threading
import time

from pydantic_monty import Monty, __version__

CODE = "result = {'x': lookup(key=inputs['item'])}\nresult"
INPUTS = {'inputs': {'item': 3}}
LOOKUP = {'lookup': lambda key: 7 * key}
WANT = {'x': 21}


def summarize(samples):
    samples = sorted(samples)
    return {'median': samples[len(samples) // 2], 'p99': samples[len(samples) * 99 // 100], 'runs': len(samples)}


def once(pool):
    with pool.checkout() as session:
        got = session.feed_run(CODE, inputs=INPUTS, external_lookup=LOOKUP)
    if got != WANT:
        raise SystemExit(f'monty_bench: got {got!r}, want {WANT!r}')


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    processes = os.cpu_count() or 2
    out = {'version': __version__, 'processes': processes, 'threads': threads}
    with Monty(min_processes=processes, max_processes=processes) as pool:
        for _ in range(200):
            once(pool)
        samples = []
        for _ in range(n):
            start = time.perf_counter()
            once(pool)
            samples.append(time.perf_counter() - start)
        out['checkout'] = summarize(samples)

        # A session allows 1,000 suspensions (host calls) in all, so the held
        # runs take a new session every 500 feeds (not timed).
        samples = []
        while len(samples) < n:
            with pool.checkout() as session:
                for _ in range(min(500, n - len(samples))):
                    start = time.perf_counter()
                    got = session.feed_run(CODE, inputs=INPUTS, external_lookup=LOOKUP)
                    samples.append(time.perf_counter() - start)
                    if got != WANT:
                        raise SystemExit(f'monty_bench: got {got!r}')
        out['held'] = summarize(samples)

        per_thread = max(1, n // threads)
        errors = []

        def worker():
            try:
                for _ in range(per_thread):
                    once(pool)
            except BaseException as e:  # reported, not swallowed
                errors.append(repr(e))

        workers = [threading.Thread(target=worker) for _ in range(threads)]
        start = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        elapsed = time.perf_counter() - start
        if errors:
            raise SystemExit(f'monty_bench: {errors[0]}')
        out['per_second'] = per_thread * threads / elapsed
    print(json.dumps(out))


if __name__ == '__main__':
    main()
