#!/usr/bin/env bash
# Checks that every C, C++ and CUDA source file the repository tracks is formatted with the
# root .clang-format (clang-format 14, Debian's). Prints the files that are not and exits 1;
# `scripts/check-format.sh --fix` formats them in place.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null 2>&1 || { echo "check-format: clang-format is not installed" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp' '*.cu')
if [ "${1:-}" = "--fix" ]; then
    clang-format -i "${files[@]}"
    exit 0
fi
bad=0
for f in "${files[@]}"; do
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
        echo "check-format: not formatted: $f"
        bad=$((bad + 1))
    fi
done
if [ "${bad}" -ne 0 ]; then
    echo "check-format: ${bad} file(s) differ from .clang-format; run scripts/check-format.sh --fix"
    exit 1
fi
echo "check-format: ${#files[@]} files formatted"
