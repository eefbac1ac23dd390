#!/usr/bin/env bash
# Installs what spine needs on a fresh Debian 12 machine, only what is missing.
# Go (>= 1.24) must already be on PATH; everything else comes from apt-get.
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config libpython3.11-dev python3-pytest
          libgtest-dev nlohmann-json3-dev libseccomp-dev libbenchmark-dev
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
  echo "setup: Go >= 1.24 is required on PATH (https://go.dev/doc/install)" >&2
  exit 1
fi
