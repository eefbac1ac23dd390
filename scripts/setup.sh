#!/usr/bin/env bash
# Installs what spine needs on a fresh Debian 12 machine, only what is missing.
# Go (>= 1.25) must already be on PATH; everything else comes from apt-get.
set -euo pipefail

# python3.11-minimal: /usr/bin/python3.11, the interpreter the sandbox's zygote runs in.
packages=(build-essential cmake ninja-build pkg-config libpython3.11-dev python3.11-minimal python3-pytest
          libgtest-dev nlohmann-json3-dev libseccomp-dev libbenchmark-dev python3-venv
          chromium python3-prometheus-client)  # the trace page in a real browser; /metrics through a real parser
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v go >/dev/null 2>&1; then
  echo "setup: Go >= 1.25 is required on PATH (https://go.dev/doc/install)" >&2
  exit 1
fi

# The official MCP Python SDK, the client the tests drive `spine mcp` with,
# in a venv of Debian's python3 (never the python3 first on PATH).
cd "$(dirname "$0")/.."
mcp_venv=build/mcp-venv
if ! "$mcp_venv/bin/python" -c 'import mcp' >/dev/null 2>&1; then
  echo "setup: installing the MCP Python SDK into $mcp_venv"
  mkdir -p build
  # Only the MCP tests need it: without PyPI, say so and let the rest build.
  if ! { /usr/bin/python3 -m venv "$mcp_venv" &&
         "$mcp_venv/bin/pip" install --disable-pip-version-check -q 'mcp==2.3.0'; }; then
    echo "setup: could not install the MCP Python SDK; cmd/spine's MCP tests will fail until it is" >&2
  fi
fi
