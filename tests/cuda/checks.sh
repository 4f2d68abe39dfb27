# Sourced by the rocprofv3 GPU test scripts, after they set ${out} (their output folder).
#   check CONDITION MESSAGE   evaluates CONDITION; when false, appends "FAIL: MESSAGE" to
#                             ${out}/validate.txt (and prints it) and sets fail=1
#   show_run DIR [LINES]      prints DIR/stdout and the first LINES (default 20) lines of
#                             DIR/stderr that are not the SDK's debug log
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2" | tee -a "${out}/validate.txt"; fail=1; fi; }
show_run() {
    cat "$1/stdout"
    grep -v '^\[rocprofiler-sdk\]\[debug\]' "$1/stderr" | head -"${2:-20}"
}
