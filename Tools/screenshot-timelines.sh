#!/usr/bin/env bash
# Renders the timelines `bgtrace export` draws and takes headless-Chromium screenshots
# of them, to look at by eye after changing the exporters (CONTRIBUTING.md, "Looking
# at the timelines"): the demo's trace, and a 1,000,000-event workload trace.
#   Tools/screenshot-timelines.sh [OUTDIR]        (default .build/screenshots)
# Writes OUTDIR/{demo,workload}.{svg,html} and OUTDIR/{demo,workload}-{svg,html}.png.
# Needs Chromium (Debian: apt-get install chromium; macOS: Google Chrome, or set
# CHROMIUM to its binary). Not part of CI: it changes nothing and checks nothing, it
# only draws.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/.build/screenshots}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

browser="${CHROMIUM:-}"
if [ -z "$browser" ]; then
  for candidate in chromium chromium-browser google-chrome \
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"; do
    if command -v "$candidate" > /dev/null 2>&1; then
      browser="$candidate"
      break
    fi
  done
fi
if [ -z "$browser" ]; then
  echo "error: no Chromium found; install it (Debian: apt-get install chromium) or set CHROMIUM=/path/to/chrome" >&2
  exit 2
fi

cd "$root"
swift build -c release --product bgtrace > /dev/null
swift build -c release --product bgtrace-bench > /dev/null
bin="$(swift build -c release --show-bin-path)"

"$bin/bgtrace" demo --out "$out/demo-run" > /dev/null
"$bin/bgtrace-bench" --events 1000000 --write-workload "$out/workload.bgtrace" > /dev/null

shoot() { # NAME WIDTH HEIGHT: OUTDIR/NAME.svg and .html, each to a PNG
  local name="$1" width="$2" height="$3"
  for format in svg html; do
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
      --window-size="$width,$height" --screenshot="$out/$name-$format.png" \
      "file://$out/$name.$format" > /dev/null 2>&1
    echo "$out/$name-$format.png"
  done
}

for format in svg html; do
  "$bin/bgtrace" export "$out/demo-run/demo.bgtrace" --format "$format" > "$out/demo.$format"
  "$bin/bgtrace" export "$out/workload.bgtrace" --format "$format" > "$out/workload.$format"
done
shoot demo 1400 900
shoot workload 1400 2400
