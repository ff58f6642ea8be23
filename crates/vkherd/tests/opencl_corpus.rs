//! The OpenCL corpus in litmus-tests/opencl/: every test parses and lowers, and its
//! header states the expected verdict, the race flag and the rule of seed 004 that
//! decides it (derived by hand, docs/opencl.md "Corpus"). The OpenCL model (opencl.cat,
//! the default for OPENCL tests) must agree with every header, and the full reports are
//! locked by insta snapshots (reviewed like code).

use crate::files;
use std::path::{Path, PathBuf};
use vkherd::RunConfig;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests/opencl")
}

fn corpus() -> Vec<(String, String)> {
    let files = files::litmus_files(&corpus_dir());
    files
        .into_iter()
        .map(|p| {
            let name = p.display().to_string();
            (name, std::fs::read_to_string(&p).expect("readable"))
        })
        .collect()
}

#[test]
fn every_opencl_corpus_test_parses_lowers_and_states_its_expectation() {
    let tests = corpus();
    assert!(
        tests.len() >= 60,
        "OpenCL corpus too small: {}",
        tests.len()
    );
    let mut failures = Vec::new();
    for (name, source) in &tests {
        failures.extend(files::load_failures(name, source, "opencl"));
        let header_ok = source.lines().any(|l| {
            let l = l.trim_start_matches("(* ");
            l.starts_with("Expected: Ok (Allowed condition holds), data race: ")
                || l.starts_with("Expected: No (Allowed condition fails), data race: ")
        });
        if !header_ok {
            failures.push(format!(
                "{name}: no `Expected: Ok|No (...), data race: yes|no` line"
            ));
        }
        if !source.contains("Rule: ") || !source.contains("Why: ") {
            failures.push(format!("{name}: no `Rule:` or `Why:` in the header"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every header's verdict and race flag against the report of the OpenCL model, and the
/// report's snapshot.
#[test]
fn opencl_corpus_verdicts_match_the_headers() {
    let mut failures = Vec::new();
    for (name, source) in corpus() {
        let program = vkherd::load_litmus(&source).expect("parses");
        let first = source
            .lines()
            .find_map(|l| l.trim_start_matches("(* ").strip_prefix("Expected: "))
            .expect("an Expected line");
        let verdict = &first[..2];
        let racy = first.contains("data race: yes");
        match vkherd::run(&program, &vkherd::Options::default()) {
            Err(e) => failures.push(format!("{name}: {}", e.message)),
            Ok(rep) => {
                let got = match rep.verdict {
                    vkherd::Verdict::Ok => "Ok",
                    vkherd::Verdict::No => "No",
                };
                let got_racy = rep.outcomes.data_race();
                if got != verdict || got_racy != racy {
                    failures.push(format!(
                        "{name}: header {verdict} (race {racy}), report {got} (race {got_racy})"
                    ));
                }
                let stem = Path::new(&name)
                    .file_stem()
                    .unwrap()
                    .to_string_lossy()
                    .to_string();
                insta::assert_snapshot!(format!("opencl-{stem}"), vkherd::report::herd_text(&rep));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A header line `KEY: Ok|No (...), data race: yes|no`: the verdict and the race flag.
fn stated(source: &str, key: &str) -> Option<(String, bool)> {
    source
        .lines()
        .find_map(|l| l.trim_start_matches("(* ").trim().strip_prefix(key))
        .map(|l| (l[..2].to_string(), l.contains("data race: yes")))
}

/// A variant of opencl.cat on every corpus test: it gives the header's `KEY:` verdict and
/// race flag where there is one, else the `Expected:` ones (so a test on which the
/// variant differs must say so); its report is locked where it differs from the
/// default's, and its pruned search equals --naive there. Returns the tests whose
/// reports it changes.
fn variant_differs_only_where_the_headers_say(variant: &str, key: &str) -> Vec<String> {
    let choice = vkherd::models::resolve("opencl", &[variant.to_string()], false)
        .unwrap_or_else(|e| panic!("opencl has the variant {variant}: {e:?}"));
    let opts = vkherd::Options {
        model: choice,
        ..vkherd::Options::default()
    };
    let mut failures = Vec::new();
    let mut differ = Vec::new();
    for (name, source) in corpus() {
        let program = vkherd::load_litmus(&source).expect("parses");
        let expected = stated(&source, key)
            .or_else(|| stated(&source, "Expected: "))
            .expect("an Expected line");
        let rep = vkherd::run(&program, &opts).expect("runs");
        let got = (
            match rep.verdict {
                vkherd::Verdict::Ok => "Ok".to_string(),
                vkherd::Verdict::No => "No".to_string(),
            },
            rep.outcomes.data_race(),
        );
        if got != expected {
            failures.push(format!("{name}: header {expected:?}, {variant} {got:?}"));
        }
        let text = vkherd::report::herd_text(&rep);
        let plain = vkherd::report::herd_text(
            &vkherd::run(&program, &vkherd::Options::default()).expect("runs"),
        );
        if text != plain {
            let stem = Path::new(&name).file_stem().unwrap().to_string_lossy();
            differ.push(stem.to_string());
            insta::assert_snapshot!(format!("opencl-{stem}@{variant}"), text);
            let naive = vkherd::Options {
                run: RunConfig {
                    naive: true,
                    ..opts.run.clone()
                },
                ..opts.clone()
            };
            let naive = vkherd::report::herd_text(&vkherd::run(&program, &naive).expect("runs"));
            assert_eq!(text, naive, "{name}: {variant} search and --naive differ");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    differ
}

/// The variant `rc11-sc` (RC11's psc instead of seed 004's order S, docs/opencl.md "The
/// SC order S"), headers' `RC11-SC:` lines.
#[test]
fn rc11_sc_differs_only_where_the_headers_say() {
    assert_eq!(
        variant_differs_only_where_the_headers_say("rc11-sc", "RC11-SC: "),
        [
            "IRIW-sc-fences-relaxed",
            "SC-scoped-last-write",
            "SC-stale-write-not-last",
            "Z6.U"
        ],
        "the tests whose reports rc11-sc changes"
    );
}

/// The variant `unscoped-sc` (seed 004's order S of every seq_cst operation, whatever
/// their scopes, docs/opencl.md "Scoped SC"), headers' `UNSCOPED-SC:` lines.
#[test]
fn unscoped_sc_differs_only_where_the_headers_say() {
    assert_eq!(
        variant_differs_only_where_the_headers_say("unscoped-sc", "UNSCOPED-SC: "),
        [
            "SB-sc-fences-sg-wg-diffsg",
            "SB-sc-fences-wg-crosswg",
            "SB-sc-wg-crosswg",
            "SC-scoped-last-write"
        ],
        "the tests whose reports unscoped-sc changes"
    );
}

/// The variant `no-svm-atomics` (global memory other than fine-grained SVM with atomics,
/// where CrossDevice behaves as Device, docs/opencl.md "CrossDevice scope and the memory
/// a test assumes"), headers' `NO-SVM-ATOMICS:` lines.
#[test]
fn no_svm_atomics_differs_only_where_the_headers_say() {
    assert_eq!(
        variant_differs_only_where_the_headers_say("no-svm-atomics", "NO-SVM-ATOMICS: "),
        [
            "MP-rel-acq-svm-crossdev",
            "MP-rel-acq-svm-dev-samedev",
            "SC-scoped-last-write"
        ],
        "the tests whose reports no-svm-atomics changes"
    );
}

/// The pruned search cuts on the OpenCL model's monotone checks and on compare-exchange
/// outcomes decided by partial values: it must list exactly what plain exhaustive
/// enumeration (`--naive`) lists, on the whole OpenCL corpus.
#[test]
fn opencl_corpus_pruned_search_equals_naive_enumeration() {
    for (name, source) in corpus() {
        let program = vkherd::load_litmus(&source).expect("parses");
        let (pruned, naive) = files::pruned_and_naive_reports(&program);
        assert_eq!(pruned, naive, "{name}");
    }
}

/// Judging an OpenCL test with the Vulkan axioms would give wrong verdicts: an explicit
/// `--model vulkan` is refused.
#[test]
fn opencl_tests_are_refused_by_the_vulkan_model() {
    let (name, source) = &corpus()[0];
    let program = vkherd::load_litmus(source).expect("parses");
    let opts = vkherd::Options {
        model: vkherd::models::ModelChoice {
            given: true,
            ..Default::default()
        },
        ..vkherd::Options::default()
    };
    let err = vkherd::run(&program, &opts).expect_err("refused");
    assert!(
        err.message
            .contains("is an OpenCL test, and the model vulkan is not for OpenCL tests"),
        "{name}: {}",
        err.message
    );
}

/// Writes every lowered OpenCL corpus test to `$VKHERD_DUMP_OPENCL` in a line format, for
/// cross-checking the hand-derived headers with other tools (as tests/differential.rs
/// does for Vulkan): `cargo test -p vkherd --test integration opencl_corpus::dump -- --ignored`.
#[test]
#[ignore = "writes the lowered corpus to $VKHERD_DUMP_OPENCL (for cross-checking with other tools)"]
fn dump_lowered_corpus() {
    use std::fmt::Write as _;
    use vkherd_model::{Instruction, Observable, Operand, FLAG_NAMES};
    let Ok(path) = std::env::var("VKHERD_DUMP_OPENCL") else {
        return;
    };
    let op = |o: &Operand| match o {
        Operand::Reg(r) => format!("r{r}"),
        Operand::Imm(v) => v.to_string(),
    };
    let flags = |f: vkherd_model::Flags| {
        let names: Vec<&str> = FLAG_NAMES
            .iter()
            .filter(|(g, _)| f.has(*g))
            .map(|(_, n)| *n)
            .collect();
        names.join("|")
    };
    let mut out = String::new();
    for (name, source) in corpus() {
        let p = vkherd::load_litmus(&source).expect("lowers");
        let _ = writeln!(out, "TEST {name}");
        for l in &p.locations {
            let _ = writeln!(out, "LOC {} {}", l.name, l.init);
        }
        for (t, th) in p.threads.iter().enumerate() {
            let _ = writeln!(
                out,
                "THREAD {t} {} {} {}",
                th.scope[2], th.scope[1], th.scope[0]
            );
            for (r, v) in &th.init_regs {
                let _ = writeln!(out, "REG r{r} {v}");
            }
            for i in &th.code {
                let line = match i {
                    Instruction::Access(a) => {
                        let loc = a.reference.map_or("-".to_string(), |r| {
                            p.locations[p.references[r].location].name.clone()
                        });
                        let cas = a.cas.as_ref().map_or("-".to_string(), |c| {
                            format!(
                                "{},{},{},{}",
                                op(&c.expected),
                                c.weak,
                                flags(c.fail_flags),
                                c.success_dst.map_or("-".to_string(), |r| format!("r{r}"))
                            )
                        });
                        format!(
                            "ACCESS {:?} {} {loc} {} {} {} {cas}",
                            a.kind,
                            flags(a.flags),
                            a.dst.map_or("-".to_string(), |r| format!("r{r}")),
                            a.value.as_ref().map_or("-".to_string(), op),
                            a.rmw_op.map_or("-".to_string(), |o| format!("{o:?}")),
                        )
                    }
                    Instruction::Arith {
                        op: o, dst, a, b, ..
                    } => {
                        format!("ARITH {o:?} r{dst} {} {}", op(a), op(b))
                    }
                    Instruction::Jump { cond, target, .. } => match cond {
                        None => format!("JUMP {target}"),
                        Some((c, a, b)) => format!("JUMPIF {c:?} {} {} {target}", op(a), op(b)),
                    },
                };
                let _ = writeln!(out, "{line}");
            }
        }
        let cols: Vec<String> = p
            .observed
            .iter()
            .map(|&o| match o {
                Observable::Reg { .. } => p.observable_name(o),
                Observable::Loc(l) => p.locations[l].name.clone(),
            })
            .collect();
        let _ = writeln!(out, "OBSERVED {}", cols.join(" "));
        if let Some(c) = &p.condition {
            let _ = writeln!(out, "COND {:?} {}", c.quantifier, c.text);
        }
        let _ = writeln!(out, "END");
    }
    std::fs::write(path, out).expect("write the dump");
}

/// Damaged OpenCL tests get an error, never a panic, from parsing or lowering: byte edits
/// of every corpus file and of the dialect fixtures (tests/files/opencl-dialect: arrays,
/// memory maps, compare-exchange forms), the same edits on every run.
#[test]
fn damaged_opencl_tests_never_panic() {
    const BYTES: &[u8] = b"(){};,*&|!=<>-+/\\[]:@ \nrxyz0129P~\"";
    let mut seed: u64 = 42;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let fixtures = files::litmus_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/files/opencl-dialect"),
    )
    .into_iter()
    .map(|p| {
        let text = std::fs::read_to_string(&p).expect("readable");
        (p.display().to_string(), text)
    });
    for (name, source) in corpus().into_iter().chain(fixtures) {
        for _ in 0..60 {
            let mut bytes = source.as_bytes().to_vec();
            for _ in 0..1 + next() % 3 {
                let at = next() % bytes.len();
                match next() % 3 {
                    0 => bytes[at] = BYTES[next() % BYTES.len()],
                    1 => {
                        bytes.remove(at);
                    }
                    _ => bytes.insert(at, BYTES[next() % BYTES.len()]),
                }
            }
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let result = std::panic::catch_unwind(|| vkherd::load_litmus(&text));
            match result {
                Ok(Ok(_)) => {}
                Ok(Err(d)) => {
                    let s = d.span;
                    assert!(s.line >= 1 && s.column >= 1, "{name}: {d:?}");
                    assert!(s.offset + s.len <= text.len(), "{name}: {d:?}");
                    assert!(d.render(&name, &text).starts_with("error: "));
                }
                Err(_) => panic!("{name}: panic on\n{text}"),
            }
        }
    }
}
