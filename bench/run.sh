#!/usr/bin/env bash
# make bench: every benchmark, side by side, into bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/RESULTS.md
{
  echo "# Benchmark results"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "- command: \`make bench\` (bench/run.sh)"
  echo "- CPython: $(/usr/bin/python3 --version 2>&1) (Debian), Go: $(go version | cut -d' ' -f3)"
  echo
  mkdir -p build
  monty=$(bash bench/monty/run.sh 2>build/bench-monty.why) || true
  monty_why=$(cat build/bench-monty.why)
  go run ./bench/enginebench -monty "$monty" -monty-why "$monty_why"
  go run ./bench/nativebench
  go run ./bench/agentbench
  go run ./bench/mcpbench
  go run ./bench/journalbench
  go run ./bench/sessionbench
  # Real Python in the sandbox: gather, threads, per-execution latency,
  # beside an older build when SPINE_BASELINE names its commit.
  aio_peer=()
  if [ -n "${SPINE_BASELINE:-}" ]; then
    read -ra aio_peer <<< "$(bash bench/aiobench/baseline.sh "$SPINE_BASELINE")"
  fi
  go run ./bench/aiobench "${aio_peer[@]}"
  if [ -x build/runtime/runtime_bench ]; then
    bash bench/runtime/run.sh build
  fi
  # Last, alone: 64 submitters for 5 minutes against the sandbox. Its section
  # is written even when an invariant fails; make bench then fails after.
  soak_rc=0
  go run ./bench/soak || soak_rc=$?
} > "$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
exit "$soak_rc"
