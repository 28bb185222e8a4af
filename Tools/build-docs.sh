#!/usr/bin/env bash
# Builds the API reference: one DocC archive per library product, from the catalogs
# under Sources/<Product>/<Product>.docc and the symbol graphs of this package's own
# build, with the toolchain's own `swift package dump-symbol-graph` and `docc` (no
# package dependency). Every DocC warning is an error, so a broken ``symbol`` link in a
# doc comment or an article fails the build; diagnostics print as FILE:LINE:COLUMN lines.
#   Tools/build-docs.sh [OUTDIR]      (default .build/docs)
# Writes OUTDIR/<Product>.doccarchive for each product and OUTDIR/BackgroundTrace-API.doccarchive,
# all of them merged under one landing page. To read it, serve that folder over HTTP
# (`python3 -m http.server -d OUTDIR/BackgroundTrace-API.doccarchive`) and open
# /documentation/backgroundtrace, or run `docc preview Sources/X/X.docc
# --additional-symbol-graph-dir …` for one catalog.
#
# A doc comment links a symbol of another product with an absolute link,
# ``/BackgroundTrace/TraceEvent``: each archive is built with the ones before it as
# dependencies (docc's external link support), so those links are checked too.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="${1:-.build/docs}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# The toolchain's docc: beside `swift`, or through xcrun with Xcode; DOCC overrides.
if [[ -n "${DOCC:-}" ]]; then
  docc="$DOCC"
elif command -v xcrun > /dev/null 2>&1; then
  docc="$(xcrun --find docc)"
else
  docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi
if [[ ! -x "$docc" ]]; then
  echo "error: no docc at '$docc' (set DOCC to the toolchain's docc)" >&2
  exit 1
fi

# The library products, each after the products it depends on (its links into them
# resolve against their archives).
products=(
  BackgroundTrace
  BackgroundTraceCheck
  BackgroundTraceImport
  BackgroundSimulation
  BackgroundTraceReplay
  BackgroundTraceExport
  BackgroundTraceTesting
)

# Symbol graphs of the debug build; extension blocks so that a module's extensions of
# another module's types have pages of their own. dump-symbol-graph extracts every
# module of the package, test modules too, but builds only the others: the tests are
# built first (the later `swift test` of CI reuses them).
log="$(mktemp)"
graphs="$(mktemp -d)"
trap 'rm -rf "$log" "$graphs"' EXIT
if ! swift build --build-tests > "$log" 2>&1; then
  cat "$log" >&2
  echo "error: swift build --build-tests failed" >&2
  exit 1
fi
if ! swift package dump-symbol-graph --emit-extension-block-symbols > "$log" 2>&1; then
  cat "$log" >&2
  echo "error: swift package dump-symbol-graph failed" >&2
  exit 1
fi
dumped="$(sed -n 's/^Files written to //p' "$log" | tail -n 1)"
if [[ -z "$dumped" || ! -d "$dumped" ]]; then
  cat "$log" >&2
  echo "error: swift package dump-symbol-graph did not say where it wrote the graphs" >&2
  exit 1
fi

archives=()
for product in "${products[@]}"; do
  catalog="Sources/$product/$product.docc"
  if [[ ! -d "$catalog" ]]; then
    echo "error: $catalog is missing: every library product has a catalog" >&2
    exit 1
  fi
  # Only this module's graphs (its own and its extensions of other modules): a
  # catalog documents one module.
  mkdir "$graphs/$product"
  cp "$dumped/$product.symbols.json" "$graphs/$product/"
  for extension in "$dumped/$product@"*.symbols.json; do
    if [[ -e "$extension" ]]; then cp "$extension" "$graphs/$product/"; fi
  done
  dependencies=()
  for archive in "${archives[@]+"${archives[@]}"}"; do
    dependencies+=(--dependency "$archive")
  done
  echo "-- $product"
  rm -rf "$out/$product.doccarchive"
  "$docc" convert "$catalog" \
    --additional-symbol-graph-dir "$graphs/$product" \
    --fallback-display-name "$product" \
    --fallback-bundle-identifier "$product" \
    --output-path "$out/$product.doccarchive" \
    --enable-experimental-external-link-support \
    "${dependencies[@]+"${dependencies[@]}"}" \
    --ide-console-output \
    --warnings-as-errors
  archives+=("$out/$product.doccarchive")
done

rm -rf "$out/BackgroundTrace-API.doccarchive"
"$docc" merge "${archives[@]}" \
  --synthesized-landing-page-name "BackgroundTrace" \
  --output-path "$out/BackgroundTrace-API.doccarchive"
echo "API reference: $out/BackgroundTrace-API.doccarchive (and one archive per product beside it)"
