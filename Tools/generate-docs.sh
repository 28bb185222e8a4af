#!/usr/bin/env bash
# Writes the reference pages that are produced from declarations, from the package root:
# docs/rules.md's table, severities, fixes and examples from the rules' declarations
# (Sources/BackgroundTraceCheck/Rules/Rule+Declaration.swift) and Traces/rules, and
# docs/cli.md's help blocks from bgtrace's help, whose usage lines and option lists come
# from the options' declarations (Sources/BackgroundTraceCLI/Commands/CommandOption.swift).
# ReferenceDocsTests fails when a committed page differs from what this writes.
#   Tools/generate-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift run --quiet bgtrace-docs
