#!/usr/bin/env bash
# Long fuzz runs (10^7 inputs and more) of one build, which outlive a shell session:
# the build is stamped with the commit it was compiled from, runs in the background at
# the lowest priority, can be resumed after it was stopped (or the machine restarted),
# and `status` adds up the inputs every run of that build executed.
#
#   Tools/fuzz/long-run.sh start DIR [TOTAL] [JOBS]   build HEAD into DIR, run TOTAL inputs
#   Tools/fuzz/long-run.sh resume DIR                 run the same binary on up to TOTAL
#   Tools/fuzz/long-run.sh status DIR                 inputs so far, per run, and findings
#   Tools/fuzz/long-run.sh wait DIR                   until the run ends; fails on a finding
#   Tools/fuzz/long-run.sh stop DIR
#
# TOTAL defaults to 10,000,000 and JOBS to the number of cores. `start` refuses a work
# tree whose fuzzed code (Sources, Tools/TraceWorkloads, Tools/fuzz/FuzzTraces.swift)
# differs from HEAD,
# so the commit names what was fuzzed. A crash stops its job; its input is in DIR/out.
# A finding reviewed and found not to be a bug (a timeout that reruns in well under the
# limit) is moved to DIR/reviewed with a note saying why; status lists it there.
# DIR holds the binary, the commit, the corpus (grown across runs), one folder of
# libFuzzer logs per run (runs/N/fuzz-J.log), and the pid of the running one.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"

usage() {
  sed -n '7,11p' "$0" >&2
  exit 2
}

[[ $# -ge 2 ]] || usage
command="$1"
# An absolute path: runs are launched from their own folder under it.
if [[ "$command" == start ]]; then mkdir -p "$2"; fi
[[ -d "$2" ]] || { echo "no fuzz run in $2" >&2; exit 1; }
dir="$(cd "$2" && pwd)"

# The inputs one libFuzzer log says its process executed: its final count when it
# finished, else its last "#N" status line (a process counts from 0, and the corpus it
# loads first counts).
executed() {
  local count
  count=$(grep -ao 'number_of_executed_units: *[0-9]*' "$1" | grep -o '[0-9]*$' | tail -n 1)
  [[ -n "$count" ]] || count=$(grep -ao '^#[0-9]*' "$1" | tail -n 1 | tr -d '#')
  echo "${count:-0}"
}

# The inputs every run of this build executed so far.
total_executed() {
  local sum=0 log
  shopt -s nullglob
  for log in "$dir"/runs/*/fuzz-*.log; do sum=$((sum + $(executed "$log"))); done
  echo "$sum"
}

running() {
  [[ -f "$dir/pid" ]] && kill -0 "$(cat "$dir/pid")" 2>/dev/null
}

# libFuzzer's timeout is wall-clock time, and this run takes only what the machine
# leaves: at the lowest priority beside two compiler jobs, an input that needs 1.2 s of
# CPU took 13 s and tripped run.sh's 10 s. A hang still trips two minutes. libFuzzer
# also writes a "slow-unit" report for an input over 10 s (an input needing 0.7 s
# took 17 s): it reports those from two minutes too.
timeout=120

# Runs the binary in the background for `remaining` more inputs, split over the jobs.
launch() {
  local total jobs done remaining per_job run
  total=$(cat "$dir/total")
  jobs=$(cat "$dir/jobs")
  done=$(total_executed)
  remaining=$((total - done))
  if ((remaining <= 0)); then
    echo "$done of $total inputs already run; nothing to do"
    return
  fi
  per_job=$(((remaining + jobs - 1) / jobs))
  run=$(($(find "$dir/runs" -mindepth 1 -maxdepth 1 -type d | wc -l) + 1))
  mkdir -p "$dir/runs/$run"
  # libFuzzer writes each job's log (fuzz-J.log) into its working directory.
  (
    cd "$dir/runs/$run"
    FUZZ_BINARY="$dir/fuzz-traces" FUZZ_CORPUS="$dir/corpus" FUZZ_ARTIFACTS="$dir/out/" \
      setsid nohup nice -n 19 "$root/Tools/fuzz/run.sh" -runs="$per_job" -jobs="$jobs" -workers="$jobs" \
      -timeout="$timeout" -report_slow_units="$timeout" -print_final_stats=1 >run.log 2>&1 </dev/null &
    echo $! >"$dir/pid"
  )
  # A new session is a new scheduler autogroup: give it the lowest weight too, so the
  # run takes only what the machine leaves (not always permitted; then nice alone).
  echo 19 >"/proc/$(cat "$dir/pid")/autogroup" 2>/dev/null || true
  echo "run $run: $jobs jobs x $per_job inputs of the build of $(cat "$dir/commit"), from $done of $total"
}

case "$command" in
  start)
    total="${3:-10000000}"
    jobs="${4:-$(nproc)}"
    if [[ -e "$dir/fuzz-traces" ]]; then
      echo "$dir already holds a build (of $(cat "$dir/commit")); resume it or pick a new folder" >&2
      exit 1
    fi
    if [[ -n "$(git -C "$root" status --porcelain -- Sources Tools/TraceWorkloads Tools/fuzz/FuzzTraces.swift)" ]]; then
      echo "the fuzzed code differs from HEAD; commit it first, so the run names what it fuzzed" >&2
      exit 1
    fi
    "$root/Tools/fuzz/run.sh" --build-only
    mkdir -p "$dir/corpus" "$dir/out" "$dir/runs"
    cp "$root/.build/fuzz/fuzz-traces" "$dir/"
    git -C "$root" rev-parse HEAD >"$dir/commit"
    echo "$total" >"$dir/total"
    echo "$jobs" >"$dir/jobs"
    if [[ -d "$root/Tools/fuzz/corpus" ]]; then cp -r "$root/Tools/fuzz/corpus/." "$dir/corpus/"; fi
    launch
    ;;
  resume)
    if running; then
      echo "already running (pid $(cat "$dir/pid"))" >&2
      exit 1
    fi
    launch
    ;;
  status | wait)
    if [[ "$command" == wait ]]; then while running; do sleep 1; done; fi
    echo "build of $(cat "$dir/commit"): $(total_executed) of $(cat "$dir/total") inputs$(running && echo ', running' || echo ', stopped')"
    shopt -s nullglob
    for log in "$dir"/runs/*/fuzz-*.log; do
      echo "  ${log#"$dir"/}: $(executed "$log")$(grep -q 'number_of_executed_units' "$log" && echo ', ended' || true)"
    done
    findings=("$dir"/out/*)
    if ((${#findings[@]} > 0)); then
      echo "findings in $dir/out:"
      printf '  %s\n' "${findings[@]##*/}"
      grep -ah -m1 -E 'ERROR|Fatal error|deadly signal|timeout' "$dir"/runs/*/fuzz-*.log || true
      [[ "$command" == status ]] || exit 1
    else
      echo "no crash, hang or sanitizer report"
    fi
    reviewed=("$dir"/reviewed/*.note)
    if ((${#reviewed[@]} > 0)); then
      echo "reviewed and not a bug (see the notes):"
      printf '  %s\n' "${reviewed[@]##*/}"
    fi
    if [[ "$command" == wait ]] && (($(total_executed) < $(cat "$dir/total"))); then
      echo "the run ended before its $(cat "$dir/total") inputs (see $dir/runs/*/run.log)" >&2
      exit 1
    fi
    ;;
  stop)
    if ! running; then
      echo "not running"
      exit 0
    fi
    # libFuzzer ends each job on SIGTERM, writing its final count to its log.
    kill -- "-$(cat "$dir/pid")"
    for _ in $(seq 50); do running || break; sleep 0.2; done
    echo "stopped at $(total_executed) inputs"
    ;;
  *) usage ;;
esac
