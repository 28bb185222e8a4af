#!/usr/bin/env bash
# Builds and runs the libFuzzer target: every input goes through the trace readers,
# then through the bgtrace commands (check, explain, stats, dump, export to every format),
# and through bgtrace import's log reading as each platform.
#   Tools/fuzz/run.sh                 1,000,000 runs
#   Tools/fuzz/run.sh -runs=N ...     any libFuzzer flags
#   Tools/fuzz/run.sh --build-only    only build .build/fuzz/fuzz-traces
# Tools/fuzz/long-run.sh runs one build for millions of inputs, resumably; it sets
# FUZZ_BINARY (run that binary, build nothing), FUZZ_CORPUS and FUZZ_ARTIFACTS.
#
# SwiftPM cannot build fuzz targets, so the script compiles each module the CLI needs,
# in dependency order, into one object file and module in .build/fuzz (finding each
# module's sources with `find`, so new files are picked up), then links them with
# Tools/fuzz/FuzzTraces.swift and libFuzzer's main.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/.build/fuzz"
corpus="${FUZZ_CORPUS:-$root/Tools/fuzz/corpus}"
artifacts="${FUZZ_ARTIFACTS:-$root/Tools/fuzz/out}"
mkdir -p "$out" "$corpus" "$artifacts"

# The package's settings (Package.swift), plus coverage and AddressSanitizer everywhere.
flags=(
  -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -package-name BackgroundTrace
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility -I "$out"
)

# module NAME DIRECTORY: NAME.swiftmodule and NAME.o from every Swift file under DIRECTORY.
module() {
  local name="$1" directory="$root/$2" sources
  mapfile -t sources < <(find "$directory" -name '*.swift' | LC_ALL=C sort)
  swiftc "${flags[@]}" -wmo -c -module-name "$name" \
    -emit-module -emit-module-path "$out/$name.swiftmodule" "${sources[@]}" -o "$out/$name.o"
}

# build: compiles every module and links .build/fuzz/fuzz-traces.
build() {
  started=$SECONDS
  module _BackgroundTraceStorage Sources/_BackgroundTraceStorage
  module BackgroundTrace Sources/BackgroundTrace
  module BackgroundTraceCheck Sources/BackgroundTraceCheck
  module BackgroundSimulation Sources/BackgroundSimulation
  module BackgroundTraceReplay Sources/BackgroundTraceReplay
  module BackgroundExamples Sources/BackgroundExamples
  module TraceWorkloads Tools/TraceWorkloads
  module BackgroundTraceExport Sources/BackgroundTraceExport
  module BackgroundTraceImport Sources/BackgroundTraceImport
  module BackgroundTraceCLI Sources/BackgroundTraceCLI
  # The link; gold warns once per ASan helper symbol, which says nothing, so those go.
  if ! swiftc "${flags[@]}" -module-name FuzzTraces "$root/Tools/fuzz/FuzzTraces.swift" \
    "$out"/{_BackgroundTraceStorage,BackgroundTrace,BackgroundTraceCheck,BackgroundSimulation,BackgroundTraceReplay,BackgroundExamples,TraceWorkloads}.o \
    "$out/BackgroundTraceExport.o" "$out/BackgroundTraceImport.o" \
    "$out/BackgroundTraceCLI.o" -o "$out/fuzz-traces" 2>"$out/link.log"; then
    cat "$out/link.log" >&2
    exit 1
  fi
  grep -v 'Cannot export local symbol' "$out/link.log" >&2 || true
  echo "built $out/fuzz-traces in $((SECONDS - started)) s" >&2
}

if [[ -n "${FUZZ_BINARY:-}" ]]; then
  binary="$FUZZ_BINARY"
else
  build
  binary="$out/fuzz-traces"
  if [[ "${1:-}" == "--build-only" ]]; then exit 0; fi
fi

# Seed the corpus with the shipped traces (binary and text) and device logs (import).
find "$root/Traces" -type f \( -name '*.bgtrace' -o -name '*.txt' -o -name '*.log' \) -exec cp {} "$corpus/" \;
if [[ $# -eq 0 ]]; then set -- -runs=1000000; fi
# Let libFuzzer and AddressSanitizer report a trap, not Swift's backtracer (which ASan
# flags as it reads the crashed process's memory).
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
# AddressSanitizer's defaults cost most of the run's time here: it records a stack for
# every allocation, fills each new block, and keeps freed memory in a quarantine (which
# also grew each process to 700 MB). Swift frees nothing by hand, so the quarantine
# finds little; without the three, a run is about 1.5x faster. Out-of-bounds accesses
# are still caught, a crash still reports where it happened, and rerunning its input
# with ASAN_OPTIONS=malloc_context_size=30 shows where the memory came from.
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=0:max_malloc_fill_size=0:quarantine_size_mb=0:thread_local_quarantine_size_kb=0}"
# Crashing inputs go to Tools/fuzz/out/ (ignored by git), not the working directory.
exec "$binary" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$artifacts/" "$@" "$corpus"
