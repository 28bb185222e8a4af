#!/usr/bin/env bash
# Renders the timelines `bgtrace export` draws and takes headless-Chromium screenshots
# of them, to look at by eye after changing the exporters (CONTRIBUTING.md, "Looking
# at the timelines"): the demo's trace (simulated iOS), an Android golden, an imported
# Xcode console log and a 1,000,000-event workload trace, each page also zoomed in
# through its address (#zoom=FACTOR,START).
#   Tools/screenshot-timelines.sh [OUTDIR]        (default .build/screenshots)
# Writes OUTDIR/NAME.{svg,html} and OUTDIR/NAME-{svg,html,zoomed}.png for NAME in demo,
# android, imported and workload.
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

shoot() { # NAME WIDTH HEIGHT ZOOM: OUTDIR/NAME.svg and .html, each to a PNG, and the page zoomed
  local name="$1" width="$2" height="$3" zoom="$4"
  for view in svg html zoomed; do
    local file="$name.$view" address=""
    if [ "$view" = zoomed ]; then file="$name.html" address="#zoom=$zoom"; fi
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
      --window-size="$width,$height" --screenshot="$out/$name-$view.png" \
      "file://$out/$file$address" > /dev/null 2>&1
    echo "$out/$name-$view.png"
  done
}

for format in svg html; do
  "$bin/bgtrace" export "$out/demo-run/demo.bgtrace" --format "$format" > "$out/demo.$format"
  "$bin/bgtrace" export Traces/golden/android/news-sync.txt --format "$format" > "$out/android.$format"
  "$bin/bgtrace" export Traces/import/ios/xcode-onesignal-still-not-ended-multi.log --format "$format" \
    > "$out/imported.$format" 2> /dev/null
  "$bin/bgtrace" export "$out/workload.bgtrace" --format "$format" > "$out/workload.$format"
done
shoot demo 1400 900 20,0
shoot android 1400 700 30,0.2
shoot imported 1400 700 40,0.95
shoot workload 1400 2400 50,0.5
