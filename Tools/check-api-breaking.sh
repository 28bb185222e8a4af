#!/usr/bin/env bash
# Compares the Swift API of the seven library products with the latest release
# (`swift package diagnose-api-breaking-changes BASELINE`) and fails on a breaking change
# (docs/releasing.md says when one is allowed and how it is released).
#   Tools/check-api-breaking.sh [TAG-OR-COMMIT]
# Without an argument the baseline is the highest version tag (X.Y.Z, by version order)
# in HEAD's history; where no version tag exists (a clone without tags), it is the
# commit docs/releasing.md's "Releases" table names for the latest version. A baseline
# that is not in HEAD's history (a tag on another branch, a commit missing from a
# shallow clone) is an error, not a skip. Deliberate breaks since the baseline are
# listed in Tools/api-breakage-allowlist.txt, when it exists.
set -euo pipefail
cd "$(dirname "$0")/.."

products=(
  BackgroundTrace
  BackgroundTraceCheck
  BackgroundTraceTesting
  BackgroundTraceExport
  BackgroundSimulation
  BackgroundTraceReplay
  BackgroundTraceImport
)

if [[ $# -gt 1 ]]; then
  echo "usage: Tools/check-api-breaking.sh [TAG-OR-COMMIT]" >&2
  exit 2
fi
release_tags() { grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V || true; }
if [[ $# -eq 1 ]]; then
  baseline="$1"
else
  tags="$(git tag --list '[0-9]*.[0-9]*.[0-9]*' | release_tags)"
  if [[ -z "$tags" ]]; then
    # No tag here: the latest release's commit as docs/releasing.md records it, one
    # table row a release: | VERSION | DATE | `FULL-COMMIT` |.
    row="$(grep -E '^\| *[0-9]+\.[0-9]+\.[0-9]+ *\| *[0-9]{4}-[0-9]{2}-[0-9]{2} *\| *`[0-9a-f]{40}` *\|' docs/releasing.md \
      | sort -t '|' -k2,2V | tail -n 1 || true)"
    if [[ -z "$row" ]]; then
      echo "error: no version tag, and docs/releasing.md's \"Releases\" table names no release commit (rows '| X.Y.Z | YYYY-MM-DD | \`COMMIT\` |')" >&2
      exit 1
    fi
    baseline="$(echo "$row" | cut -d '|' -f 2 | tr -d ' ')"
    release_commit="$(echo "$row" | grep -oE '[0-9a-f]{40}')"
    echo "no version tag: the baseline is $baseline's commit as docs/releasing.md records it"
  else
    # The latest release this history contains (a patch tagged on a maintenance branch
    # is not this branch's baseline).
    baseline="$(git tag --merged HEAD --list '[0-9]*.[0-9]*.[0-9]*' 2> /dev/null | release_tags | tail -n 1)"
    if [[ -z "$baseline" ]]; then
      echo "error: version tags exist ($(echo $tags)) but none is in HEAD's history (a shallow clone needs 'git fetch --tags --unshallow')" >&2
      exit 1
    fi
  fi
fi

if [[ -n "${release_commit:-}" ]]; then
  if ! commit="$(git rev-parse --verify --quiet "$release_commit^{commit}")"; then
    echo "error: $baseline's release commit $release_commit (docs/releasing.md) is not in this clone (a shallow clone needs 'git fetch --unshallow')" >&2
    exit 1
  fi
elif ! commit="$(git rev-parse --verify --quiet "refs/tags/$baseline^{commit}")" \
  && ! commit="$(git rev-parse --verify --quiet "$baseline^{commit}")"; then
  echo "error: '$baseline' names no version tag or commit here (a shallow clone needs 'git fetch --tags --unshallow')" >&2
  exit 1
fi
if ! git merge-base --is-ancestor "$commit" HEAD; then
  echo "error: baseline '$baseline' ($commit) is not in HEAD's history; the API is compared with an earlier release" >&2
  exit 1
fi

# Breaks made on purpose since the tag (a minor release before 1.0 may break the API),
# one message a line as the tool prints it; emptied when the next version is tagged.
allowlist=Tools/api-breakage-allowlist.txt
allow=()
if [[ -s "$allowlist" ]]; then
  allow=(--breakage-allowlist-path "$allowlist")
fi

echo "API compared with $baseline ($commit), products: ${products[*]}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
swift package diagnose-api-breaking-changes "$commit" --products "${products[@]}" "${allow[@]+"${allow[@]}"}" 2>&1 \
  | tee "$log" || status=$?
if [[ $status -ne 0 ]]; then
  # A breaking change is reported as 'API breakage: …'; anything else is the tool
  # failing to compare, which is not a pass either.
  if grep -q 'API breakage' "$log"; then
    echo "error: the API breaks compatibility with $baseline (above); docs/releasing.md says how such a change is released" >&2
  else
    echo "error: swift package diagnose-api-breaking-changes failed without reporting a breakage (above): the API was not compared" >&2
  fi
  exit 1
fi
