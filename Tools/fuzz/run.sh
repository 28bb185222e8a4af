#!/usr/bin/env bash
# Builds and runs the libFuzzer target for the trace readers.
#   Tools/fuzz/run.sh                 1,000,000 runs
#   Tools/fuzz/run.sh -runs=N ...     any libFuzzer flags
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/.build/fuzz"
corpus="$root/Tools/fuzz/corpus"
mkdir -p "$out" "$corpus"
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name FuzzTraceReaders \
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
  -enable-upcoming-feature MemberImportVisibility -swift-version 6 -package-name BackgroundTrace \
  $(find "$root/Sources/BackgroundTrace" -name "*.swift" -not -path "*/Apple/*") "$root/Tools/fuzz/FuzzBinaryReader.swift" \
  -o "$out/fuzz-trace-readers"
# Seed the corpus with the shipped test vectors (binary and text).
find "$root/Traces" -type f \( -name '*.bgtrace' -o -name '*.txt' \) -exec cp {} "$corpus/" \;
if [[ $# -eq 0 ]]; then set -- -runs=1000000; fi
exec "$out/fuzz-trace-readers" -max_len=4096 -timeout=10 -rss_limit_mb=2048 "$@" "$corpus"
