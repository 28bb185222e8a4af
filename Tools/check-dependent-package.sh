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
# -f: the clone may already carry the tag (the repository's own 0.1.0); the package is
# resolved at the clone's HEAD, which is what is being checked.
git -C "$work/BackgroundTrace" tag -f 0.1.0 > /dev/null
cp -R "$root/Tools/DependentPackage" "$work/DraftSync"
rm -rf "$work/DraftSync/.build"

# A versioned dependency may not use unsafe build flags; this fails if Package.swift
# ever adds one.
cd "$work/DraftSync"
BGTRACE_PACKAGE_URL="file://$work/BackgroundTrace" swift test 2>&1 | tail -n 3
