//! The liveness check (docs/liveness.md): the corpus in litmus-tests/liveness/, whose
//! headers state the verdicts derived by hand from liveness.md (the worked examples and
//! their table among them); snapshots of the report lines; the pruned search against the
//! plain enumeration; the safety report unchanged by --liveness on the whole corpus; and
//! the set of violations growing along fair, lobe, hsa_obe, hsa or obe, unfair.

use crate::files;
use vkherd::liveness::{Progress, ProgressModel};
use vkherd::RunConfig;
use vkherd::{report, Options};
use vkherd_enumerate::liveness::{check, Verdict};

fn liveness_dir() -> std::path::PathBuf {
    files::corpus_root().join("liveness")
}

/// The liveness corpus: (file name, source).
fn liveness_corpus() -> Vec<(String, String)> {
    files::litmus_files(&liveness_dir())
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// One `Expected liveness --unroll K[ --progress P]: ...` line: the bound, the models
/// and the verdict expected under each.
struct Expected {
    unroll: u32,
    cases: Vec<(Progress, String)>,
}

fn expectations(source: &str) -> Vec<Expected> {
    source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Expected liveness --unroll "))
        .map(|rest| {
            let (head, verdicts) = rest.split_once(": ").expect("`: ` after the options");
            let mut words = head.split_whitespace();
            let unroll: u32 = words.next().unwrap().parse().unwrap();
            let cases = match (words.next(), words.next()) {
                (Some("--progress"), Some(p)) => {
                    vec![(Progress::parse(p).unwrap(), verdicts.trim().to_string())]
                }
                _ => verdicts
                    .split_whitespace()
                    .map(|item| {
                        let (m, v) = item.split_once('=').unwrap();
                        (Progress::parse(m).unwrap(), v.to_string())
                    })
                    .collect(),
            };
            Expected { unroll, cases }
        })
        .collect()
}

fn options(unroll: u32, progress: Progress) -> Options {
    Options {
        run: RunConfig {
            unroll,
            ..RunConfig::default()
        },
        liveness: Some(progress),
        ..Options::default()
    }
}

fn enum_options(unroll: u32, naive: bool) -> vkherd_enumerate::EnumOptions {
    vkherd_enumerate::EnumOptions {
        run: RunConfig {
            unroll,
            naive,
            ..Default::default()
        },
        engine: vkherd_enumerate::AnyEngine::Cat(vkherd_enumerate::CatEngine::vulkan(
            &Default::default(),
        )),
        ..Default::default()
    }
}

#[test]
fn the_liveness_corpus_gives_the_verdicts_derived_by_hand() {
    let tests = liveness_corpus();
    assert!(
        tests.len() >= 30,
        "liveness corpus too small: {}",
        tests.len()
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, source) in &tests {
        let exp = expectations(source);
        assert!(!exp.is_empty(), "{name}: no `Expected liveness` line");
        let program = vkherd::load_litmus(source).unwrap();
        for e in exp {
            for (progress, verdict) in e.cases {
                let got = check(&program, &enum_options(e.unroll, false), &progress).unwrap();
                checked += 1;
                if got.verdict.name() != verdict {
                    failures.push(format!(
                        "{name} --unroll {} --progress {progress}: expected {verdict}, got {}",
                        e.unroll,
                        got.verdict.name()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 200, "{checked}");
}

/// The worked examples of liveness.md and their table, at --unroll 2 and 4 (the starred
/// entries, ok in truth, are unknown for the bounded method).
#[test]
fn the_worked_examples_match_the_table_of_liveness_md() {
    let table = [
        ("spin-flag-lo", "ok ok violation ok ok violation"),
        (
            "spin-flag-hi",
            "ok violation violation violation violation violation",
        ),
        ("cbar-then-spin", "ok violation ok ok ok violation"),
        (
            "cbar-skipped",
            "violation violation violation violation violation violation",
        ),
        (
            "tas-lock",
            "unknown violation unknown unknown unknown violation",
        ),
        (
            "polite-livelock",
            "violation violation violation violation violation violation",
        ),
    ];
    let models = ["fair", "hsa", "obe", "hsa_obe", "lobe", "unfair"];
    for (test, row) in table {
        let source =
            std::fs::read_to_string(liveness_dir().join(format!("{test}.litmus"))).unwrap();
        let program = vkherd::load_litmus(&source).unwrap();
        for unroll in [2, 4] {
            for (m, want) in models.iter().zip(row.split_whitespace()) {
                let p = Progress::parse(m).unwrap();
                let got = check(&program, &enum_options(unroll, false), &p).unwrap();
                assert_eq!(got.verdict.name(), want, "{test} {m} --unroll {unroll}");
            }
        }
    }
}

/// Spin iterations never count against `--unroll` (liveness.md "Spin iterations"): the
/// tests whose loops only wait get, at --unroll 0, 1 and 6, the verdicts their headers
/// derive for --unroll 2, under every model.
#[test]
fn waits_on_a_flag_get_the_same_answer_at_any_bound() {
    let spin_only = [
        "spin-flag-lo",
        "spin-flag-hi",
        "ticket-lock",
        "xf-barrier-2wg",
        "chain-3wg",
        "cbar-then-spin",
    ];
    for test in spin_only {
        let source =
            std::fs::read_to_string(liveness_dir().join(format!("{test}.litmus"))).unwrap();
        let program = vkherd::load_litmus(&source).unwrap();
        let at2 = expectations(&source)
            .into_iter()
            .find(|e| e.unroll == 2 && e.cases.len() == 6)
            .expect("the six models at --unroll 2");
        for unroll in [0, 1, 6] {
            for (progress, want) in &at2.cases {
                let got = check(&program, &enum_options(unroll, false), progress).unwrap();
                assert_eq!(
                    got.verdict.name(),
                    want,
                    "{test} --progress {progress} --unroll {unroll}"
                );
            }
        }
    }
}

/// The report lines of every liveness test under the six models, locked by snapshots
/// (reviewed against the headers' derivations).
#[test]
fn liveness_reports_match_their_snapshots() {
    for (name, source) in liveness_corpus() {
        let program = vkherd::load_litmus(&source).unwrap();
        let mut text = String::new();
        for m in ProgressModel::ALL {
            let rep =
                vkherd::run_with_source(&program, Some(&source), &options(2, Progress::uniform(m)))
                    .unwrap();
            text.push_str(&rep.liveness.unwrap().text);
        }
        let key = format!("liveness__{}", name.trim_end_matches(".litmus"));
        insta::assert_snapshot!(key, text);
    }
}

/// The pruned search (which skips the rf pairs the visitor rules out, and cuts
/// inconsistent subtrees) finds the same verdict, witness and cut as the plain
/// enumeration of every rf and asmo.
/// The plain enumeration is exponential (the exchange loops' asmo orders): a case whose
/// plain run passes this many candidates is left out, and the test says how many ran.
const NAIVE_BUDGET: u64 = 20_000;

#[test]
fn the_pruned_search_finds_what_the_plain_enumeration_finds() {
    let mut compared = 0;
    for (name, source) in liveness_corpus() {
        let program = vkherd::load_litmus(&source).unwrap();
        for m in ProgressModel::ALL {
            let p = Progress::uniform(m);
            let naive_opts = vkherd_enumerate::EnumOptions {
                run: RunConfig {
                    max_candidates: Some(NAIVE_BUDGET),
                    ..(enum_options(2, true)).run.clone()
                },
                ..enum_options(2, true)
            };
            let naive = check(&program, &naive_opts, &p).unwrap();
            if naive.stopped.is_some() {
                continue;
            }
            compared += 1;
            let pruned = check(&program, &enum_options(2, false), &p).unwrap();
            assert_eq!(pruned.verdict, naive.verdict, "{name} {m}");
            assert_eq!(pruned.cut, naive.cut, "{name} {m}");
            let key = |l: &vkherd_enumerate::liveness::Liveness| {
                l.witness
                    .as_ref()
                    .map(|w| (w.paths.clone(), w.execution.key.clone()))
            };
            assert_eq!(key(&pruned), key(&naive), "{name} {m}");
        }
    }
    eprintln!("{compared} cases compared with the plain enumeration");
    assert!(
        compared >= 120,
        "only {compared} cases within the plain enumeration's budget"
    );
}

/// Along fair, lobe, hsa_obe, then hsa or obe, then unfair, the set of violations only
/// grows, on every test of the corpus (both dialects).
#[test]
fn violations_only_grow_from_fair_to_unfair_on_the_whole_corpus() {
    use ProgressModel as M;
    let chains = [
        [M::Fair, M::Lobe, M::HsaObe, M::Hsa, M::Unfair],
        [M::Fair, M::Lobe, M::HsaObe, M::Obe, M::Unfair],
    ];
    let mut violations = 0;
    for file in files::corpus_files() {
        let source = std::fs::read_to_string(&file).unwrap();
        let program = vkherd::load_litmus(&source).unwrap();
        let opts = Options {
            run: RunConfig {
                unroll: 2,
                ..RunConfig::default()
            },
            ..Options::default()
        };
        let enum_opts = enum_options_for(&program, &opts);
        let verdict = |m: M| {
            check(&program, &enum_opts, &Progress::uniform(m))
                .unwrap()
                .verdict
        };
        let got: std::collections::BTreeMap<M, Verdict> = ProgressModel::ALL
            .into_iter()
            .map(|m| (m, verdict(m)))
            .collect();
        for chain in &chains {
            for w in chain.windows(2) {
                assert!(
                    got[&w[0]] != Verdict::Violation || got[&w[1]] == Verdict::Violation,
                    "{}: a violation under {} but not under {}",
                    file.display(),
                    w[0],
                    w[1]
                );
            }
        }
        violations += got.values().filter(|v| **v == Verdict::Violation).count();
    }
    assert!(violations > 50, "{violations}");
}

/// The enumeration options of a run, with the dialect's model (OpenCL tests run
/// opencl.cat).
fn enum_options_for(
    program: &vkherd::LoweredProgram,
    opts: &Options,
) -> vkherd_enumerate::EnumOptions {
    let engine = if program.dialect.name == "opencl" {
        vkherd_enumerate::CatEngine::new(vkherd::models::bundled("opencl", &[]))
    } else {
        opts.model.spec.cat_engine()
    };
    vkherd_enumerate::EnumOptions {
        run: RunConfig {
            unroll: opts.run.unroll,
            ..Default::default()
        },
        engine: vkherd_enumerate::AnyEngine::Cat(engine),
        ..Default::default()
    }
}

/// The safety report (everything before the `Liveness:` line) is byte for byte the same
/// with and without --liveness, on every test of the corpus.
#[test]
fn the_safety_report_is_unchanged_by_liveness_on_the_whole_corpus() {
    for file in files::corpus_files() {
        let source = std::fs::read_to_string(&file).unwrap();
        let program = vkherd::load_litmus(&source).unwrap();
        let plain = vkherd::run_with_source(&program, Some(&source), &Options::default()).unwrap();
        let live = vkherd::run_with_source(
            &program,
            Some(&source),
            &options(2, Progress::uniform(ProgressModel::Obe)),
        )
        .unwrap();
        let plain_text = report::herd_text(&plain);
        let live_text = report::herd_text(&live);
        let at = live_text.find("Liveness: ").expect("a liveness line");
        assert_eq!(&live_text[..at], plain_text, "{}", file.display());
        assert!(live_text[at..].starts_with("Liveness: "));
        // The safety notes come first, unchanged but for the unroll bound's warning,
        // which in a liveness run says that it bounds the states, not the verdict.
        let reworded: Vec<String> = live.notes[..plain.notes.len()]
            .iter()
            .map(|n| {
                n.replace(
                    "the states and counts are bounded, not complete; the liveness verdict is not (ok and violation are exact at any bound, unknown names the loop the bound cuts)",
                    "the result is bounded, not complete",
                )
            })
            .collect();
        assert_eq!(reworded, plain.notes, "{}", file.display());
    }
}

/// Brute force for the progress side: every combination of endings (no progress model,
/// no early stop) searched in full by the plain enumeration gives the ending states that
/// have a stuck execution; a model has a violation iff it accepts one of them, by the
/// four rules of liveness.md checked over every progress assignment.
#[test]
fn the_verdicts_equal_a_brute_force_over_endings_and_progress_assignments() {
    for (name, source) in liveness_corpus() {
        let program = vkherd::load_litmus(&source).unwrap();
        if program.threads.len() > 3 {
            continue;
        }
        let states =
            vkherd_enumerate::liveness::stuck_states(&program, &enum_options(2, false)).unwrap();
        for m in ProgressModel::ALL {
            let p = Progress::uniform(m);
            let brute = states.iter().any(|s| brute_accepts(&program, &p, s));
            let got = check(&program, &enum_options(2, false), &p)
                .unwrap()
                .verdict;
            assert_eq!(got == Verdict::Violation, brute, "{name} {m}");
        }
    }
}

/// Is there a progress assignment (each group and invocation progressing or not)
/// obeying rules 1 to 4 of liveness.md? Groups are the sets of threads sharing a prefix
/// of (qf, wg, sg, thread).
fn brute_accepts(
    program: &vkherd::LoweredProgram,
    p: &Progress,
    inv: &[vkherd_enumerate::liveness::InvState],
) -> bool {
    use vkherd_enumerate::liveness::{EndingKind, Level};
    let key = |t: usize, depth: usize| -> Vec<u64> {
        let th = &program.threads[t];
        [th.scope[2], th.scope[1], th.scope[0], t as u64][..depth].to_vec()
    };
    // Every node: (depth, key); depth 0 is the device.
    let mut nodes: Vec<(usize, Vec<u64>)> = Vec::new();
    for depth in 0..=4 {
        for t in 0..program.threads.len() {
            let k = key(t, depth);
            if !nodes.contains(&(depth, k.clone())) {
                nodes.push((depth, k));
            }
        }
    }
    let threads_of = |depth: usize, k: &[u64]| -> Vec<usize> {
        (0..program.threads.len())
            .filter(|&t| key(t, depth) == k)
            .collect()
    };
    let sched = |ts: &[usize]| {
        ts.iter()
            .any(|&t| !matches!(inv[t].kind, EndingKind::Terminated | EndingKind::Blocked))
    };
    let started = |ts: &[usize]| ts.iter().any(|&t| inv[t].started);
    'assignment: for mask in 0u64..(1u64 << nodes.len()) {
        let on = |i: usize| mask & (1 << i) != 0;
        if !on(0) {
            continue;
        }
        for (i, (depth, k)) in nodes.iter().enumerate() {
            if *depth == 4 {
                // Rule 4.
                if on(i) && inv[k[3] as usize].kind == EndingKind::Paused {
                    continue 'assignment;
                }
                continue;
            }
            let level = Level::ALL[*depth];
            let mut members: Vec<(usize, Vec<u64>)> = nodes
                .iter()
                .enumerate()
                .filter(|(_, (d, m))| *d == depth + 1 && m[..*depth] == k[..])
                .map(|(j, (_, m))| (j, m.clone()))
                .collect();
            members.sort_by_key(|(_, m)| m[*depth]);
            let mut any_sched = false;
            let mut sched_on = false;
            for (idx, (j, m)) in members.iter().enumerate() {
                let ts = threads_of(depth + 1, m);
                if on(*j) && !on(i) {
                    continue 'assignment; // rule 1
                }
                let lower_sched = members[..idx]
                    .iter()
                    .any(|(_, x)| sched(&threads_of(depth + 1, x)));
                let above_started = members[idx..]
                    .iter()
                    .any(|(_, x)| started(&threads_of(depth + 1, x)));
                let guaranteed = match p.at(level) {
                    ProgressModel::Fair => true,
                    ProgressModel::Hsa => !lower_sched,
                    ProgressModel::Obe => started(&ts),
                    ProgressModel::HsaObe => !lower_sched || started(&ts),
                    ProgressModel::Lobe => above_started,
                    ProgressModel::Unfair => false,
                };
                if on(i) && guaranteed && !on(*j) {
                    continue 'assignment; // rule 2
                }
                any_sched |= sched(&ts);
                sched_on |= sched(&ts) && on(*j);
            }
            if on(i) && any_sched && !sched_on {
                continue 'assignment; // rule 3
            }
        }
        return true;
    }
    false
}

/// The OpenCL dialect: work-groups and sub-groups are levels of the same tree. Worked
/// example 1 written in OpenCL C, its waiter in work-group 1 (the `wg` level decides), and
/// again with both work-items in one work-group, different sub-groups (the `sg` level
/// decides). Expected verdicts derived by hand as for spin-flag-lo: P1's loop is a spin
/// when its load reads 0 (r0 unchanged), which is final only if P0 never stores; fair,
/// hsa (P0 has the lower id), hsa_obe and lobe (P1 started, so every lower id is
/// guaranteed) make P0 run: ok; obe (P0 not started) and unfair: violation. --unroll 2
/// lets the body that reads 1 jump back once and exit.
#[test]
fn opencl_work_groups_and_sub_groups_are_levels_of_the_tree() {
    let test = |p0: &str, p1: &str| {
        format!(
            "OPENCL ocl-spin-flag\n{{ [flag] = 0; }}\n\
             {p0} (global atomic_int* flag) {{\n\
             \x20 atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);\n}}\n\
             {p1} (global atomic_int* flag) {{\n\
             \x20 int r0 = 0;\n\
             \x20 while (r0 == 0) {{\n\
             \x20   r0 = atomic_load_explicit(flag, memory_order_acquire, memory_scope_device);\n\
             \x20 }}\n}}\n\
             exists (1:r0 = 1)\n"
        )
    };
    let by_level = [
        (test("P0@sg 0, wg 0, dev 0", "P1@sg 0, wg 1, dev 0"), "wg"),
        (test("P0@sg 0, wg 0, dev 0", "P1@sg 1, wg 0, dev 0"), "sg"),
    ];
    let uniform = "fair=ok hsa=ok obe=violation hsa_obe=ok lobe=ok unfair=violation";
    for (source, level) in by_level {
        let program = vkherd::load_litmus(&source).unwrap();
        assert_eq!(program.dialect.name, "opencl");
        let opts = enum_options_for(
            &program,
            &Options {
                run: RunConfig {
                    unroll: 2,
                    ..RunConfig::default()
                },
                ..Options::default()
            },
        );
        for item in uniform.split_whitespace() {
            let (m, want) = item.split_once('=').unwrap();
            let got = check(&program, &opts, &Progress::parse(m).unwrap()).unwrap();
            assert_eq!(got.verdict.name(), want, "{level}: {m}");
        }
        // Only the level with two members matters.
        for other in ["wg", "sg", "inv"] {
            let p = Progress::parse(&format!("{other}=obe")).unwrap();
            let want = if other == level { "violation" } else { "ok" };
            let got = check(&program, &opts, &p).unwrap();
            assert_eq!(got.verdict.name(), want, "{level}: {other}=obe");
        }
    }
}
