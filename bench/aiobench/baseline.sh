#!/usr/bin/env bash
# Build aiobench and the spine-guest of an older commit into DIR, for
# `go run ./bench/aiobench -peer DIR/aiobench -peer-guest DIR/spine-guest`:
# the sandbox's per-execution latency of that commit measured beside this
# build's, in interleaved rounds on the same machine.
#   bash bench/aiobench/baseline.sh COMMIT [DIR]   (DIR: build/aiobench-baseline)
set -euo pipefail
cd "$(dirname "$0")/../.."
commit=${1:?usage: baseline.sh COMMIT [DIR]}
dir=$(realpath -m "${2:-build/aiobench-baseline}")
rm -rf "$dir"
mkdir -p "$dir/src"
git archive "$commit" | tar -x -C "$dir/src"
mkdir -p "$dir/src/bench/aiobench"
cp bench/aiobench/main.go "$dir/src/bench/aiobench/main.go"
cmake -S "$dir/src" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir/build" --target spine-guest >/dev/null
cp "$dir/build/guest-c/sandbox/spine-guest" "$dir/spine-guest"
(cd "$dir/src" && CGO_ENABLED=0 go build -o "$dir/aiobench" ./bench/aiobench)
echo "-peer $dir/aiobench -peer-guest $dir/spine-guest -peer-name $commit"
