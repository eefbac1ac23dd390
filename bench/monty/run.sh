#!/usr/bin/env bash
# Makes the benchmark venv with pydantic-monty (from PyPI) and prints the
# path of its python on stdout; on failure prints nothing and says why on
# stderr (bench/run.sh then reports Monty as not measured, with the reason).
# The venv lives in build/bench-venv (gitignored), made from Debian's
# python3, never the python3 first on PATH.
set -uo pipefail
cd "$(dirname "$0")/../.."
venv=${SPINE_BENCH_VENV:-build/bench-venv}
log=build/bench-monty.log
mkdir -p build
if "$venv/bin/python" -c 'import pydantic_monty' >/dev/null 2>&1; then
  echo "$PWD/$venv/bin/python"
  exit 0
fi
: >"$log"
if [ ! -x "$venv/bin/python" ] && ! /usr/bin/python3 -m venv "$venv" >>"$log" 2>&1; then
  echo "\`/usr/bin/python3 -m venv $venv\` failed (is python3-venv installed?): $(tail -n 3 "$log" | tr '\n' ' ')" >&2
  exit 1
fi
if ! "$venv/bin/pip" install --disable-pip-version-check -q pydantic-monty >>"$log" 2>&1; then
  echo "\`$venv/bin/pip install pydantic-monty\` failed: $(tail -n 3 "$log" | tr '\n' ' ')" >&2
  exit 1
fi
echo "$PWD/$venv/bin/python"
