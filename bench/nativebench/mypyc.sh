#!/usr/bin/env bash
# The mypyc peer of the kernel benchmark: a venv made from Debian's CPython
# (the one spine embeds) with mypy from PyPI, created once under build/.
# Only `make bench` uses it. argv: as mypyc_kernels.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=build/bench-mypyc-venv
if [ ! -x "$venv/bin/mypyc" ]; then
  /usr/bin/python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q mypy >&2
fi
exec "$venv/bin/python" bench/nativebench/mypyc_kernels.py "$@"
