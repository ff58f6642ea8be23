//! The HTML reporter: one self-contained page for a run over files and directories
//! (`vkherd report`, docs/report.md). Inline CSS and a little inline JavaScript (sorting
//! and filtering the summary table); every result is in the static HTML, so the page
//! reads the same with scripts off. Same input, same bytes, unless times are asked for.

use crate::json::RunInfo;
use crate::khronos::CheckResult;
use crate::report::{herd_text, plural, quantifier_words};
use crate::{Report, Verdict};
use serde_json::Value;
use std::fmt::Write as _;

/// At most this many states are listed per test: a partial run of a big test can have
/// hundreds of thousands, which no browser shows usefully (`--json` has them all).
pub const MAX_STATES_SHOWN: usize = 1000;

/// Everything the page shows.
pub struct Page {
    /// The paths the run was given, as typed.
    pub inputs: Vec<String>,
    /// The run information every JSON object carries ([`crate::report::run_info`]).
    pub info: RunInfo,
    pub entries: Vec<Entry>,
    /// The wall-clock time of the whole run (`None`: times left out, `--no-times`).
    pub seconds: Option<f64>,
    /// A note on the witness graphs and explanations for the whole page (Graphviz
    /// missing, graphs turned off), shown at the top.
    pub extras_note: Option<String>,
    /// The tables of the `diy --all` families among the inputs (docs/generate.md).
    pub families: Vec<FamilyTable>,
}

/// A family of annotated variants (a directory with a `diy --all` index): its table of
/// verdicts, taken from the runs of its tests on the page.
pub struct FamilyTable {
    /// The directory, as shown.
    pub dir: String,
    pub cycle: String,
    /// The axes varied.
    pub vary: String,
    /// The table (a `<table>` fragment, [`crate::matrix::html`]).
    pub table: String,
    /// Counts of each verdict.
    pub summary: String,
}

/// One file of the run.
pub struct Entry {
    /// The path as shown (and as the anchor is made from).
    pub file: String,
    /// The file's text, when it could be read.
    pub source: Option<String>,
    pub result: EntryResult,
    /// This file's time (`None`: left out).
    pub seconds: Option<f64>,
    pub extras: Extras,
    /// The test run on a Vulkan device (`vkherd observe --html`): its histogram is shown
    /// beside the allowed states.
    pub observed: Option<crate::observed::ObservedTest>,
}

/// What running one file gave.
pub enum EntryResult {
    /// A `.litmus` test's report.
    Litmus(Box<Report>),
    /// A Khronos `.test` file's checks.
    Khronos {
        name: String,
        checks: Vec<CheckResult>,
    },
    /// The file could not be read, parsed, lowered or run.
    Error(FileError),
}

/// An error about a file, as the command line prints it.
pub struct FileError {
    /// `file:line:column`, or the file alone when the error is about the whole file.
    pub location: String,
    pub message: String,
    /// The full rendering: message, place, the line with a caret.
    pub rendered: String,
}

/// Witness graphs and explanations of one test: `Err` says why there are none.
pub struct Extras {
    /// A witness execution per final state.
    pub figures: Result<Vec<Figure>, String>,
    /// Witnesses not drawn (past a cap on figures per test).
    pub figures_left_out: usize,
    /// The states the condition asks about that are forbidden, explained.
    pub explanations: Result<Explained, String>,
}

impl Extras {
    /// No graphs and no explanations, for this reason.
    pub fn none(why: &str) -> Extras {
        Extras {
            figures: Err(why.to_string()),
            figures_left_out: 0,
            explanations: Err(why.to_string()),
        }
    }
}

/// One drawn execution.
pub struct Figure {
    pub caption: String,
    pub drawing: Drawing,
}

/// A graph as SVG (Graphviz was there) or as its DOT source.
pub enum Drawing {
    /// An `<svg ...>...</svg>` element, inlined as is.
    Svg(String),
    /// DOT source, shown folded, with why it was not drawn.
    Dot { dot: String, why: String },
}

/// The forbidden states the condition asks about, explained.
pub struct Explained {
    /// The forbidden states, `1:r0=1; 1:r1=0;` (none: every state asked about is allowed
    /// or, with `unreachable`, no candidate reaches one).
    pub states: Vec<String>,
    pub unreachable: bool,
    /// The explanation in plain words (`vkherd explain`'s text).
    pub text: String,
    /// Per reason, the first candidate with it, drawn with the relations it names.
    pub figures: Vec<Figure>,
}

pub use crate::escape::escape;

/// Anchors, one per entry: `t-` and the path with every character other than ASCII
/// letters, digits, `_`, `-` and `.` made `-`; `-2`, `-3`... when two paths give one.
pub fn anchors(entries: &[Entry]) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    entries
        .iter()
        .map(|e| {
            let base: String = e
                .file
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                        c
                    } else {
                        '-'
                    }
                })
                .collect();
            let base = format!("t-{base}");
            let mut id = base.clone();
            let mut k = 1;
            while !seen.insert(id.clone()) {
                k += 1;
                id = format!("{base}-{k}");
            }
            id
        })
        .collect()
}

/// The status of an entry in one word, also its CSS class and filter value: `Ok`, `No`,
/// `PASS`, `FAIL`, `partial`, `error`.
fn status_word(e: &Entry) -> &'static str {
    if let (EntryResult::Litmus(_), Some(t)) = (&e.result, &e.observed) {
        // An observe page: what the device did, not the model's verdict.
        return match crate::observed::ending(&t.rows, &t.observation) {
            crate::observed::Ending::Forbidden => "FORBIDDEN",
            crate::observed::Ending::Hung => "hung",
            crate::observed::Ending::Allowed => "allowed",
        };
    }
    match &e.result {
        EntryResult::Litmus(r) if r.stats.stopped.is_some() && !r.verdict_final() => "partial",
        EntryResult::Litmus(r) => match r.verdict {
            Verdict::Ok => "Ok",
            Verdict::No => "No",
        },
        EntryResult::Khronos { checks, .. } => {
            if checks.iter().any(|c| !c.partial && !c.passed()) {
                "FAIL"
            } else if checks.iter().any(|c| c.partial) {
                "partial"
            } else {
                "PASS"
            }
        }
        EntryResult::Error(_) => "error",
    }
}

fn css_class(word: &str) -> &'static str {
    match word {
        "Ok" | "PASS" | "allowed" => "v-ok",
        "No" => "v-no",
        "FAIL" | "error" | "FORBIDDEN" | "hung" => "v-bad",
        _ => "v-partial",
    }
}

/// The liveness verdict of an entry (`violation`, `ok`, `unknown`), if it was checked.
fn liveness_word(e: &Entry) -> Option<&'static str> {
    match &e.result {
        EntryResult::Litmus(r) => r.liveness.as_ref().map(|l| l.result.verdict.name()),
        _ => None,
    }
}

/// The name a test goes by: its own for a `.litmus` test, the file stem for a `.test` or
/// a file that failed.
fn test_name(e: &Entry) -> &str {
    match &e.result {
        EntryResult::Litmus(r) => &r.header.name,
        EntryResult::Khronos { name, .. } => name,
        EntryResult::Error(_) => std::path::Path::new(&e.file)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(&e.file),
    }
}

/// `OpenCL tests: <code>opencl</code>`: the model each dialect but the default one is
/// judged by when no model is given.
fn other_dialects_models() -> String {
    (vkherd_dialects::ALL.iter().skip(1))
        .map(|d| format!("{} tests: <code>{}</code>", d.title, d.default_model().name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn dialect_word(e: &Entry) -> &'static str {
    match &e.result {
        EntryResult::Litmus(r) => r.header.dialect.map_or("", |d| d.title),
        EntryResult::Khronos { .. } => "Khronos",
        EntryResult::Error(_) => "",
    }
}

/// Counts for the summary at the top: the reports' (the one [`crate::tally::Tally`]
/// every summary uses), the Khronos checks' and the errors.
#[derive(Default)]
struct Counts {
    reports: crate::tally::Tally,
    khronos: u64,
    checks_passed: u64,
    checks_failed: u64,
    checks_partial: u64,
    errors: u64,
    /// `observe`: tests with a forbidden state observed, and tests that hung.
    observed: u64,
    forbidden_observed: u64,
    hung: u64,
}

fn tally(entries: &[Entry]) -> Counts {
    let mut t = Counts::default();
    for e in entries {
        match &e.result {
            EntryResult::Litmus(r) => {
                t.reports.count(r);
                if e.observed.is_some() {
                    t.observed += 1;
                    match status_word(e) {
                        "FORBIDDEN" => t.forbidden_observed += 1,
                        "hung" => t.hung += 1,
                        _ => {}
                    }
                }
            }
            EntryResult::Khronos { checks, .. } => {
                t.khronos += 1;
                for c in checks {
                    if c.partial {
                        t.checks_partial += 1;
                    } else if c.passed() {
                        t.checks_passed += 1;
                    } else {
                        t.checks_failed += 1;
                    }
                }
            }
            EntryResult::Error(_) => t.errors += 1,
        }
    }
    t
}

/// The whole page.
pub fn html(page: &Page) -> String {
    let mut out = String::new();
    let title = format!("vkherd report: {}", page.inputs.join(", "));
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    push_run_info(&mut out, page);
    if let Some(note) = &page.extras_note {
        let _ = writeln!(
            out,
            "<p class=\"note\" id=\"extras-note\">{}</p>",
            escape(note)
        );
    }
    out.push_str("</header>\n<main>\n");
    let ids = anchors(&page.entries);
    push_summary(&mut out, page, &ids);
    push_families(&mut out, page);
    for (entry, id) in page.entries.iter().zip(&ids) {
        push_entry(&mut out, entry, id);
    }
    let _ = write!(
        out,
        "</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    out
}

fn push_families(out: &mut String, page: &Page) {
    if page.families.is_empty() {
        return;
    }
    out.push_str("<section id=\"families\">\n<h2>Families</h2>\n");
    let _ = writeln!(out, "<p>{}</p>", escape(crate::matrix::LEGEND));
    for f in &page.families {
        let _ = writeln!(
            out,
            "<h3><code>{}</code>: <code>{}</code>, varying {}</h3>\n{}<p>{}</p>",
            escape(&f.dir),
            escape(&f.cycle),
            escape(&f.vary),
            f.table,
            escape(&f.summary)
        );
    }
    out.push_str("</section>\n");
}

fn push_run_info(out: &mut String, page: &Page) {
    let info = &page.info;
    let variants = if info.variants.is_empty() {
        "none".to_string()
    } else {
        info.variants.join(", ")
    };
    // Numbers as the JSON writes them (`3600.0`).
    let candidates = info
        .limits
        .max_candidates
        .map(|n| format!("{n} candidates"));
    let seconds = info
        .limits
        .timeout_seconds
        .map(|t| format!("{} s per test", Value::from(t)));
    let limits = match (candidates, seconds) {
        (None, None) => "none".to_string(),
        (Some(c), None) => format!("{c}, no time limit"),
        (None, Some(t)) => format!("no candidate limit, {t}"),
        (Some(c), Some(t)) => format!("{c}, {t}"),
    };
    let _ = writeln!(
        out,
        "<p class=\"run-info\">vkherd {} · model <code>{}</code> ({} unless a model was given) · variants: {} · unroll {} · limits: {}{}</p>",
        escape(&info.vkherd),
        escape(&info.model),
        other_dialects_models(),
        escape(&variants),
        info.unroll,
        escape(&limits),
        match (info.no_thin_air, info.naive) {
            (true, _) => " · thin-air executions left out",
            (_, true) => " · naive enumeration",
            _ => "",
        }
    );
}

fn push_summary(out: &mut String, page: &Page, ids: &[String]) {
    let t = tally(&page.entries);
    let files = page.entries.len() as u64;
    let mut line = format!(
        "{} in {}",
        plural(t.reports.tests + t.khronos, "test"),
        plural(files, "file")
    );
    let observe_page = t.observed > 0;
    if observe_page {
        let _ = write!(
            line,
            ": {} observed, {} with a forbidden state observed, {} hung (no instance finished)",
            t.observed, t.forbidden_observed, t.hung
        );
    } else if t.reports.tests > 0 {
        let _ = write!(line, ": {}", t.reports.verdicts());
    }
    if let Some((violations, unknown, ok)) = t.reports.liveness {
        let _ = write!(
            line,
            "; liveness: {}, {unknown} unknown, {ok} ok",
            plural(violations, "violation"),
        );
    }
    if t.khronos > 0 {
        let _ = write!(
            line,
            "; Khronos checks: {} passed, {} failed, {} stopped by a limit",
            t.checks_passed, t.checks_failed, t.checks_partial
        );
    }
    let _ = write!(line, "; {}", plural(t.errors, "error"));
    if let Some(s) = page.seconds {
        let _ = write!(line, "; {s:.2} s");
    }
    let _ = writeln!(
        out,
        "<section id=\"summary\">\n<h2>Summary</h2>\n<p id=\"summary-line\">{}</p>",
        escape(&line)
    );
    let options = if observe_page {
        "<option>allowed</option><option>FORBIDDEN</option><option>hung</option><option>error</option>"
    } else {
        "<option>Ok</option><option>No</option><option>PASS</option><option>FAIL</option><option>partial</option><option>error</option><option value=\"racy\">racy</option>"
    };
    let live_options = if t.reports.liveness.is_some() {
        "<option value=\"violation\">liveness violation</option><option value=\"liveness-unknown\">liveness unknown</option><option value=\"liveness-ok\">liveness ok</option>"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "<p class=\"controls\"><label>Filter <input id=\"filter\" type=\"search\" placeholder=\"name, file, condition...\"></label> <label>Status <select id=\"status-filter\"><option value=\"\">all</option>{options}{live_options}</select></label> <span id=\"shown\"></span> <span class=\"hint\">(click a column to sort)</span></p>",
    );
    let time_head = if page.seconds.is_some() {
        "<th data-type=\"num\">time (s)</th>"
    } else {
        ""
    };
    // An observe page's model runs list states only (no race flag): its columns say
    // what the device did instead.
    let (status_head, last_heads) = if observe_page {
        (
            "observed",
            "<th data-type=\"num\">states observed</th><th data-type=\"num\">never finished</th>",
        )
    } else {
        ("status", "<th>race</th>")
    };
    let live_head = if t.reports.liveness.is_some() {
        "<th>liveness</th>"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "<table id=\"tests\" class=\"sortable\">\n<thead><tr><th data-type=\"num\">#</th><th>test</th><th>file</th><th>dialect</th><th>condition</th><th>{status_head}</th><th data-type=\"num\">states</th>{last_heads}{live_head}{time_head}</tr></thead>\n<tbody>"
    );
    for (k, (e, id)) in page.entries.iter().zip(ids).enumerate() {
        let word = status_word(e);
        let live = liveness_word(e);
        let (condition, states, race) = match &e.result {
            EntryResult::Litmus(r) => {
                let (_, quant) = quantifier_words(r);
                let cond = match &r.header.condition {
                    Some(c) => format!("{quant} {}", c.text),
                    None => "none".to_string(),
                };
                let states = if r.states_absent {
                    "?".to_string()
                } else {
                    r.outcomes.states.len().to_string()
                };
                let race = if r.counts_absent {
                    "?"
                } else if r.outcomes.data_race() {
                    "racy"
                } else if r.outcomes.other_flags() {
                    "flagged"
                } else {
                    ""
                };
                (cond, states, race)
            }
            EntryResult::Khronos { checks, .. } => {
                (plural(checks.len() as u64, "check"), String::new(), "")
            }
            EntryResult::Error(err) => (err.message.clone(), String::new(), ""),
        };
        let time = match (page.seconds, e.seconds) {
            (None, _) => String::new(),
            (Some(_), Some(s)) => format!("<td class=\"num\">{s:.3}</td>"),
            (Some(_), None) => "<td></td>".to_string(),
        };
        let last = match (&e.observed, observe_page) {
            (Some(t), _) => format!(
                "<td class=\"num\">{}</td><td class=\"num\">{}</td>",
                t.rows.iter().filter(|r| r.observed > 0).count(),
                t.observation.unfinished
            ),
            (None, true) => "<td></td><td></td>".to_string(),
            (None, false) => format!("<td>{race}</td>"),
        };
        let (live_cell, live_status) = match (t.reports.liveness.is_some(), live) {
            (false, _) => (String::new(), String::new()),
            (true, None) => ("<td></td>".to_string(), String::new()),
            (true, Some(v)) => (
                format!("<td class=\"liveness-{v}\">{v}</td>"),
                if v == "violation" {
                    " violation".to_string()
                } else {
                    format!(" liveness-{v}")
                },
            ),
        };
        let _ = writeln!(
            out,
            "<tr class=\"{cls}\" data-target=\"{id}\" data-status=\"{word}{racy}{live_status}\"><td class=\"num\">{n}</td><td><a href=\"#{id}\">{name}</a></td><td class=\"file\">{file}</td><td>{dialect}</td><td class=\"cond\">{cond}</td><td class=\"status\">{word}</td><td class=\"num\">{states}</td>{last}{live_cell}{time}</tr>",
            cls = css_class(word),
            racy = if race == "racy" { " racy" } else { "" },
            n = k + 1,
            name = escape(test_name(e)),
            file = escape(&e.file),
            dialect = dialect_word(e),
            cond = escape(&condition),
            states = escape(&states),
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

fn push_entry(out: &mut String, e: &Entry, id: &str) {
    let word = status_word(e);
    let _ = writeln!(
        out,
        "<section class=\"test {cls}\" id=\"{id}\" data-status=\"{word}\">\n<h2><a class=\"anchor\" href=\"#{id}\">#</a> <span class=\"name\">{name}</span> <span class=\"badge {cls}\">{word}</span></h2>\n<p class=\"file\">{file}{time}</p>",
        cls = css_class(word),
        name = escape(test_name(e)),
        file = escape(&e.file),
        time = e
            .seconds
            .map(|s| format!(" · {s:.3} s"))
            .unwrap_or_default(),
    );
    match &e.result {
        EntryResult::Litmus(r) => {
            if let Some(t) = &e.observed {
                push_observed(out, r, t);
            }
            push_litmus(out, r, &e.extras)
        }
        EntryResult::Khronos { checks, .. } => push_khronos(out, checks),
        EntryResult::Error(err) => {
            let _ = writeln!(
                out,
                "<div class=\"error\"><p><strong>error</strong> at <code class=\"location\">{}</code>: {}</p>\n<pre>{}</pre></div>",
                escape(&err.location),
                escape(&err.message),
                escape(err.rendered.trim_end())
            );
        }
    }
    if let Some(source) = &e.source {
        let _ = writeln!(
            out,
            "<details class=\"source\"><summary>Source</summary><pre>{}</pre></details>",
            escape(source.trim_end())
        );
    }
    out.push_str("<p class=\"top\"><a href=\"#summary\">back to the summary</a></p>\n</section>\n");
}

fn push_litmus(out: &mut String, r: &Report, extras: &Extras) {
    let o = &r.outcomes;
    let (kind, quant) = quantifier_words(r);
    if !r.header.description.trim().is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"description\">{}</p>",
            escape(r.header.description.trim())
        );
    }
    let condition = match &r.header.condition {
        Some(c) => format!("{quant} {}", c.text),
        None => "none (every state is listed)".to_string(),
    };
    let count = |n: u64| {
        if r.counts_absent {
            "?".to_string()
        } else {
            n.to_string()
        }
    };
    let race = if r.counts_absent {
        "not known (counts not computed)"
    } else if o.data_race() {
        "yes: some execution has a data race"
    } else {
        "no"
    };
    // A model's other flags, by name (absent for the bundled models, whose one flag is
    // the data race).
    let flags = match r.counts_absent || !o.other_flags() {
        true => String::new(),
        false => {
            let names: Vec<&str> = o.flags.iter().map(|f| f.name()).collect();
            format!(
                "<dt>flags</dt><dd class=\"flags\">{}</dd>",
                escape(&names.join(", "))
            )
        }
    };
    let _ = writeln!(
        out,
        "<dl class=\"facts\"><dt>condition</dt><dd><code>{}</code> ({kind})</dd><dt>verdict</dt><dd class=\"verdict\">{}</dd><dt>witnesses</dt><dd>positive {}, negative {}</dd><dt>data race</dt><dd class=\"race\">{race}</dd>{flags}<dt>candidates</dt><dd>{} examined, {} consistent</dd></dl>",
        escape(&condition),
        match r.verdict {
            Verdict::Ok => "Ok",
            Verdict::No => "No",
        },
        count(o.positive),
        count(o.negative),
        r.stats.candidates,
        o.consistent,
    );
    if let Some(l) = &r.liveness {
        let _ = writeln!(
            out,
            "<pre class=\"liveness\">{}</pre>",
            escape(l.text.trim_end())
        );
    }
    if !r.notes.is_empty() {
        out.push_str("<ul class=\"notes\">\n");
        for n in &r.notes {
            let _ = writeln!(out, "<li>{}</li>", escape(n));
        }
        out.push_str("</ul>\n");
    }
    push_states(out, r);
    push_explanations(out, extras);
    push_figures(out, extras);
    let _ = writeln!(
        out,
        "<details class=\"herd\"><summary>herd7-style output</summary><pre>{}</pre></details>",
        escape(herd_text(r).trim_end())
    );
}

fn push_states(out: &mut String, r: &Report) {
    let o = &r.outcomes;
    if r.states_absent {
        out.push_str("<p class=\"states-absent\">States not listed (--speedcheck fast stops at the first witness).</p>\n");
        return;
    }
    let names = &r.header.columns;
    let _ = writeln!(
        out,
        "<table class=\"states\">\n<caption>{}</caption>\n<thead><tr>",
        escape(&plural(o.states.len() as u64, "state"))
    );
    for n in names {
        let _ = write!(out, "<th>{}</th>", escape(n));
    }
    out.push_str("<th>executions</th><th>condition</th><th>marks</th></tr></thead>\n<tbody>\n");
    for (values, info) in o.states.iter().take(MAX_STATES_SHOWN) {
        // The text's marks, without their `# `: racy, flagged, thin-air.
        let marks: Vec<&str> = (crate::report::marks(info).into_iter())
            .filter(|(_, on)| *on)
            .map(|(mark, _)| mark.trim_start_matches("# "))
            .collect();
        let _ = write!(
            out,
            "<tr class=\"{}\">",
            if info.satisfies { "sat" } else { "unsat" }
        );
        for v in values {
            let _ = write!(out, "<td class=\"num\">{v}</td>");
        }
        let _ = writeln!(
            out,
            "<td class=\"num\">{}</td><td>{}</td><td class=\"marks\">{}</td></tr>",
            if r.counts_absent {
                "?".to_string()
            } else {
                info.count.to_string()
            },
            if info.satisfies { "satisfies" } else { "" },
            marks.join(" ")
        );
    }
    out.push_str("</tbody>\n</table>\n");
    if o.states.len() > MAX_STATES_SHOWN {
        let _ = writeln!(
            out,
            "<p class=\"note\">{} more states not shown; `vkherd --json` lists them all.</p>",
            o.states.len() - MAX_STATES_SHOWN
        );
    }
}

/// The device's histogram beside the model's allowed states: one row per state either
/// has, forbidden observations marked.
fn push_observed(out: &mut String, r: &Report, t: &crate::observed::ObservedTest) {
    use crate::observed;
    let o = &t.observation;
    let rows = &t.rows;
    let (states, count) = observed::forbidden(rows);
    let _ = writeln!(
        out,
        "<div class=\"observed\">\n<h3>Observed on {}</h3>\n<p>{}, {}, {:.2} s, seed {}{}</p>",
        escape(&observed::device_text(&t.device)),
        escape(&plural(o.iterations, "iteration")),
        escape(&plural(o.instances, "instance")),
        o.seconds,
        t.params.seed,
        if t.no_chains_forced {
            "; the device has no availability/visibility chains: the model ran without them"
        } else {
            ""
        }
    );
    if states > 0 {
        let _ = writeln!(
            out,
            "<p class=\"forbidden-observed v-bad\"><strong>FORBIDDEN</strong>: {} the model forbids observed {}.</p>",
            escape(&plural(states as u64, "state")),
            escape(&plural(count, "time"))
        );
    }
    out.push_str("<table class=\"states observed-states\">\n<thead><tr>");
    for n in &r.header.columns {
        let _ = write!(out, "<th>{}</th>", escape(n));
    }
    out.push_str("<th>model</th><th>observed</th><th>beyond --unroll</th></tr></thead>\n<tbody>\n");
    for row in rows.iter().take(MAX_STATES_SHOWN) {
        let (class, word) = match (row.allowed, row.observed > 0) {
            (true, true) => ("allowed seen", "allowed"),
            (true, false) => ("allowed unseen", "allowed, never observed"),
            (false, true) => ("forbidden v-bad", "FORBIDDEN"),
            (false, false) => ("not-judged", "not judged"),
        };
        let _ = write!(out, "<tr class=\"{class}\">");
        for v in &row.values {
            let _ = write!(out, "<td class=\"num\">{v}</td>");
        }
        let _ = writeln!(
            out,
            "<td>{word}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            row.observed, row.beyond
        );
    }
    out.push_str("</tbody>\n</table>\n");
    let mut dropped = observed::dropped_text(o);
    dropped.extend(observed::hang_text(r, o, t.params.max_steps));
    if !dropped.is_empty() {
        out.push_str("<ul class=\"notes\">\n");
        for d in dropped {
            let _ = writeln!(out, "<li>{}</li>", escape(&d));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</div>\n");
}

fn push_explanations(out: &mut String, extras: &Extras) {
    out.push_str(
        "<div class=\"explanations\">\n<h3>Forbidden states the condition asks about</h3>\n",
    );
    match &extras.explanations {
        Err(why) => {
            let _ = writeln!(
                out,
                "<p class=\"placeholder\">No explanation: {}</p>",
                escape(why)
            );
        }
        Ok(x) if x.states.is_empty() => {
            let _ = writeln!(
                out,
                "<p>None: {}.</p>",
                if x.unreachable {
                    "no candidate execution reaches a state the condition asks about (its values cannot be produced)"
                } else {
                    "every state the condition asks about is allowed"
                }
            );
        }
        Ok(x) => {
            out.push_str("<ul class=\"forbidden\">");
            for st in &x.states {
                let _ = write!(out, "<li><code class=\"state\">{}</code></li>", escape(st));
            }
            let _ = writeln!(
                out,
                "</ul>\n<pre class=\"explanation\">{}</pre>",
                escape(x.text.trim_end())
            );
            if !x.figures.is_empty() {
                out.push_str("<div class=\"figure-list\">\n");
                for f in &x.figures {
                    push_figure(out, f);
                }
                out.push_str("</div>\n");
            }
        }
    }
    out.push_str("</div>\n");
}

fn push_figures(out: &mut String, extras: &Extras) {
    out.push_str("<div class=\"figures\">\n<h3>Witness executions</h3>\n");
    match &extras.figures {
        Err(why) => {
            let _ = writeln!(
                out,
                "<p class=\"placeholder\">No graphs: {}</p>",
                escape(why)
            );
        }
        Ok(list) if list.is_empty() => out.push_str("<p>No execution to draw.</p>\n"),
        Ok(list) => {
            out.push_str("<div class=\"figure-list\">\n");
            for f in list {
                push_figure(out, f);
            }
            out.push_str("</div>\n");
            if extras.figures_left_out > 0 {
                let _ = writeln!(
                    out,
                    "<p class=\"note\">{} more not drawn; <code>vkherd explain</code> draws any state's witness.</p>",
                    extras.figures_left_out
                );
            }
        }
    }
    out.push_str("</div>\n");
}

fn push_figure(out: &mut String, f: &Figure) {
    let _ = write!(
        out,
        "<figure><figcaption>{}</figcaption>",
        escape(&f.caption)
    );
    match &f.drawing {
        Drawing::Svg(svg) => out.push_str(svg.trim()),
        Drawing::Dot { dot, why } => {
            let _ = write!(
                out,
                "<p class=\"note\">Not drawn: {}. The graph as DOT source:</p><details><summary>DOT</summary><pre class=\"dot\">{}</pre></details>",
                escape(why),
                escape(dot.trim_end())
            );
        }
    }
    out.push_str("</figure>\n");
}

fn push_khronos(out: &mut String, checks: &[CheckResult]) {
    let word = |s: bool| if s { "SATISFIABLE" } else { "NOSOLUTION" };
    out.push_str("<table class=\"checks\">\n<thead><tr><th>line</th><th>predicate</th><th>expected</th><th>got</th><th>result</th></tr></thead>\n<tbody>\n");
    for c in checks {
        let result = if c.partial {
            "PARTIAL"
        } else if c.passed() {
            "PASS"
        } else {
            "FAIL"
        };
        let _ = writeln!(
            out,
            "<tr class=\"{}\"><td class=\"num\">{}</td><td><code>{}{}</code></td><td>{}</td><td>{}</td><td>{result}</td></tr>",
            css_class(if c.partial { "partial" } else { result }),
            c.line,
            if c.nochains { "NOCHAINS " } else { "" },
            escape(&c.predicate),
            word(c.expected_satisfiable),
            if c.partial { "UNKNOWN" } else { word(c.satisfiable) },
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// The page's style sheet, inlined.
const STYLE: &str = include_str!("html/page.css");

/// The page's script (sorting and filtering the summary table), inlined.
const SCRIPT: &str = include_str!("html/page.js");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(
            escape(r#"<a href="x">&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
    }

    fn error_entry(file: &str) -> Entry {
        Entry {
            file: file.to_string(),
            source: None,
            result: EntryResult::Error(FileError {
                location: file.to_string(),
                message: "m".into(),
                rendered: "m".into(),
            }),
            seconds: None,
            extras: Extras::none(""),
            observed: None,
        }
    }

    /// A page of the liveness corpus run with `--progress obe`: its entries.
    fn corpus_entries(dir: &str, opts: &crate::Options) -> Vec<Entry> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../litmus-tests/");
        let mut files: Vec<_> = std::fs::read_dir(format!("{root}{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "litmus"))
            .collect();
        files.sort();
        files
            .iter()
            .map(|f| {
                let source = std::fs::read_to_string(f).unwrap();
                let program = crate::load_litmus(&source).unwrap();
                let report = crate::run_with_source(&program, Some(&source), opts).unwrap();
                Entry {
                    file: f.display().to_string(),
                    source: None,
                    result: EntryResult::Litmus(Box::new(report)),
                    seconds: None,
                    extras: Extras::none(""),
                    observed: None,
                }
            })
            .collect()
    }

    fn page(entries: Vec<Entry>, info: RunInfo) -> Page {
        Page {
            inputs: vec!["in".into()],
            info,
            entries,
            seconds: None,
            extras_note: None,
            families: Vec::new(),
        }
    }

    /// `report --liveness`: the liveness verdict of each test is a column of the summary
    /// table (sortable: every column is), a filter value, and counted in the summary line
    /// (issue 33: the page showed "Ok" everywhere and no count of violations).
    #[test]
    fn a_liveness_run_shows_the_verdicts_in_the_table_the_filter_and_the_counts() {
        let opts = crate::Options {
            liveness: Some(crate::liveness::Progress::parse("obe").unwrap()),
            ..crate::Options::default()
        };
        let entries = corpus_entries("liveness", &opts);
        let count = |v: &str| {
            entries
                .iter()
                .filter(|e| liveness_word(e) == Some(v))
                .count()
        };
        let (violations, unknown, ok) = (count("violation"), count("unknown"), count("ok"));
        assert!(violations > 0 && unknown > 0 && ok > 0);
        let text = html(&page(entries, crate::report::run_info(&opts)));
        assert!(
            text.contains(&format!(
                "; liveness: {violations} violations, {unknown} unknown, {ok} ok"
            )),
            "{text}"
        );
        assert!(
            text.contains("<th>race</th><th>liveness</th></tr>"),
            "{text}"
        );
        assert_eq!(
            text.matches("<td class=\"liveness-violation\">violation</td>")
                .count(),
            violations
        );
        assert_eq!(
            text.matches(" violation\"><td class=\"num\">").count(),
            violations
        );
        assert!(text.contains("<option value=\"violation\">liveness violation</option>"));
        // Without --liveness, none of it.
        let plain = corpus_entries("liveness", &crate::Options::default());
        let text = html(&page(
            plain,
            crate::report::run_info(&crate::Options::default()),
        ));
        assert!(!text.contains("<th>liveness</th>"), "{text}");
        assert!(!text.contains("; liveness:"), "{text}");
        assert!(!text.contains("liveness violation"), "{text}");
    }

    /// `observe --html`: the status column says what the device did (issue 33: it showed
    /// the model's verdict), no race column of `?`, and limits read as words ("limits:
    /// none candidates, none s" before).
    #[test]
    fn an_observe_page_says_what_was_observed() {
        use crate::observed::{rows, ObservedTest};
        use vkherd_observe::{DeviceInfo, Observation, Params};
        let opts = crate::Options {
            run: crate::RunConfig {
                states_only: true,
                ..crate::RunConfig::default()
            },
            liveness: Some(crate::liveness::Progress::parse("obe").unwrap()),
            ..crate::Options::default()
        };
        let mut entries = corpus_entries("liveness", &opts);
        entries.truncate(2);
        let device = DeviceInfo {
            index: 0,
            name: "dev".into(),
            api_version: "1.3".into(),
            kind: "CPU",
            driver: "d".into(),
            subgroup_size: 8,
            max_workgroup_size: 256,
            features: Default::default(),
            unfit: None,
        };
        for (k, e) in entries.iter_mut().enumerate() {
            let EntryResult::Litmus(r) = &e.result else {
                unreachable!()
            };
            let source = std::fs::read_to_string(&e.file).unwrap();
            let program = crate::load_litmus(&source).unwrap();
            // The first test hung everywhere; the second ended in its allowed states.
            let mut observation = Observation {
                instances: 64,
                iterations: 1,
                ..Observation::default()
            };
            if k == 0 {
                observation.unfinished = 64;
            } else {
                for s in r.outcomes.states.keys() {
                    observation.within.insert(s.clone(), 1);
                }
            }
            e.observed = Some(ObservedTest {
                rows: rows(&program, r, &observation),
                device: device.clone(),
                params: Params::default(),
                observation,
                no_chains_forced: false,
            });
        }
        let text = html(&page(entries, crate::report::run_info(&opts)));
        assert!(text.contains("<th>observed</th><th data-type=\"num\">states</th><th data-type=\"num\">states observed</th><th data-type=\"num\">never finished</th>"), "{text}");
        assert!(!text.contains("<th>race</th>"), "{text}");
        assert!(text.contains("<td class=\"status\">hung</td>"), "{text}");
        assert!(text.contains("<td class=\"status\">allowed</td>"), "{text}");
        assert!(!text.contains("<td class=\"status\">Ok</td>"), "{text}");
        assert!(text.contains("<td class=\"num\">64</td>"), "{text}");
        assert!(
            text.contains("2 observed, 0 with a forbidden state observed, 1 hung"),
            "{text}"
        );
        assert!(
            text.contains("Hang: 64 of 64 instances never finished"),
            "{text}"
        );
        assert!(text.contains(" · limits: none</p>"), "{text}");
        assert!(!text.contains("none candidates"), "{text}");
    }

    #[test]
    fn anchors_are_safe_and_unique() {
        let entries = [
            error_entry("a/b c.litmus"),
            error_entry("a/b-c.litmus"),
            error_entry("<x>"),
        ];
        assert_eq!(
            anchors(&entries),
            ["t-a-b-c.litmus", "t-a-b-c.litmus-2", "t--x-"]
        );
    }
}
