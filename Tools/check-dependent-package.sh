#!/usr/bin/env bash
# Builds Tools/DependentPackage as an app team would: it depends on BackgroundTrace by
# version, from a tagged clone of this checkout's HEAD, and runs its own simulator tests.
# Nothing in the checkout changes: the clone, the tag and the build live in a temp dir.
#   Tools/check-dependent-package.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone --quiet --no-hardlinks "$root" "$work/BackgroundTrace"
git -C "$work/BackgroundTrace" tag 0.1.0
cp -R "$root/Tools/DependentPackage" "$work/DraftSync"
rm -rf "$work/DraftSync/.build"

# A versioned dependency may not use unsafe build flags; Package.swift adds one only
# when BGTRACE_STRICT is set, so the user's build runs without it.
cd "$work/DraftSync"
env -u BGTRACE_STRICT BGTRACE_PACKAGE_URL="file://$work/BackgroundTrace" swift test 2>&1 | tail -n 3
