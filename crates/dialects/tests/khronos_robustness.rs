//! The `.test` parser never panics, and every diagnostic's span is consistent with the
//! source (offset, length, line and column agree), on mangled inputs.

use std::path::PathBuf;
use vkherd_dialects::vulkan::khronos::parse_khronos;
use vkherd_litmus::span_at;

const SAMPLE: &str = "// sample\r\nNEWQF\r\nNEWWG\r\nNEWSG\r\nNEWTHREAD 0\r\n\
st.av.scopedev.sc0 x = 1\r\nst.atom.rel.scopewg.sc0.semsc0 y = 1\r\ncbar.acq.rel.scopewg.semsc0 4\r\n\
NEWSG\r\nNEWTHREAD\r\nld.atom.acq.scopewg.sc0.semsc0 y = 1\r\nrmw.scopedev.sc0 z = 1 2\r\n\
cbar.acq.rel.scopewg.semsc0 4\r\nld.vis.scopedev.sc0 x\r\nSLOC x z\r\nSSW 0 1\r\n\
SATISFIABLE consistent[X] && #dr=0\r\nNOSOLUTION NOCHAINS consistent[X] && (#rs>1)";

fn sources() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/khronos-tests");
    let mut out = vec![SAMPLE.to_string()];
    match std::fs::read_dir(&dir) {
        Ok(entries) => {
            let mut paths: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "test"))
                .collect();
            paths.sort();
            out.extend(paths.iter().filter_map(|p| std::fs::read_to_string(p).ok()));
        }
        Err(_) => {
            eprintln!("skipping: ../shared/khronos-tests not found (using the inline sample only)")
        }
    }
    out
}

/// Parses `src`; on error, checks that the span is well formed.
fn check(src: &str) {
    if let Err(e) = parse_khronos(src) {
        let s = e.span;
        assert!(
            s.offset + s.len <= src.len(),
            "span out of bounds for {src:?}: {e:?}"
        );
        assert!(
            src.is_char_boundary(s.offset) && src.is_char_boundary(s.offset + s.len),
            "span not on char boundaries for {src:?}: {e:?}"
        );
        assert_eq!(
            span_at(src, s.offset, s.len),
            s,
            "inconsistent span for {src:?}: {e:?}"
        );
        assert!(!e.message.is_empty());
        let _ = e.render("x.test", src);
    }
}

/// A small deterministic generator (no dependency on `rand`).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const JUNK: &[&str] = &[
    "",
    " ",
    "=",
    "-",
    "9",
    "0",
    "(",
    ")",
    "#",
    ".",
    "&&",
    "\r",
    "\n",
    "é",
    "//",
    "NEWSG\n",
    "NEWTHREAD\n",
    "NEWQF\n",
    "x",
    "99999999999999999999999",
    "-9223372036854775809",
    "\u{feff}",
    "\t",
    "[",
    "]",
    "st.sc0 q = 0\n",
    "ld.sc0 q = 0\n",
];

#[test]
fn prefixes_never_panic() {
    for src in sources().iter().take(8) {
        for (k, _) in src.char_indices() {
            check(&src[..k]);
        }
        check(src);
    }
}

#[test]
fn line_deletions_never_panic() {
    for src in sources() {
        let lines: Vec<&str> = src.split('\n').collect();
        for skip in 0..lines.len() {
            let mangled: Vec<&str> = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, l)| *l)
                .collect();
            check(&mangled.join("\n"));
        }
    }
}

#[test]
fn random_edits_never_panic() {
    let mut rng = Lcg(0x5eed);
    let srcs = sources();
    for _ in 0..20_000 {
        let src = &srcs[rng.below(srcs.len())];
        let mut s = src.clone();
        for _ in 0..=rng.below(3) {
            let bounds: Vec<usize> = (0..=s.len()).filter(|&i| s.is_char_boundary(i)).collect();
            let a = bounds[rng.below(bounds.len())];
            let b = bounds
                .iter()
                .copied()
                .filter(|&i| i >= a)
                .nth(rng.below(3))
                .unwrap_or(a);
            s.replace_range(a..b, JUNK[rng.below(JUNK.len())]);
        }
        check(&s);
    }
}

#[test]
fn pathological_inputs() {
    check(&"(".repeat(200_000));
    check(&format!(
        "NEWTHREAD\nld.sc0 x\nSATISFIABLE {}",
        "(".repeat(200_000)
    ));
    check(&format!(
        "NEWTHREAD\nld.sc0 x\nSATISFIABLE {}#dr=0",
        "#dr=0 && ".repeat(10_000)
    ));
    check(&"NEWTHREAD\n".repeat(10_000));
    check(&"NEWSG\n".repeat(10_000));
    check("\u{feff}NEWTHREAD\nld.sc0 x");
    check("\0\0\0");
    check("NEWTHREAD 18446744073709551616");
    check("NEWTHREAD\ncbar.scopewg 18446744073709551616");
}
