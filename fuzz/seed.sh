#!/bin/sh
# Fills fuzz/corpus/TARGET with seeds from the repository (run from the repository root):
# the litmus corpus (OpenCL tests for parse_opencl), the bundled and sample cat models
# (parse_cat, run_cat), the malformed-input corpus and, if present, the Khronos reference
# suite in ../shared/khronos-tests (copied into the git-ignored corpus dir, not committed).
set -eu
target="$1"
dir="fuzz/corpus/$target"
mkdir -p "$dir"
copy() {
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "$dir/seed_$(echo "$f" | tr '/.' '__')"
    done
    return 0
}
case "$target" in
parse_litmus)
    copy $(find litmus-tests crates/vkherd/tests/malformed -name '*.litmus' 2>/dev/null) ;;
parse_cat|run_cat)
    copy $(find crates/cat/models crates/cat/tests/models -name '*.cat' 2>/dev/null) ;;
parse_opencl)
    copy $(find litmus-tests/opencl litmus-tests/opencl-mmra crates/vkherd/tests/malformed \
        -name '*.litmus' -exec grep -qi '^ *opencl' {} \; -print 2>/dev/null) ;;
parse_khronos)
    copy $(find ../shared/khronos-tests crates/vkherd/tests/malformed -name '*.test' 2>/dev/null) ;;
*)
    copy $(find litmus-tests crates/vkherd/tests/malformed ../shared/khronos-tests \
        \( -name '*.litmus' -o -name '*.test' \) -size -4k 2>/dev/null) ;;
esac
echo "$(ls "$dir" | wc -l) files in $dir"
