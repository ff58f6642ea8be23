#!/bin/sh
# Fills fuzz/corpus/TARGET with seeds from the repository (run from the repository root):
# the litmus corpus (OpenCL tests for parse_opencl), the bundled and sample cat models
# (parse_cat, run_cat), the malformed-input corpus and, if present, the Khronos reference
# suite in ../shared/khronos-tests and Dat3M's PTX tests in ../shared/dat3m/ptx-tests
# (copied into the git-ignored corpus dir, not committed).
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
    copy $(find crates/cat/models crates/cat/tests/models -name '*.cat' 2>/dev/null)
    # Small models in herd7's syntax: short inputs run faster than the bundled files.
    i=0
    while IFS= read -r model; do
        i=$((i + 1))
        printf '%b' "$model" > "$dir/seed_small_$i.cat"
    done <<'EOF'
VULKAN\nlet hb = (po | rf)+\nacyclic hb | asmo as consistent\nlet co = asmo\n
"m"\ninclude "stdlib.cat"\nprocedure p(r, s) =\n  let both = r | s\n  acyclic both as c\nend\ncall p(po, rf)\nlet locord = po & loc\n
M\nlet rec a = po | a ; b and b = rf | b ; a\nundefined_unless empty a & id as u\nshow a, b\nunshow a\nlet co = (a | asmo)+\n
"m"\nlet f(x, y) = [x] ; po ; [y]\nflag ~empty f(W, R) & ~sloc as racy\nlet locord = if "v" then f(R, W) else 0\nirreflexive locord ; rf^-1 as i\n
EOF
    ;;
parse_opencl)
    copy $(find litmus-tests/opencl litmus-tests/opencl-mmra crates/vkherd/tests/malformed \
        -name '*.litmus' -exec grep -qi '^ *opencl' {} \; -print 2>/dev/null) ;;
parse_ptx)
    copy $(find ../shared/dat3m/ptx-tests -name '*.litmus' 2>/dev/null) ;;
parse_khronos)
    copy $(find ../shared/khronos-tests crates/vkherd/tests/malformed -name '*.test' 2>/dev/null) ;;
*)
    copy $(find litmus-tests crates/vkherd/tests/malformed ../shared/khronos-tests \
        \( -name '*.litmus' -o -name '*.test' \) -size -4k 2>/dev/null) ;;
esac
echo "$(ls "$dir" | wc -l) files in $dir"
