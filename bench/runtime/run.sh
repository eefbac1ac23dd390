#!/bin/sh
# Runs the runtime benchmarks from an existing build and prints a markdown
# section for bench/RESULTS.md on stdout. Builds nothing.
#   usage: bench/runtime/run.sh <build dir>
set -eu
BUILD=${1:?usage: run.sh <build dir>}
BUILD=$(cd "$BUILD" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH="$BUILD/runtime/runtime_bench"
PYDIR="$BUILD/runtime/python"
PY=/usr/bin/python3
for f in "$BENCH" "$PYDIR/libruntime_bench_ctypes.so"; do
  [ -e "$f" ] || { echo "run.sh: missing $f (build the runtime_bench and runtime_bench_ctypes targets)" >&2; exit 1; }
done
ls "$PYDIR"/spine_runtime*.so >/dev/null 2>&1 || { echo "run.sh: spine_runtime module not built in $PYDIR" >&2; exit 1; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$BENCH" --benchmark_min_time=0.2 --benchmark_format=json >"$TMP/cpp.json" 2>/dev/null
"$PY" "$HERE/py_calls.py" "$PYDIR" >"$TMP/py.jsonl"

CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || echo unknown)
"$PY" - "$TMP/cpp.json" "$TMP/py.jsonl" "$CPU" "$BENCH" "$HERE/py_calls.py" "$PYDIR" <<'PYEOF'
import datetime, json, os, platform, sys

cpp_path, py_path, cpu, bench, pyscript, pydir = sys.argv[1:7]
cpp = {b["name"]: b for b in json.load(open(cpp_path))["benchmarks"]}
py = {}
for line in open(py_path):
    r = json.loads(line)
    py[r["name"]] = r["ns_per_op"]

def ns(b):
    # Google Benchmark reports real_time in its time_unit (ns by default)
    return b["real_time"] * {"ns": 1, "us": 1e3, "ms": 1e6}[b.get("time_unit", "ns")]

print("## Runtime library: values, containers, typed calls")
print()
print(f"- machine: {platform.machine()}, {cpu}, {os.cpu_count()} cores (shared)")
print(f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}")
print(f"- commands: `{bench} --benchmark_min_time=0.2`; `/usr/bin/python3 {pyscript} {pydir}` (timeit, best of 7 x 200k)")
print()
print("### C++ (Google Benchmark)")
print()
print("| benchmark | ns/op | allocs/op | ratio |")
print("|---|---:|---:|---|")
pairs = {"BM_DictLookupInt": "BM_UnorderedMapLookupInt", "BM_DictLookupStr": "BM_UnorderedMapLookupStr",
         "BM_CApiCallKeyword": "BM_CApiCallPositional", "BM_McValueCopyObject": "BM_McValueCopyInt"}
for name, b in cpp.items():
    ratio = ""
    if name in pairs and pairs[name] in cpp:
        ratio = f"{ns(b) / ns(cpp[pairs[name]]):.2f}x {pairs[name]}"
    allocs = b.get("allocs/op", float("nan"))
    print(f"| {name} | {ns(b):.1f} | {allocs:.2f} | {ratio} |")
print()
print("### Python -> native call (same process, same run)")
print()
base = py.get("python: plain function, positional")
ct = py.get("python: ctypes C function, positional")
print("| call | ns/op | vs plain Python | vs ctypes |")
print("|---|---:|---:|---:|")
for name, v in py.items():
    print(f"| {name} | {v:.1f} | {v / base:.2f}x | {v / ct:.2f}x |")
kw = py.get("python: spine_runtime testing.add, keywords")
print()
print(f"Target: keyword call into the runtime under 150 ns -> measured {kw:.1f} ns "
      f"({'met' if kw < 150 else 'NOT met'}). Runtime-side allocations per call with 4 arguments and "
      f"4 results: {cpp['BM_CallableInvokeKw4Results4'].get('allocs/op', float('nan')):.2f} "
      "(BM_CallableInvokeKw4Results4; also asserted by runtime_alloc_tests).")
PYEOF
