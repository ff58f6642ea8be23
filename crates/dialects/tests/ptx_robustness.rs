//! The PTX parser never panics on damaged input, and its errors name a real place: every
//! prefix of a test that uses every form, seeded edits of it and of every shared Dat3M
//! test (when ../shared is there), random bytes; and the limits hold.

use std::path::{Path, PathBuf};
use vkherd_dialects::ptx::parse_ptx;
use vkherd_litmus::limits::{MAX_INSTRUCTIONS_PER_THREAD, MAX_THREADS};
use vkherd_litmus::{span_at, Diagnostic};

const ALL_FORMS: &str = r#"PTX all-forms
"every form { of the grammar }" (* comment *)
{
x = 0; y = -0x10; P0:r0 = 1; 1:r1 = &x; P1:r2 = y; p = &x; q = y;
g @ generic aliases x; c @ constant aliases x; t @ texture aliases x; s @ surface aliases x
};
 P0@cta 0,gpu 0                 | 1@cta 1, gpu 0                 ;
 ld.weak r1, x                  | LC00:                          ;
 ld.relaxed.cta r2, y           | tld.acquire.gpu r3, t          ;
 suld.weak r4, s                | cold.relaxed.sys r5, c         ;
 st.weak x, 1                   | st.relaxed.gpu y, r3           ;
 st.release.sys x, -2           | sust.weak s, 3                 ;
 ld r6, 7                       | add r6, r5, 1                  ;
 sub r6, r6, r1                 | mul r7, 2, r6                  ;
 div r7, r7, 3                  | atom.relaxed.cta.add r8, x, 1  ;
 atom.acquire.gpu.sub r8, x, 1  | atom.release.sys.mul r8, x, 2  ;
 atom.acq_rel.gpu.div r8, x, 2  | suatom.relaxed.gpu.and r8, s, 1;
 atom.relaxed.gpu.or r8, x, 1   | atom.relaxed.gpu.xor r8, x, r1 ;
 atom.relaxed.gpu.exch r9, x, 5 | atom.acq_rel.sys.cas r9, x, 0, 1;
 red.relaxed.gpu.add x, 1       | sured.release.cta.xor s, r1    ;
 fence.sc.cta                   | fence.acq_rel.gpu              ;
 fence.proxy.generic            | fence.proxy.constant           ;
 fence.proxy.texture            | fence.proxy.surface            ;
 fence.proxy.alias              | bar.cta.sync 0                 ;
 bar.cta.arrive 1, r1           | bar.cta.sync 2, 1, 2           ;
 beq r1, 0, LC01                | bne r1, r2, LC00               ;
 blt r1, 1, LC01                | bgt 1, r1, LC00                ;
 ble r1, 1, LC01                | bge r1, 1, LC00                ;
 goto LC01                      | <<1,1>>                        ;
 LC01:                          |                                ;
locations [x; P0:r1; 1:r3;]
filter (x = 0 \/ x != 1);
final (P0:r1 == 1 /\ ~(1:r3 >= 2) \/ not x < 0 /\ y <= 0 /\ 0 > y /\ P1:r9 = 0x1);
with tso: exists; cc: ~exists; optic: not exists; default: exists;
"#;

fn check(source: &str, d: &Diagnostic) {
    let s = d.span;
    assert!(s.line >= 1 && s.column >= 1, "{d:?}");
    assert!(s.offset + s.len <= source.len(), "{d:?}");
    assert!(source.is_char_boundary(s.offset) && source.is_char_boundary(s.offset + s.len));
    assert_eq!(span_at(source, s.offset, s.len), s, "{d:?}");
    assert!(!d.message.is_empty());
    assert!(d.render("t", source).starts_with("error: "));
}

fn parse_or_fail_cleanly(source: &str) {
    if let Err(d) = parse_ptx(source) {
        check(source, &d);
    }
}

#[test]
fn the_all_forms_test_parses() {
    let t = parse_ptx(ALL_FORMS).unwrap_or_else(|e| panic!("{}", e.render("t", ALL_FORMS)));
    assert_eq!(t.code[0].len() + t.code[1].len(), 44);
}

#[test]
fn every_prefix_parses_or_fails_cleanly() {
    for end in (0..ALL_FORMS.len()).filter(|&i| ALL_FORMS.is_char_boundary(i)) {
        parse_or_fail_cleanly(&ALL_FORMS[..end]);
    }
}

/// A fixed linear congruential generator: the same inputs on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }
}

const BYTES: &[u8] = b"(){};,.*&|!=<>-@\"~\\/[]: \nrx0PLC9";

/// `n` single-byte edits of `src` (replace, delete or insert), each parsed on its own.
fn edits(src: &str, n: usize, rng: &mut Lcg) {
    let src = src.as_bytes();
    if src.is_empty() {
        return;
    }
    for _ in 0..n {
        let mut bytes = src.to_vec();
        let at = rng.next() % bytes.len();
        match rng.next() % 3 {
            0 => bytes[at] = BYTES[rng.next() % BYTES.len()],
            1 => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, BYTES[rng.next() % BYTES.len()]),
        }
        parse_or_fail_cleanly(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn single_byte_edits_parse_or_fail_cleanly() {
    edits(ALL_FORMS, 4000, &mut Lcg(12345));
}

#[test]
fn random_bytes_fail_cleanly() {
    let mut rng = Lcg(99);
    for len in 0..400 {
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        parse_or_fail_cleanly(&String::from_utf8_lossy(&bytes));
        // The same behind a valid start, to reach the later sections.
        let mut s = b"PTX t\n{ x = 0; }\nP0@cta 0,gpu 0;\n".to_vec();
        s.append(&mut bytes);
        parse_or_fail_cleanly(&String::from_utf8_lossy(&s));
    }
}

fn corpus() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "litmus") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    if let Some(dir) = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|d| d.join("shared/dat3m/ptx-tests"))
        .find(|d| d.is_dir())
    {
        walk(&dir, &mut out);
    }
    out.sort();
    out
}

#[test]
fn every_shared_test_truncated_or_edited_fails_cleanly() {
    let files = corpus();
    if files.is_empty() {
        eprintln!("skipping the shared PTX tests: no shared/dat3m/ptx-tests above the crate (using ALL_FORMS only)");
        return;
    }
    let mut rng = Lcg(7);
    for f in &files {
        let src = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        // Ten cuts at random places, and every cut of the last 40 bytes (the condition).
        for _ in 0..10 {
            let mut end = rng.next() % (src.len() + 1);
            while !src.is_char_boundary(end) {
                end -= 1;
            }
            parse_or_fail_cleanly(&src[..end]);
        }
        for end in src.len().saturating_sub(40)..src.len() {
            if src.is_char_boundary(end) {
                parse_or_fail_cleanly(&src[..end]);
            }
        }
        edits(&src, 30, &mut rng);
    }
}

#[test]
fn limits_give_errors() {
    let header: Vec<String> = (0..=MAX_THREADS)
        .map(|t| format!("P{t}@cta 0,gpu 0"))
        .collect();
    let src = format!("PTX t\n{{}}\n{};\n", header.join(" | "));
    let e = parse_ptx(&src).unwrap_err();
    assert!(e.message.starts_with("too many threads"), "{e}");
    let rows = "ld.weak r0, x;\n".repeat(MAX_INSTRUCTIONS_PER_THREAD + 1);
    let src = format!("PTX t\n{{}}\nP0@cta 0,gpu 0;\n{rows}");
    let e = parse_ptx(&src).unwrap_err();
    assert!(
        e.message.starts_with("too many instructions in thread P0"),
        "{e}"
    );
    // Deep conditions are bounded, not a stack overflow.
    let src = format!(
        "PTX t\n{{}}\nP0@cta 0,gpu 0;\nexists {}x = 0",
        "(".repeat(100_000)
    );
    let e = parse_ptx(&src).unwrap_err();
    assert!(e.message.starts_with("condition nested too deeply"), "{e}");
    let src = format!(
        "PTX t\n{{}}\nP0@cta 0,gpu 0;\nexists {}x = 0",
        "~".repeat(100_000)
    );
    assert!(parse_ptx(&src).is_err());
}
