//! The MMRA variant of the OpenCL model (opencl.cat with `--variant mmra`, docs/mmra.md
//! "OpenCL"):
//! - on generated OpenCL tests and on the OpenCL corpus, without tags or with tag sets
//!   that are all pairwise compatible, its reports are byte-identical to the plain
//!   model's;
//! - tags only add states: every state the plain model allows stays allowed;
//! - its pruned search agrees with plain exhaustive enumeration (`--naive`);
//! - the corpus litmus-tests/opencl-mmra/: each header's verdict, race flag and states
//!   (derived by hand), insta snapshots of both reports, and `vkherd diff` showing the
//!   states the tags add.
//!
//! The seed of any failure is printed with the test.

use crate::common;

use crate::files;
use common::Rng;
use std::path::Path;
use vkherd::RunConfig;
use vkherd::{report, Options, Report};
use vkherd_model::ModelOptions;

const ORDERS_ST: [&str; 3] = [
    "memory_order_relaxed",
    "memory_order_release",
    "memory_order_seq_cst",
];
const ORDERS_LD: [&str; 3] = [
    "memory_order_relaxed",
    "memory_order_acquire",
    "memory_order_seq_cst",
];
const ORDERS_RMW: [&str; 3] = [
    "memory_order_relaxed",
    "memory_order_acq_rel",
    "memory_order_seq_cst",
];
const ORDERS_F: [&str; 4] = [
    "memory_order_release",
    "memory_order_acquire",
    "memory_order_acq_rel",
    "memory_order_seq_cst",
];
const SCOPES: [&str; 2] = ["memory_scope_work_group", "memory_scope_device"];

/// One random statement of a thread on the locations `locs`, using registers from `reg`.
fn statement(rng: &mut Rng, locs: &[&str], reg: &mut u32, value: &mut u32) -> String {
    let loc = *rng.pick(locs);
    let scope = rng.pick(&SCOPES);
    let guarded = *reg > 0 && rng.chance(50);
    let mut next_reg = || {
        *reg += 1;
        *reg - 1
    };
    match rng.below(8) {
        0 | 1 => {
            *value += 1;
            format!("*{loc} = {value};")
        }
        2 => format!("int r{} = *{loc};", next_reg()),
        3 => {
            *value += 1;
            let order = rng.pick(&ORDERS_ST);
            format!("atomic_store_explicit({loc}, {value}, {order}, {scope});")
        }
        4 => {
            let order = rng.pick(&ORDERS_LD);
            format!(
                "int r{} = atomic_load_explicit({loc}, {order}, {scope});",
                next_reg()
            )
        }
        5 => {
            let order = rng.pick(&ORDERS_RMW);
            format!(
                "int r{} = atomic_fetch_add_explicit({loc}, 1, {order}, {scope});",
                next_reg()
            )
        }
        6 if guarded => {
            // A load guarded by the first register, as in message passing.
            let r = next_reg();
            format!("int r{r} = 0; if (r0 == 1) r{r} = *{loc};")
        }
        _ => {
            let flags = rng.pick(&[
                "CLK_GLOBAL_MEM_FENCE",
                "CLK_LOCAL_MEM_FENCE",
                "CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE",
            ]);
            let order = rng.pick(&ORDERS_F);
            format!("atomic_work_item_fence({flags}, {order}, {scope});")
        }
    }
}

/// A random small OpenCL test: 2 or 3 work-items, global locations x and y and, when
/// they all are in one work-group, a local location z and sometimes a barrier.
fn random_opencl_test(seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0x0c1_7e57);
    let nthreads = 2 + usize::from(rng.chance(25));
    let one_wg = rng.chance(60);
    let mut locs = vec!["x", "y"];
    if one_wg && rng.chance(40) {
        locs.push("z");
    }
    let barrier = one_wg && rng.chance(30);
    let barrier_flags = rng.pick(&[
        "CLK_GLOBAL_MEM_FENCE",
        "CLK_LOCAL_MEM_FENCE",
        "CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE",
    ]);
    let params = locs
        .iter()
        .map(|l| {
            let space = if *l == "z" { "local" } else { "global" };
            format!("{space} atomic_int* {l}")
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mut text = format!(
        "OPENCL random-{seed}\n\"generated\"\n{{ {} }}\n",
        locs.iter()
            .map(|l| format!("[{l}] = 0;"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut shown: Vec<String> = locs.iter().map(|l| l.to_string()).collect();
    let mut value = 0;
    // Half the tests are message passing (data x, flag y) with random statements added,
    // so that there is synchronisation for the tags to undo.
    let mp = rng.chance(50);
    for t in 0..nthreads {
        let wg = if one_wg { 0 } else { t };
        text.push_str(&format!("P{t}@sg {t}, wg {wg}, dev 0 ({params}) {{\n"));
        let mut reg = 0u32;
        let extra = if mp && t < 2 {
            u64::from(rng.chance(30))
        } else {
            1 + rng.below(2)
        };
        let mut code: Vec<String> = (0..extra)
            .map(|_| statement(&mut rng, &locs, &mut reg, &mut value))
            .collect();
        if mp && t < 2 {
            let scope = rng.pick(&SCOPES);
            let skeleton = match (t, rng.below(3)) {
                (0, 0) => format!(
                    "*x = 1; atomic_store_explicit(y, 1, memory_order_release, {scope});"
                ),
                (0, 1) => format!(
                    "*x = 1; atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, {scope}); atomic_store_explicit(y, 1, memory_order_relaxed, {scope});"
                ),
                (0, _) => "*x = 1; atomic_store(y, 1);".to_string(),
                (_, 0) => format!(
                    "int r{reg} = atomic_load_explicit(y, memory_order_acquire, {scope}); int r{} = *x;",
                    reg + 1
                ),
                (_, 1) => format!(
                    "int r{reg} = atomic_load_explicit(y, memory_order_relaxed, {scope}); atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, {scope}); int r{} = *x;",
                    reg + 1
                ),
                (_, _) => format!("int r{reg} = atomic_load(y); int r{} = *x;", reg + 1),
            };
            if t == 1 {
                reg += 2;
            }
            let at = rng.below(code.len() as u64 + 1) as usize;
            code.splice(
                at..at,
                skeleton.split_inclusive(';').map(|s| s.trim().to_string()),
            );
        }
        if barrier {
            // Every work-item meets the barrier once (none is left waiting).
            let at = rng.below(code.len() as u64 + 1) as usize;
            code.insert(at, format!("barrier({barrier_flags});"));
        }
        for c in code {
            text.push_str(&format!("  {c}\n"));
        }
        text.push_str("}\n");
        shown.extend((0..reg).map(|r| format!("{t}:r{r}")));
    }
    text.push_str(&format!("locations [{}]\n", shown.join("; ")));
    text.push_str("exists (x = 1)\n");
    text
}

/// Appends `!mmra(SET)` (SET drawn from `sets`) before the `;` of most statements of
/// `source`'s thread bodies that access memory or synchronise.
fn tag(source: &str, seed: u64, sets: &[&str]) -> String {
    let mut rng = Rng::new(seed ^ 0x5eed_7a95);
    let mut out = String::new();
    let mut in_body = false;
    for line in source.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('P') && line.ends_with('{') {
            in_body = true;
        } else if trimmed == "}" {
            in_body = false;
        }
        let memory = ["*", "atomic_", "barrier", "fence"]
            .iter()
            .any(|m| line.contains(m));
        let taggable = in_body && line.ends_with(';') && memory && !trimmed.starts_with('/');
        if !taggable || rng.chance(20) {
            out.push_str(line);
        } else {
            // The last statement of the line (`int r1 = 0; if (r0 == 1) r1 = *x;`).
            let body = line.trim_end_matches(';');
            out.push_str(&format!("{body} !mmra({});", rng.pick(sets)));
        }
        out.push('\n');
    }
    out
}

/// A test's report under the OpenCL model (the default for OPENCL tests), with or
/// without `--variant mmra`.
fn run(source: &str, mmra: bool, naive: bool) -> Report {
    let program = vkherd::load_litmus(source)
        .unwrap_or_else(|d| panic!("does not load: {}\n{source}", d.render("gen", source)));
    let opts = Options {
        model: vkherd::models::ModelChoice {
            spec: vkherd::models::ModelSpec::Vulkan(ModelOptions {
                mmra,
                ..ModelOptions::default()
            }),
            ..Default::default()
        },
        run: RunConfig {
            naive,
            ..RunConfig::default()
        },
        ..Options::default()
    };
    vkherd::run(&program, &opts).expect("the test runs")
}

/// `source` without its `!mmra(...)` annotations.
fn strip_tags(source: &str) -> String {
    let mut out = String::new();
    let mut rest = source;
    while let Some(at) = rest.find(" !mmra(") {
        out.push_str(&rest[..at]);
        let close = rest[at..].find(')').expect("a closed annotation");
        rest = &rest[at + close + 1..];
    }
    out.push_str(rest);
    out
}

fn text(report: &Report) -> String {
    report::herd_text(report)
}

fn assert_no_state_lost(plain: &Report, mmra: &Report, what: &str) {
    for state in plain.outcomes.states.keys() {
        assert!(
            mmra.outcomes.states.contains_key(state),
            "{what}: the tags remove the state {state:?}"
        );
    }
}

const SEEDS: std::ops::Range<u64> = 0..120;

/// Incompatible sets: `p:1` and `p:2` (and `q:2` against `p:1, q:1`) share a prefix and
/// no tag with it.
const INCOMPATIBLE: [&str; 5] = ["p:1", "p:2", "p:1, q:1", "q:2", ""];
/// Each prefix has one suffix here, so any two sets that both have prefix P share `P:1`:
/// every pair is compatible.
const COMPATIBLE: [&str; 5] = ["p:1", "q:1", "p:1, q:1", "sync-as:1, q:1", ""];

#[test]
fn generated_tests_parse_and_have_states() {
    let mut tagged_tests = 0;
    for seed in SEEDS {
        let source = random_opencl_test(seed);
        let rep = run(&source, false, false);
        assert!(!rep.outcomes.states.is_empty(), "seed {seed}\n{source}");
        let tagged = tag(&source, seed, &INCOMPATIBLE);
        tagged_tests += usize::from(tagged.contains("!mmra("));
        run(&tagged, true, false);
        if std::env::var("DUMP").is_ok() {
            eprintln!("{tagged}\n{}", text(&run(&tagged, true, false)));
        }
    }
    assert!(
        tagged_tests * 10 >= SEEDS.count() * 9,
        "{tagged_tests} tagged"
    );
}

#[test]
fn without_tags_mmra_reports_are_the_plain_reports() {
    for seed in SEEDS {
        let source = random_opencl_test(seed);
        assert_eq!(
            text(&run(&source, true, false)),
            text(&run(&source, false, false)),
            "seed {seed}\n{source}"
        );
    }
}

#[test]
fn with_compatible_tags_mmra_reports_are_the_plain_reports() {
    for seed in SEEDS {
        let untagged = random_opencl_test(seed);
        let source = tag(&untagged, seed, &COMPATIBLE);
        assert_eq!(
            text(&run(&source, true, false)),
            text(&run(&untagged, false, false)),
            "seed {seed}\n{source}"
        );
    }
}

/// Tags only take pairs out of happens-before (docs/mmra.md "OpenCL", Properties): a
/// state allowed without them stays allowed. Checked against --naive too, as the variant
/// runs through the pruned search.
#[test]
fn tags_never_remove_a_state_and_the_search_agrees_with_naive() {
    let (mut grew, mut runs) = (0, 0);
    for seed in SEEDS {
        let untagged = random_opencl_test(seed);
        let plain = run(&untagged, false, false);
        // The mixed sets, and two sets only, incompatible with each other.
        for (k, sets) in [&INCOMPATIBLE[..], &["p:1", "p:2"]].iter().enumerate() {
            let source = tag(&untagged, seed, sets);
            let mmra = run(&source, true, false);
            assert_no_state_lost(&plain, &mmra, &format!("seed {seed}\n{source}"));
            grew += usize::from(mmra.outcomes.states.len() > plain.outcomes.states.len());
            runs += 1;
            if (seed + k as u64).is_multiple_of(4) {
                assert_eq!(
                    text(&mmra),
                    text(&run(&source, true, true)),
                    "seed {seed}: search and --naive differ\n{source}"
                );
            }
        }
    }
    // 24 of 240 on these seeds: the rest do not synchronise where the tags fall.
    assert!(
        grew * 20 >= runs,
        "only {grew} of {runs} tagged tests gained a state"
    );
}

fn corpus(dir: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests");
    let files = files::litmus_files(&root.join(dir));
    files
        .into_iter()
        .map(|p| {
            let name = p.strip_prefix(&root).unwrap().display().to_string();
            (name, std::fs::read_to_string(&p).expect("readable"))
        })
        .collect()
}

/// The whole OpenCL corpus, untagged and with compatible tags: the variant changes no
/// byte of any report.
#[test]
fn opencl_corpus_untagged_or_compatible_reports_are_unchanged() {
    let tests = corpus("opencl");
    assert!(tests.len() >= 60, "OpenCL corpus: {}", tests.len());
    for (seed, (name, source)) in tests.iter().enumerate() {
        let plain = text(&run(source, false, false));
        assert_eq!(text(&run(source, true, false)), plain, "{name}");
        let compatible = tag(source, seed as u64, &COMPATIBLE);
        assert_eq!(
            text(&run(&compatible, true, false)),
            plain,
            "{name}\n{compatible}"
        );
    }
}

/// The message-passing, fence and barrier tests of the OpenCL corpus, randomly tagged
/// (two taggings each): tags never remove a state, they do add some, and the search
/// agrees with --naive.
#[test]
fn tagged_synchronising_opencl_corpus_tests_only_gain_states() {
    let (mut grew, mut runs) = (0, 0);
    for dir in ["opencl/mp", "opencl/fences", "opencl/barriers"] {
        for (name, untagged) in corpus(dir) {
            let plain = run(&untagged, false, false);
            for seed in 0..2 {
                let source = tag(&untagged, seed, &INCOMPATIBLE);
                let what = format!("{name} seed {seed}\n{source}");
                let mmra = run(&source, true, false);
                assert_no_state_lost(&plain, &mmra, &what);
                grew += usize::from(mmra.outcomes.states.len() > plain.outcomes.states.len());
                assert_eq!(
                    text(&mmra),
                    text(&run(&source, true, true)),
                    "search and --naive differ: {what}"
                );
                runs += 1;
            }
        }
    }
    // 14 of 78 on these taggings.
    assert!(
        grew * 10 >= runs,
        "only {grew} of {runs} tagged tests gained a state"
    );
}

/// What a header of litmus-tests/opencl-mmra/ promises: `Expected:` and `States:` under
/// `--variant mmra`, `Plain:` under the plain model.
#[derive(Debug, PartialEq)]
struct Expectation {
    verdict: String,
    racy: bool,
    plain_verdict: String,
    plain_racy: bool,
    states: Vec<String>,
}

fn verdict_and_race(line: &str) -> (String, bool) {
    (line[..2].to_string(), line.contains("data race: yes"))
}

fn expectation(name: &str, source: &str) -> Expectation {
    let field = |key: &str| {
        source
            .lines()
            .find_map(|l| l.trim_start_matches("(* ").trim().strip_prefix(key))
            .unwrap_or_else(|| panic!("{name}: no `{key}` line in the header"))
    };
    let (verdict, racy) = verdict_and_race(field("Expected: "));
    let (plain_verdict, plain_racy) = verdict_and_race(field("Plain: "));
    let states_at = source.find("States:").expect("a States: list") + "States:".len();
    let end = states_at + source[states_at..].find("Rule:").expect("a Rule: line");
    let states = source[states_at..end]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    Expectation {
        verdict,
        racy,
        plain_verdict,
        plain_racy,
        states,
    }
}

fn verdict_word(report: &Report) -> String {
    match report.verdict {
        vkherd::Verdict::Ok => "Ok".into(),
        vkherd::Verdict::No => "No".into(),
    }
}

/// The corpus litmus-tests/opencl-mmra/: every header's verdicts, race flags and states
/// (derived by hand) against both reports; the plain report and, where it differs, the
/// MMRA one locked by insta snapshots; the search equal to --naive; no state lost.
#[test]
fn opencl_mmra_corpus_matches_its_headers_and_snapshots() {
    let tests = corpus("opencl-mmra");
    assert_eq!(tests.len(), 18);
    let mut failures = Vec::new();
    for (name, source) in &tests {
        let exp = expectation(name, source);
        let (plain, mmra) = (run(source, false, false), run(source, true, false));
        let got = Expectation {
            verdict: verdict_word(&mmra),
            racy: mmra.outcomes.data_race(),
            plain_verdict: verdict_word(&plain),
            plain_racy: plain.outcomes.data_race(),
            states: mmra
                .outcomes
                .states
                .iter()
                .map(|(v, i)| report::state_line(&mmra, v, Some(i)))
                .collect(),
        };
        if got != exp {
            failures.push(format!("{name}:\n  expected {exp:?}\n  got      {got:?}"));
        }
        assert_no_state_lost(&plain, &mmra, name);
        // With the tags removed, the variant gives the plain report.
        let untagged = strip_tags(source);
        assert!(!untagged.contains("!mmra"), "{name}");
        assert_eq!(text(&run(&untagged, true, false)), text(&plain), "{name}");
        for (rep, mmra_on) in [(&plain, false), (&mmra, true)] {
            assert_eq!(
                text(rep),
                text(&run(source, mmra_on, true)),
                "{name} (mmra {mmra_on}): search and --naive differ"
            );
        }
        let key = Path::new(name).file_stem().unwrap().to_string_lossy();
        insta::assert_snapshot!(key.to_string(), text(&plain));
        if text(&mmra) != text(&plain) {
            insta::assert_snapshot!(format!("{key}@mmra"), text(&mmra));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `vkherd diff opencl opencl+mmra` on the corpus lists, per test, the states the tags
/// add: here each list is the header's `States:` minus the states the plain model
/// allows (checked by hand against the headers), and no state is "only opencl".
#[test]
fn diff_shows_the_states_the_tags_add() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = crate::util::bin()
        .current_dir(&root)
        .args(["diff", "opencl", "opencl+mmra", "litmus-tests/opencl-mmra"])
        .output()
        .expect("run vkherd diff");
    assert_eq!(out.status.code(), Some(0));
    let expected = "\
Test litmus-tests/opencl-mmra/MMRA-MP-acquire-side.litmus
  only opencl+mmra: 1:r0=1; 1:r1=0;
  verdict: No under opencl, Ok under opencl+mmra
Test litmus-tests/opencl-mmra/MMRA-MP-barrier.litmus
  only opencl+mmra: 1:r0=0;
  verdict: No under opencl, Ok under opencl+mmra
Test litmus-tests/opencl-mmra/MMRA-MP-fence.litmus
  only opencl+mmra: 1:r0=1; 1:r1=0;
  verdict: No under opencl, Ok under opencl+mmra
Test litmus-tests/opencl-mmra/MMRA-MP-local.litmus
  only opencl+mmra: 1:r0=1; 1:r1=0;
  verdict: No under opencl, Ok under opencl+mmra
Test litmus-tests/opencl-mmra/MMRA-MP-two-stores.litmus
  only opencl+mmra: 1:r0=1; 1:r1=0;
  only opencl+mmra: 1:r0=1; 1:r1=1;
  verdict: No under opencl, Ok under opencl+mmra
Test litmus-tests/opencl-mmra/MMRA-SB-sc-fences.litmus
  only opencl+mmra: 0:r0=0; 1:r1=0;
  verdict: No under opencl, Ok under opencl+mmra
Test litmus-tests/opencl-mmra/MMRA-seed-example1.litmus
  only opencl+mmra: 1:r0=1; 1:r1=0;
  verdict: No under opencl, Ok under opencl+mmra
Test litmus-tests/opencl-mmra/MMRA-seed-example4-untagged-between.litmus
  only opencl+mmra: 1:r0=1; 1:r1=0;
  verdict: No under opencl, Ok under opencl+mmra
Test litmus-tests/opencl-mmra/MMRA-seed-example4.litmus
  only opencl+mmra: 1:r0=1; 1:r1=0;
  verdict: No under opencl, Ok under opencl+mmra
Test litmus-tests/opencl-mmra/MMRA-seed-memory-types.litmus
  only opencl+mmra: 1:r0=1; 1:r1=1; 1:r2=0;
  verdict: No under opencl, Ok under opencl+mmra
18 tests: 10 differ, 10 verdict change(s), 0 partial (opencl against opencl+mmra)
";
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    // The untagged OpenCL corpus: the variant adds nothing.
    let out = crate::util::bin()
        .current_dir(&root)
        .args(["diff", "opencl", "opencl+mmra", "litmus-tests/opencl/mp"])
        .output()
        .expect("run vkherd diff");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(": 0 differ"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
