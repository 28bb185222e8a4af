#!/usr/bin/env bash
# Builds Tools/DependentPackage as an app team would, in two steps. Nothing in the
# checkout changes: the clone, the copies and the builds live in a temp dir.
#  1. README's install line as written: the manifest's `revision:` (the latest release's
#     commit, docs/releasing.md) resolved from a clone that carries no tags, as a fork
#     or a mirror may, and the app's target built against it.
#  2. The checkout's HEAD by version: the clone's HEAD tagged with the latest release's
#     version, the copy's dependency rewritten to `from:` it, and the package's own
#     simulator tests run. A dependency by version may not use unsafe build flags, so
#     this fails if Package.swift ever adds one.
#   Tools/check-dependent-package.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone --quiet --no-hardlinks "$root" "$work/BackgroundTrace"
tags="$(git -C "$work/BackgroundTrace" tag --list)"
if [[ -n "$tags" ]]; then
  # shellcheck disable=SC2086 # one tag a word
  git -C "$work/BackgroundTrace" tag --delete $tags > /dev/null
fi
url="file://$work/BackgroundTrace"

# The line README.md shows: .package(url: …, revision: "COMMIT")  // X.Y.Z
line="$(grep -E '\.package\(url: backgroundTrace, revision: "[0-9a-f]{40}"\)  // [0-9]+\.[0-9]+\.[0-9]+$' \
  "$root/Tools/DependentPackage/Package.swift" || true)"
if [[ -z "$line" ]]; then
  echo "error: Tools/DependentPackage/Package.swift has no line '.package(url: backgroundTrace, revision: \"COMMIT\")  // X.Y.Z'" >&2
  exit 1
fi
revision="$(sed -E 's/.*revision: "([0-9a-f]{40})".*/\1/' <<< "$line")"
version="$(sed -E 's|.*// ([0-9.]+)$|\1|' <<< "$line")"

echo "-- README's install line: revision $revision ($version), from a clone without tags"
cp -R "$root/Tools/DependentPackage" "$work/AsWritten"
rm -rf "$work/AsWritten/.build"
(cd "$work/AsWritten" && BGTRACE_PACKAGE_URL="$url" swift build 2>&1 | tail -n 1)

echo "-- HEAD by version: $(git -C "$work/BackgroundTrace" rev-parse --short HEAD) tagged $version, from: \"$version\""
# A clone of its own: SwiftPM caches a repository by its URL, tags and all.
git clone --quiet --no-hardlinks "$work/BackgroundTrace" "$work/tagged/BackgroundTrace"
git -C "$work/tagged/BackgroundTrace" tag "$version" > /dev/null
url="file://$work/tagged/BackgroundTrace"
cp -R "$root/Tools/DependentPackage" "$work/DraftSync"
rm -rf "$work/DraftSync/.build"
sed -i.orig -E "s|revision: \"$revision\"|from: \"$version\"|" "$work/DraftSync/Package.swift"
cd "$work/DraftSync"
BGTRACE_PACKAGE_URL="$url" swift test 2>&1 | tail -n 3
