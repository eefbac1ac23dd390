"""The PLM transform's own cost on a 200-line program (no execution).

Usage: /usr/bin/python3 bench/plm_transform.py   (prints the median in ms, then
the median CPU time of this process in ms: on a shared machine the wall time
is mostly waiting for a core)
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "guest"))
import plm  # noqa: E402


def program():
    """200 lines: 100 tool calls, each result used by the next line."""
    lines = []
    for i in range(100):
        lines += [f"a{i} = lookup(key={i})", f"b{i} = a{i} + 1"]
    return "\n".join(lines) + "\nresult = b99\n"


def main():
    source = program()
    manifest = [{"name": "lookup", "speculative": True}]
    for _ in range(5):
        plm.transform(source, manifest)
    samples, cpu = [], []
    for _ in range(50):
        start, start_cpu = time.perf_counter(), time.process_time()
        plm.transform(source, manifest)
        samples.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    print(f"{statistics.median(samples) * 1000:.2f} (CPU {statistics.median(cpu) * 1000:.2f})")


if __name__ == "__main__":
    main()
