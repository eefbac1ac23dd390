#!/usr/bin/env bash
# pydantic-monty (from PyPI, its warm worker pool) on the core program, beside
# spine's sandbox figures: prints a markdown section for bench/RESULTS.md.
#   bench/monty/run.sh [FIGURES.json] [RUNS]
# FIGURES.json is what `enginebench -figures` wrote in the same run (for the
# ratios). The venv lives in build/bench-venv (gitignored), made from
# Debian's python3, never the python3 first on PATH. If Monty cannot be
# installed or run, the section says why and the script still succeeds.
set -uo pipefail
cd "$(dirname "$0")/../.."
figures=${1:-}
runs=${2:-2000}
venv=${SPINE_BENCH_VENV:-build/bench-venv}
log=build/bench-monty.log
mkdir -p build
echo "## pydantic-monty beside the spine sandbox"
echo
fail() {
  echo "pydantic-monty could not be measured: $1"
  echo
  echo '```'
  tail -n 15 "$log" 2>/dev/null
  echo '```'
  echo
  exit 0
}
if ! "$venv/bin/python" -c 'import pydantic_monty' >/dev/null 2>&1; then
  : >"$log"
  if [ ! -x "$venv/bin/python" ]; then
    /usr/bin/python3 -m venv "$venv" >>"$log" 2>&1 || fail "\`/usr/bin/python3 -m venv $venv\` failed (is python3-venv installed?)"
  fi
  "$venv/bin/pip" install --disable-pip-version-check -q pydantic-monty >>"$log" 2>&1 ||
    fail "\`$venv/bin/pip install pydantic-monty\` failed"
fi
json=$("$venv/bin/python" bench/monty/monty_bench.py "$runs" 4 2>"$log") || fail "bench/monty/monty_bench.py failed"
/usr/bin/python3 - "$json" "$figures" <<'PY'
import json, os, sys
m = json.loads(sys.argv[1])
spine = {}
if sys.argv[2] and os.path.exists(sys.argv[2]):
    with open(sys.argv[2]) as f:
        spine = json.load(f)
us = lambda s: f"{s * 1e6:.1f} µs"
print(f"Program: `result = {{'x': lookup(key=inputs['item'])}}` (Monty: with a trailing `result`), "
      f"`lookup` an external function returning 7*key, served by the host process. "
      f"pydantic-monty {m['version']}, a warm pool of {m['processes']} `monty` worker processes; "
      f"{m['checkout']['runs']} runs each.\n")
print("| peer | median | p99 | executions/s on %d cores |" % m['processes'])
print("| --- | ---: | ---: | ---: |")
if spine:
    print(f"| spine sandbox (warm pool, fresh forked child per execution) | {spine['sandbox_median_us']:.1f} µs | {spine['sandbox_p99_us']:.1f} µs "
          f"| {spine['sandbox_concurrent_per_second']:.0f} ({spine['concurrent_goroutines']} goroutines) |")
    print(f"| spine in-process (trusted code only) | {spine['inproc_median_us']:.1f} µs | {spine['inproc_p99_us']:.1f} µs | |")
print(f"| Monty: checkout a fresh session + `feed_run` per execution | {us(m['checkout']['median'])} | {us(m['checkout']['p99'])} "
      f"| {m['per_second']:.0f} ({m['threads']} threads) |")
print(f"| Monty: `feed_run` again on one held session (state persists) | {us(m['held']['median'])} | {us(m['held']['p99'])} | |")
if spine:
    print(f"| fresh `python3 -I -S` subprocess per run | {spine['subprocess_median_us']:.1f} µs | {spine['subprocess_p99_us']:.1f} µs | |")
    ratio = spine['sandbox_median_us'] / (m['checkout']['median'] * 1e6)
    sub = spine['subprocess_median_us'] / spine['sandbox_median_us']
    print()
    print(f"Sandbox median / Monty median (fresh session): **{ratio:.1f}x** "
          f"(target: within Monty's figure, i.e. at most 1x: {'met' if ratio <= 1 else 'not met'}). "
          f"Subprocess median / sandbox median: **{sub:.1f}x** (target: at least 20x: {'met' if sub >= 20 else 'not met'}).")
else:
    print("\n(No spine figures given: run through bench/run.sh for the ratios.)")
print()
PY
