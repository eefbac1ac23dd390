"""pydantic-monty on spine's core benchmark program, driven line by line by
bench/enginebench so that its runs interleave with spine's in one run.

The program is enginebench's `trivial` with a trailing `result` (Monty
returns the value of the last expression); `lookup` is an external function
returning 7*key, served in this process, as spine's Go tool is in the host.
Each execution checks a session out of Monty's warm pool of worker processes,
feeds the program once and returns the session: fresh state per execution,
like a spine sandbox child.

Commands on stdin, one JSON line of answer each on stdout:
  version                    -> {"version": ..., "processes": n}
  lat N INTERVAL_US          -> {"seconds": [...]}: N executions, each started
                                INTERVAL_US after the previous one started
                                (0: back to back)
  rate THREADS N             -> {"per_second": x}: N executions from THREADS threads
  quit
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


def once(pool):
    with pool.checkout() as session:
        got = session.feed_run(CODE, inputs=INPUTS, external_lookup=LOOKUP)
    if got != WANT:
        raise SystemExit(f'monty_server: got {got!r}, want {WANT!r}')


def latencies(pool, n, interval):
    out = []
    next_start = time.perf_counter()
    for _ in range(n):
        if interval > 0:
            delay = next_start - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            next_start = max(next_start + interval, time.perf_counter())
        start = time.perf_counter()
        once(pool)
        out.append(time.perf_counter() - start)
    return out


def rate(pool, threads, n):
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
        raise SystemExit(f'monty_server: {errors[0]}')
    return per_thread * threads / elapsed


def main():
    processes = os.cpu_count() or 2
    with Monty(min_processes=processes, max_processes=processes) as pool:
        for _ in range(200):
            once(pool)
        for line in sys.stdin:
            words = line.split()
            if not words or words[0] == 'quit':
                break
            if words[0] == 'version':
                answer = {'version': __version__, 'processes': processes}
            elif words[0] == 'lat':
                answer = {'seconds': latencies(pool, int(words[1]), int(words[2]) / 1e6)}
            elif words[0] == 'rate':
                answer = {'per_second': rate(pool, int(words[1]), int(words[2]))}
            else:
                raise SystemExit(f'monty_server: unknown command {line!r}')
            print(json.dumps(answer), flush=True)


if __name__ == '__main__':
    main()
