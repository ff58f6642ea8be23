//! `vkherd report`: the HTML page of a run (docs/report.md). The page is checked as text,
//! and loaded in a real headless browser when one is installed (the test says so, and
//! skips, when none is).

use crate::files;
use crate::util::{bin, dot_installed as graphviz, root as repo, tmp_path};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `vkherd ARGS` from the repository's root.
fn vkherd(args: &[&str]) -> Output {
    bin()
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run vkherd")
}

fn tmp(name: &str) -> PathBuf {
    let dir = tmp_path("report-tests");
    std::fs::create_dir_all(&dir).expect("make the test directory");
    dir.join(name)
}

/// Writes the report of `args` (paths and options) to `out` and returns the page.
fn report(args: &[&str], out: &Path) -> (String, Output) {
    let mut all = vec!["report", "-o", out.to_str().expect("UTF-8 path")];
    all.extend_from_slice(args);
    let output = vkherd(&all);
    let page = std::fs::read_to_string(out).unwrap_or_default();
    (page, output)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// What the page must say about one test: computed with the library, not read from the
/// page.
struct Expected {
    name: String,
    verdict: &'static str,
    states: usize,
    racy: bool,
}

fn expected(file: &Path) -> Expected {
    let source = std::fs::read_to_string(file).expect("read a corpus test");
    let program = vkherd::load_litmus(&source).expect("the corpus parses");
    let rep = vkherd::run(&program, &vkherd::Options::default()).expect("the corpus runs");
    Expected {
        name: rep.header.name.clone(),
        verdict: match rep.verdict {
            vkherd::Verdict::Ok => "Ok",
            vkherd::Verdict::No => "No",
        },
        states: rep.outcomes.states.len(),
        racy: rep.outcomes.data_race(),
    }
}

/// The sections of a page (or of a browser's DOM), one per test, from its HTML text.
fn sections(html: &str) -> Vec<&str> {
    html.split("<section class=\"test ")
        .skip(1)
        .map(|s| s.split("</section>").next().unwrap_or(s))
        .collect()
}

/// The text between `start` and the next `end` in `s`.
fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = s.find(start)? + start.len();
    let len = s[from..].find(end)?;
    Some(&s[from..from + len])
}

/// The witness figures of a test's section: the part between its "Witness executions"
/// heading and the herd-style output.
fn witness_part(section: &str) -> &str {
    between(
        section,
        "<h3>Witness executions</h3>",
        "<details class=\"herd\">",
    )
    .unwrap_or("")
}

/// The states a section lists, as their cells' values.
fn listed_states(section: &str) -> Vec<Vec<String>> {
    let table = between(section, "<table class=\"states\">", "</table>").unwrap_or("");
    table
        .split("<tr class=")
        .skip(1)
        .map(|row| {
            row.split("<td class=\"num\">")
                .skip(1)
                .map(|c| c.split("</td>").next().unwrap_or("").to_string())
                .collect()
        })
        .collect()
}

/// Checks that `html` shows each test of `files`, in order, with its verdict, states and
/// race flag; with `graphs`, a witness figure per state (an `<svg>` if Graphviz is
/// installed, the DOT source if not).
fn check_shows_every_test(html: &str, files: &[PathBuf], graphs: bool) {
    let secs = sections(html);
    assert_eq!(secs.len(), files.len(), "one section per test");
    for (sec, file) in secs.iter().zip(files) {
        let want = expected(file);
        let name = between(sec, "<span class=\"name\">", "</span>").expect("a name");
        assert_eq!(name, escape(&want.name), "{}", file.display());
        assert!(
            sec.contains(&format!("data-status=\"{}\"", want.verdict)),
            "{}: verdict {}",
            file.display(),
            want.verdict
        );
        let caption = between(sec, "<caption>", "</caption>").expect("a states table");
        let states = if want.states == 1 {
            "1 state".to_string()
        } else {
            format!("{} states", want.states)
        };
        assert_eq!(caption, states, "{}", file.display());
        let rows = between(sec, "<table class=\"states\">", "</table>")
            .expect("a states table")
            .matches("<tr class=")
            .count();
        assert_eq!(rows, want.states, "{}: state rows", file.display());
        let race = between(sec, "<dd class=\"race\">", "</dd>").expect("a race flag");
        assert_eq!(race.starts_with("yes"), want.racy, "{}", file.display());
        if !graphs {
            continue;
        }
        let figures = witness_part(sec);
        let witnesses = figures.matches("<figcaption>Witness of ").count();
        assert_eq!(
            witnesses,
            want.states.min(64),
            "{}: witnesses",
            file.display()
        );
        let drawn = if graphviz() {
            figures.matches("<svg").count()
        } else {
            figures.matches("<pre class=\"dot\">digraph").count()
        };
        assert_eq!(drawn, witnesses, "{}: drawings", file.display());
    }
}

#[test]
fn the_page_shows_every_test_of_a_directory_with_its_verdict_states_and_race_flag() {
    let out = tmp("mp.html");
    let (page, output) = report(&["--no-times", "litmus-tests/mp"], &out);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let files = files::litmus_files(&repo().join("litmus-tests/mp"));
    assert!(files.len() > 5);
    check_shows_every_test(&page, &files, true);
    // The summary table has a row per test, each linking to its section.
    let summary = between(&page, "<tbody>", "</tbody>").expect("the summary table");
    assert_eq!(summary.matches("<tr ").count(), files.len());
    for sec in sections(&page) {
        let id = between(sec, "id=\"", "\"").expect("an anchor");
        assert!(summary.contains(&format!("href=\"#{id}\"")), "{id}");
    }
    // Self-contained: nothing is fetched.
    for fetch in ["src=\"http", "href=\"http", "<link", "@import", "url("] {
        assert!(!page.contains(fetch), "{fetch}");
    }
}

/// The page of PTX tests: each judged by the PTX model (the verdicts, states and race
/// flags of `expected`, computed with the dialect's default model), a witness drawing per
/// state, drawn in PTX's levels (CTA, GPU), and the run line naming ptx for PTX tests.
#[test]
fn the_page_of_ptx_tests_shows_their_verdicts_states_and_drawings() {
    let out = tmp("ptx-mp.html");
    let (page, output) = report(&["--no-times", "litmus-tests/ptx/mp"], &out);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let files = files::litmus_files(&repo().join("litmus-tests/ptx/mp"));
    assert!(files.len() > 5);
    check_shows_every_test(&page, &files, true);
    assert!(page.contains("PTX tests: <code>ptx</code>"), "the run line");
    // The MP forbidden by Causality: its explanation names the check (hand: docs/ptx.md,
    // the test's header: fr Rx->Wx and cause_base Wx->Rx).
    assert!(
        page.contains("Causality-cofr"),
        "the explanation of MP-relacq-gpu"
    );
    // PTX's levels in the drawings (SVG text, or the DOT source without Graphviz).
    assert!(
        page.contains("CTA 1") && page.contains("GPU 0"),
        "PTX's levels drawn"
    );
}

#[test]
fn without_times_the_page_is_the_same_bytes_whatever_the_thread_count() {
    let (a, _) = report(
        &[
            "--no-times",
            "-j",
            "1",
            "litmus-tests/mp",
            "litmus-tests/iriw",
        ],
        &tmp("j1.html"),
    );
    let (b, _) = report(
        &[
            "--no-times",
            "-j",
            "2",
            "litmus-tests/mp",
            "litmus-tests/iriw",
        ],
        &tmp("j2.html"),
    );
    assert!(!a.is_empty());
    assert!(a == b, "the pages differ");
    assert!(!a.contains("time (s)"));
}

#[test]
fn a_file_with_an_error_is_an_entry_with_its_place_and_the_exit_code_is_2() {
    let dir = tmp("errors");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make a directory");
    // A name and a description with markup in them, and a file that does not parse.
    let good = std::fs::read_to_string(repo().join("litmus-tests/sb/SB.litmus"))
        .expect("read SB")
        .replacen("VULKAN SB", "VULKAN SB<&>", 1);
    std::fs::write(dir.join("a <b>.litmus"), good).expect("write");
    std::fs::write(
        dir.join("bad.litmus"),
        "VULKAN bad\n{ x = 0; }\n P0@sg 0, wg 0, qf 0 ;\n st.frob x, 1 ;\nexists (x=1)\n",
    )
    .expect("write");
    let (page, output) = report(&[dir.to_str().expect("UTF-8")], &tmp("errors.html"));
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.litmus:4:5"), "{stderr}");
    // The good test is there, escaped; the bad one shows its error at file:line:column.
    assert!(page.contains("<span class=\"name\">SB&lt;&amp;&gt;</span>"));
    assert!(page.contains("a &lt;b&gt;.litmus"));
    assert!(!page.contains("SB<&>") && !page.contains("a <b>"));
    let secs = sections(&page);
    assert_eq!(secs.len(), 2);
    let bad = secs[1];
    assert!(bad.contains("data-status=\"error\""));
    assert!(bad.contains("bad.litmus:4:5</code>"), "{bad}");
    assert!(bad.contains("unknown token `frob`"));
}

#[test]
fn khronos_test_files_show_their_checks() {
    let dir = tmp("khronos");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make a directory");
    // Khronos `mp.test`, and a third check that expects the opposite of the first.
    let test = "NEWWG\nNEWSG\nNEWTHREAD\nst.av.scopedev.sc0 x = 1\nst.atom.rel.scopewg.sc0.semsc0 y = 1\nNEWSG\nNEWTHREAD\nld.atom.acq.scopewg.sc0.semsc0 y = 1\nld.vis.scopedev.sc0 x\nSATISFIABLE consistent[X] && #dr=0\nNOSOLUTION consistent[X] && #dr>0\nNOSOLUTION consistent[X] && #dr=0\n";
    std::fs::write(dir.join("mp.test"), test).expect("write");
    let (page, output) = report(&[dir.to_str().expect("UTF-8")], &tmp("khronos.html"));
    // A failed check: exit code 1, as `vkherd khronos`.
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let secs = sections(&page);
    assert_eq!(secs.len(), 1);
    assert!(secs[0].contains("data-status=\"FAIL\""));
    let checks = between(secs[0], "<tbody>", "</tbody>").expect("a table of checks");
    let results: Vec<(&str, &str)> = checks
        .lines()
        .filter(|row| !row.is_empty())
        .map(|row| {
            let line = between(row, "<td class=\"num\">", "</td>").expect("a line");
            let result = row
                .trim_end_matches("</td></tr>")
                .rsplit("<td>")
                .next()
                .expect("a result");
            (line, result)
        })
        .collect();
    assert_eq!(results, [("10", "PASS"), ("11", "PASS"), ("12", "FAIL")]);
}

/// A headless browser on PATH, if any.
fn browser() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

#[test]
fn a_headless_browser_shows_every_test_of_the_corpus() {
    let Some(browser) = browser() else {
        eprintln!("skipped: no chromium (nor chromium-browser, google-chrome) on PATH; the page was not loaded in a browser");
        return;
    };
    let out = tmp("corpus.html");
    // The whole corpus without graphs (fast), a directory with them.
    let (_, output) = report(&["--no-graphs", "litmus-tests"], &out);
    // 5: the corpus holds a test whose every execution needs a path past --unroll
    // (bounded-empty, tests/bounded_empty.rs); the page is what this test checks.
    assert!(
        matches!(output.status.code(), Some(0 | 5)),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let dom = load(browser, &out);
    let files = files::litmus_files(&repo().join("litmus-tests"));
    assert!(files.len() > 200, "the corpus");
    check_shows_every_test(&dom, &files, false);
    // The script ran: it counts the rows it shows.
    let shown = format!("{} of {} shown", files.len(), files.len());
    assert!(dom.contains(&shown), "the page's script did not run");

    let out = tmp("fences.html");
    let (_, output) = report(&["litmus-tests/fences"], &out);
    assert_eq!(output.status.code(), Some(0));
    let dom = load(browser, &out);
    check_shows_every_test(
        &dom,
        &files::litmus_files(&repo().join("litmus-tests/fences")),
        true,
    );
}

/// The DOM `browser` builds from the page `file`, after its scripts ran.
fn load(browser: &str, file: &Path) -> String {
    use std::io::Read;
    let profile = tmp("chromium-profile");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            &format!("--user-data-dir={}", profile.display()),
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!("file://{}", file.display()))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run the browser");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let reader = std::thread::spawn(move || {
        let mut dom = Vec::new();
        let _ = stdout.read_to_end(&mut dom);
        dom
    });
    // A browser that hangs fails the test instead of holding CI.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while child.try_wait().expect("wait for the browser").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("{browser} did not finish within 120 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let dom = String::from_utf8_lossy(&reader.join().expect("the reader")).into_owned();
    assert!(dom.contains("</html>"), "no DOM from {browser}: {dom}");
    dom
}

#[test]
fn forbidden_states_the_condition_asks_about_are_explained_and_not_listed() {
    let out = tmp("explained.html");
    let (page, output) = report(
        &["--no-times", "litmus-tests/mp", "litmus-tests/coherence"],
        &out,
    );
    assert_eq!(output.status.code(), Some(0));
    let mut explained = 0;
    for sec in sections(&page) {
        let listed = listed_states(sec);
        let Some(part) = between(sec, "<ul class=\"forbidden\">", "</ul>") else {
            continue;
        };
        let text = between(sec, "<pre class=\"explanation\">", "</pre>").expect("a text");
        for item in part.split("<code class=\"state\">").skip(1) {
            explained += 1;
            // `1:r0=1; 1:r1=0;`: its values in column order are not a listed state, and
            // the text gives it a reason.
            let state = item.split("</code>").next().expect("a state");
            let values: Vec<String> = state
                .split(';')
                .filter_map(|kv| kv.split_once('=').map(|(_, v)| v.trim().to_string()))
                .collect();
            assert!(!listed.contains(&values), "{state} is forbidden and listed");
            assert!(
                text.contains(&format!("State {state} is forbidden")),
                "{state}: {text}"
            );
        }
        // A graph per reason.
        let reasons = text.matches("  Reason ").count();
        let graphs = between(
            sec,
            "<div class=\"explanations\">",
            "<h3>Witness executions",
        )
        .expect("the explanations")
        .matches("<figure>")
        .count();
        assert_eq!(graphs, reasons);
    }
    assert!(explained >= 5, "{explained} explanations");
    // MP-relacq-wg (litmus-tests/README.md: No): its condition's state is forbidden, and a
    // cycle of the model's `consistent` check says why.
    let mp = sections(&page)
        .into_iter()
        .find(|s| s.contains("<span class=\"name\">MP-relacq-wg</span>"))
        .expect("MP-relacq-wg");
    assert!(mp.contains("<li><code class=\"state\">1:r0=1; 1:r1=0;</code></li>"));
    assert!(
        mp.contains("check `consistent` fails") && mp.contains("a cycle of"),
        "{mp}"
    );
}

#[test]
fn without_graphviz_the_graphs_are_dot_source_with_a_visible_note() {
    // A PATH with no `dot` on it.
    let empty = tmp("empty-path");
    std::fs::create_dir_all(&empty).expect("make a directory");
    let out = tmp("no-dot.html");
    let output = crate::util::bin()
        .args([
            "report",
            "-o",
            out.to_str().expect("UTF-8"),
            "litmus-tests/sb/SB.litmus",
        ])
        .current_dir(repo())
        .env("PATH", &empty)
        .output()
        .expect("run vkherd");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let page = std::fs::read_to_string(&out).expect("the page");
    assert!(
        page.contains("<p class=\"note\" id=\"extras-note\">Graphviz (`dot`) was not installed")
    );
    let sec = sections(&page)[0];
    let figures = witness_part(sec);
    let witnesses = figures.matches("<figcaption>Witness of ").count();
    assert_eq!(witnesses, listed_states(sec).len());
    assert_eq!(
        figures
            .matches("<details><summary>DOT</summary><pre class=\"dot\">digraph")
            .count(),
        witnesses
    );
    assert!(!page.contains("<svg"));
}

#[test]
fn a_test_stopped_by_a_limit_is_partial_with_exit_code_3_and_no_graphs() {
    let (page, output) = report(
        &[
            "--max-candidates",
            "2",
            "litmus-tests/mp/MP-relacq-wg.litmus",
        ],
        &tmp("partial.html"),
    );
    // MP-relacq-wg is `exists` with verdict No: two candidates cannot settle it.
    assert_eq!(output.status.code(), Some(3));
    let sec = sections(&page)[0];
    assert!(sec.contains("data-status=\"partial\""));
    assert!(sec.contains("stopped at the limit of 2 candidates (--max-candidates)"));
    assert!(sec.contains("No graphs: the run was stopped by a limit"));
    assert!(!sec.contains("<figure>"));
    // Its verdict is open: the summary counts it apart, neither Ok nor No.
    let summary = between(&page, "<p id=\"summary-line\">", "</p>").expect("a summary line");
    assert!(summary.contains(": 0 Ok, 0 No, 1 open, "), "{summary}");
}

#[test]
fn show_adds_relations_to_the_witness_graphs_and_a_bad_name_is_exit_code_2() {
    // Without Graphviz the graphs are DOT source, which is easy to read.
    let empty = tmp("empty-path-show");
    std::fs::create_dir_all(&empty).expect("make a directory");
    let run = |show: &str, out: &str| {
        let out = tmp(out);
        let output = crate::util::bin()
            .args(["report", "--show", show, "-o", out.to_str().expect("UTF-8")])
            .arg("litmus-tests/mp/MP-relacq-wg.litmus")
            .current_dir(repo())
            .env("PATH", &empty)
            .output()
            .expect("run vkherd");
        let page = std::fs::read_to_string(&out).unwrap_or_default();
        (output, page)
    };
    let hb = "label=&quot;hb&quot;";
    let (output, page) = run("hb", "show-hb.html");
    assert_eq!(output.status.code(), Some(0));
    // MP-relacq-wg's witness of 1:r0=1; 1:r1=1; has hb edges (po at least).
    let sec = sections(&page)[0];
    assert!(witness_part(sec).contains(hb), "no hb edge drawn");
    let (_, plain) = run("po", "show-po.html");
    assert!(!witness_part(sections(&plain)[0]).contains(hb));
    let (output, page) = run("frob", "show-frob.html");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--show frob"));
    assert!(page.contains("No graphs: --show frob"));
}

#[test]
fn bad_arguments_are_exit_code_2_before_anything_runs() {
    let cases: [&[&str]; 3] = [
        &["report", "-o", "/nonexistent-dir/x.html", "litmus-tests/sb"],
        &["report", "-o", "x.html", "litmus-tests/no-such-dir"],
        &["report", "litmus-tests/sb"],
    ];
    let messages = [
        "error: cannot write /nonexistent-dir/x.html",
        "error: no such file or directory: litmus-tests/no-such-dir",
        "--output <FILE>",
    ];
    for (args, message) in cases.iter().zip(messages) {
        let output = vkherd(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    assert!(!repo().join("x.html").exists());
}

/// The counts of a summary, `17 tests in 17 files: ... bounded-empty`, from the text
/// summary line or the page's.
fn summary_counts(line: &str) -> &str {
    let line = line.strip_prefix("Summary: ").unwrap_or(line);
    let end = line.find("bounded-empty").expect("the counts") + "bounded-empty".len();
    &line[..end]
}

/// Every summary counts with one tally (issue 30): the text summary line and the page's
/// give the same counts. Under `--states-only` the race flag is not reported (the search
/// skips executions of settled states), so neither counts a test racy: both say
/// `? racy` (the text said 15 racy on litmus-tests/mp and the page 0). Without it, both
/// count the tests whose full run flags a data race.
#[test]
fn the_text_summary_and_the_page_count_alike_also_under_states_only() {
    let dir = "litmus-tests/mp";
    let racy = files::litmus_files(&repo().join(dir))
        .iter()
        .filter(|f| expected(f).racy)
        .count();
    assert!(racy > 0, "the directory has racy tests");
    for mode in [None, Some("--states-only")] {
        let mut args = vec!["-j", "1", dir];
        args.extend(mode);
        let out = vkherd(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            crate::util::text(&out.stderr)
        );
        let stdout = crate::util::text(&out.stdout);
        let line = stdout.lines().last().expect("a summary line");
        let mut report_args = vec!["--no-graphs", "--no-times"];
        report_args.extend(mode);
        report_args.push(dir);
        let (page, output) = report(&report_args, &tmp("states-only-summary.html"));
        assert_eq!(output.status.code(), Some(0));
        let page_line = between(&page, "<p id=\"summary-line\">", "</p>").expect("a summary");
        let counts = summary_counts(line);
        assert_eq!(counts, summary_counts(page_line), "{mode:?}");
        let racy_text = match mode {
            None => format!(", {racy} racy,"),
            Some(_) => ", ? racy,".to_string(),
        };
        assert!(counts.contains(&racy_text), "{mode:?}: {counts}");
    }
}
