//! A model's flags are reported under their own names (docs/semantics.md, "Flags"): one
//! `Flag NAME` line each, by name, in the text, `--herd7-log`, `--json`, the HTML report,
//! the summary line and `vkherd merge`; states reached only by flagged executions are
//! `# flagged` unless only racy ones reach them (`# racy`, the bundled models' data race,
//! whose output is unchanged). Expected outputs are worked out by hand from the models'
//! text (comments below).

use crate::util::{fresh_dir, root, run_in_root, vkherd, write_file};

/// A model with two flags and no axiom (every candidate is consistent). On MP below:
/// `cross-thread-read` is raised when a read reads the other thread's write (a read of
/// the initial value has no rf), `read-then-more` when that read is followed in po (P1's
/// read of y, before its read of x). So (r0, r1) = (0, 0) raises neither, (0, 1) only
/// `cross-thread-read`, (1, 0) and (1, 1) both. Declared out of alphabetical order:
/// reports list flags by name.
const TWO_FLAGS: &str = "\"two flags\"
let co = asmo
flag ~empty (rf \\ sthd) ; po as read-then-more
flag ~empty rf \\ sthd as cross-thread-read
";

const MP: &str = "VULKAN two-flags
{ x = 0; y = 0; }
 P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 1, qf 0 ;
 st.sc0 x, 1         | ld.sc0 r0, y        ;
 st.sc0 y, 1         | ld.sc0 r1, x        ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)
";

const STATES: &str = "1:r0=0; 1:r1=0;
1:r0=0; 1:r1=1; # flagged
1:r0=1; 1:r1=0; # flagged
1:r0=1; 1:r1=1; # flagged
";

const FLAGS: &str = "Flag cross-thread-read\nFlag read-then-more\n";

/// The model and the test in a scratch directory `name`: their paths.
fn files(name: &str) -> (String, String) {
    let dir = fresh_dir(name);
    (
        write_file(&dir.join("two.cat"), TWO_FLAGS),
        write_file(&dir.join("two.litmus"), MP),
    )
}

fn stdout(args: &[&str]) -> String {
    let out = vkherd(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_text_names_each_flag_and_marks_flagged_states() {
    let (model, test) = files("model-flags-text");
    let text = stdout(&["--model", &model, &test]);
    let expected = format!(
        "Test two-flags Allowed\nStates 4\n{STATES}Ok\nWitnesses\nPositive: 1 Negative: 3\n{FLAGS}Condition exists (1:r0=1 /\\ 1:r1=0)\nObservation two-flags Sometimes 1 3\n\n"
    );
    assert_eq!(text, expected);
    // herd7's log: the same Flag lines, no marks.
    let log = stdout(&["--herd7-log", "--model", &model, &test]);
    assert!(
        log.contains(&format!("Positive: 1 Negative: 3\n{FLAGS}Condition")),
        "{log}"
    );
    assert!(!log.contains('#'), "{log}");
    // A directory run's summary counts the test as flagged, not racy.
    let dir = std::path::Path::new(&test).parent().unwrap();
    let run = stdout(&["--model", &model, dir.to_str().unwrap()]);
    assert!(run.contains(" 0 racy, 1 flagged, "), "{run}");
}

#[test]
fn the_json_lists_the_flags_and_the_flagged_states() {
    let (model, test) = files("model-flags-json");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["--json", "--model", &model, &test])).unwrap();
    assert_eq!(json["flag_data_race"], false);
    assert_eq!(
        json["flags"],
        serde_json::json!(["cross-thread-read", "read-then-more"])
    );
    let marks: Vec<(bool, bool)> = (json["states"].as_array().unwrap().iter())
        .map(|s| (s["racy_only"] == true, s["flagged_only"] == true))
        .collect();
    assert_eq!(
        marks,
        [(false, false), (false, true), (false, true), (false, true)]
    );
}

#[test]
fn merged_shards_keep_the_flags_and_the_marks() {
    let (model, test) = files("model-flags-merge");
    let dir = fresh_dir("model-flags-merge-out");
    let mut parts = Vec::new();
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let json = stdout(&["--json", "--shard", &shard, "--model", &model, &test]);
        parts.push(write_file(&dir.join(format!("{k}.json")), &json));
    }
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    let merged = stdout(&args);
    assert!(merged.contains(STATES), "{merged}");
    assert!(merged.contains(FLAGS), "{merged}");
}

#[test]
fn the_html_report_names_the_flags_and_marks_the_states() {
    let (model, test) = files("model-flags-html");
    let page = fresh_dir("model-flags-html-out").join("r.html");
    let page = page.to_str().unwrap();
    stdout(&["report", "--model", &model, &test, "-o", page]);
    let html = std::fs::read_to_string(page).unwrap();
    assert!(
        html.contains("<dt>flags</dt><dd class=\"flags\">cross-thread-read, read-then-more</dd>"),
        "no flags in the facts"
    );
    assert_eq!(html.matches("<td class=\"marks\">flagged</td>").count(), 3);
}

#[test]
fn dat3m_vulkan_cat_raises_its_racy_flag_under_its_name() {
    // third_party/dat3m/models/vulkan.cat has one flag, `flag ~empty dr as racy`. On
    // MP-relacq-wg an acquire reading 0 leaves the data accesses unordered (dr on x), so
    // both r0=0 states are reached only by flagged executions; r0=1 synchronises.
    let (code, out, err) = run_in_root(&[
        "--model",
        "third_party/dat3m/models/vulkan.cat",
        "litmus-tests/mp/MP-relacq-wg.litmus",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Flag racy\n"), "{out}");
    assert!(!out.contains("data-race"), "{out}");
    assert!(
        out.contains("1:r0=0; 1:r1=0; # flagged\n1:r0=0; 1:r1=1; # flagged\n1:r0=1; 1:r1=1;\n"),
        "{out}"
    );
}

#[test]
fn dat3m_opencl_cat_names_its_data_race_flag() {
    // third_party/dat3m/models/opencl.cat flags `data_race` (dr) and `unsequenced_race`
    // (ur: conflicting accesses of one work-item unordered by sb; none here). Its `incl`
    // has no sub-group term, so the sub-group-scope release and acquire of y are not
    // inclusive and race (cnf, not hb-ordered, not incl) in every execution: every
    // state is flagged.
    let test = root().join("litmus-tests/opencl/mp/MP-rel-acq-sg-samesg.litmus");
    let (code, out, err) = run_in_root(&[
        "--model",
        "third_party/dat3m/models/opencl.cat",
        test.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Flag data_race\nCondition"), "{out}");
    assert_eq!(out.matches("; # flagged\n").count(), 4, "{out}");
    assert!(
        !out.contains("unsequenced_race") && !out.contains("data-race"),
        "{out}"
    );
}

#[test]
fn a_bundled_model_with_asserts_reports_them_beside_the_data_race() {
    // vulkan-asserts.cat is vulkan.cat (its `racy`, the data race) plus the Alloy
    // file's asserts as flags; `not-locordcomplete` is raised with the race on
    // MP-avwg-crosswg (writes to x neither mutually ordered nor locord-ordered).
    let (code, out, err) = run_in_root(&[
        "--model",
        "cat:vulkan-asserts",
        "litmus-tests/mp/MP-avwg-crosswg.litmus",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Flag data-race\nFlag not-locordcomplete\nCondition"),
        "{out}"
    );
    // Every state is reached only by racy executions: `# racy`, as with vulkan.
    assert_eq!(out.matches("# racy").count(), 4, "{out}");
    let (_, json, _) = run_in_root(&[
        "--json",
        "--model",
        "cat:vulkan-asserts",
        "litmus-tests/mp/MP-avwg-crosswg.litmus",
    ]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["flag_data_race"], true);
    assert_eq!(
        json["flags"],
        serde_json::json!(["data-race", "not-locordcomplete"])
    );
}
