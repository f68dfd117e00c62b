#!/usr/bin/env bash
# Fails when a tracked C++ file is not formatted as .clang-format says (clang-format 16, which
# scripts/install-deps.sh installs). Prints each offending line; exit status 1 if any.
#
#   scripts/check-format.sh            check every tracked C++ file
#   scripts/check-format.sh --list     print the files it checks
#   scripts/check-format.sh --fix      format them in place
#
# Not checked: test inputs whose exact text the tests compare (line and column numbers in
# expected diagnostics and in emitted #line directives, whitespace-only and malformed inputs).
#   tests/codegen/golden/          golden inputs beside their .expect files
#   tests/translator/diagnostics/  `// expected-error` lines name their columns
#   tests/reliability/corpus/      the bad-input corpus, malformed on purpose
#   tests/reliability/regressions/ reduced findings, replayed as saved
#   tests/reliability/gpu_findings/*_program.hpp  whole generated programs, kept as the leg ran them
#   tests/*/data/                  headers the tests translate and locate errors in
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
clang_format="${CLANG_FORMAT:-clang-format-16}"
command -v "$clang_format" > /dev/null || { echo "check-format: $clang_format not found (scripts/install-deps.sh installs it)" >&2; exit 2; }

excluded='^tests/(codegen/golden|translator/diagnostics|reliability/corpus|reliability/regressions|[^/]+/data)/|^tests/reliability/gpu_findings/[^/]+_program\.hpp$'
mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp' '*.h' '*.cu' | grep -Ev "$excluded")

case "${1:-}" in
  --list) printf '%s\n' "${files[@]}"; exit 0 ;;
  --fix) "$clang_format" -i "${files[@]}"; exit 0 ;;
  "") ;;
  *) echo "usage: scripts/check-format.sh [--list | --fix]" >&2; exit 2 ;;
esac

if "$clang_format" --dry-run --Werror "${files[@]}"; then
  echo "check-format: ${#files[@]} files formatted as .clang-format says"
else
  echo "check-format: files above differ from .clang-format (fix: scripts/check-format.sh --fix)" >&2
  exit 1
fi
