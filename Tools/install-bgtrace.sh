#!/usr/bin/env bash
# Builds bgtrace in release and installs it as PREFIX/bin/bgtrace (docs/guides/checking.md, "Installing bgtrace"). PREFIX defaults to /usr/local; use one you can write to, e.g. "$HOME/.local".
#
#   Tools/install-bgtrace.sh [PREFIX]
set -euo pipefail
if [ "$#" -gt 1 ]; then
  echo "usage: Tools/install-bgtrace.sh [PREFIX]" >&2
  exit 2
fi
prefix="${1:-/usr/local}"
cd "$(dirname "$0")/.."
swift build -c release --product bgtrace
bin="$(swift build -c release --show-bin-path)"
mkdir -p "$prefix/bin"
install -m 755 "$bin/bgtrace" "$prefix/bin/bgtrace"
echo "installed $prefix/bin/bgtrace ($("$prefix/bin/bgtrace" --version))"
