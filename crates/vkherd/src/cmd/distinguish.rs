//! `vkherd distinguish A B`: the smallest programs of a bounded space on which two models
//! allow different final states, each with the state and why the other model forbids
//! it (docs/generate.md "distinguish").

use crate::args::DistinguishArgs;
use crate::cli::exit::ExitStatus;
use std::time::Duration;
use vkherd::explain::{explain, explanation_text, Target};
use vkherd::models::{translation_for, Compared};
use vkherd::translated::{self, Through};
use vkherd::Options;
use vkherd::RunConfig;
use vkherd_generate::alphabet::Alphabet;
use vkherd_generate::family::{Axis, Focus};
use vkherd_generate::search::{self, Limits, Outcome, SizeStats};
use vkherd_generate::space::{level_words, Bounds, EventKind, Space};
use vkherd_generate::{dialects, emit, family, GenDialect};
use vkherd_model::{Dialect, Translation};

/// The dialect whose bundled models `spec` names, if it names one.
fn dialect_of(spec: &str) -> Option<&'static Dialect> {
    let name = vkherd::models::ModelName::parse(spec);
    let bundled = name.bundled()?;
    (vkherd_dialects::ALL.iter().copied()).find(|d| d.models.iter().any(|m| m.name == bundled))
}

/// The programs' dialect: `--dialect`, else the dialect of both models when they are
/// bundled models of one, or the first's when its programs translate into the second's
/// (a mapping check), else the default.
fn programs_dialect(args: &DistinguishArgs) -> &'static Dialect {
    match (
        args.dialect,
        dialect_of(&args.model_a),
        dialect_of(&args.model_b),
    ) {
        (Some(d), _, _) => d,
        (None, Some(a), Some(b)) if a == b => a,
        (None, Some(a), Some(b)) if vkherd_dialects::translation(a, b).is_some() => a,
        _ => vkherd_dialects::ALL[0],
    }
}

/// The models a search compares: with a mapping check, the first (source) model runs
/// every execution (to know the program's races) and the second judges translations.
struct Pair {
    a: Compared,
    b_translated: Option<Through>,
    b: Compared,
}

impl Pair {
    fn new(
        mut a: Compared,
        b: Compared,
        dialect: &'static Dialect,
    ) -> Result<(Pair, Option<&'static Translation>), String> {
        let Some(t) = translation_for(&b.options.model.spec, dialect) else {
            return Ok((
                Pair {
                    a,
                    b_translated: None,
                    b,
                },
                None,
            ));
        };
        if translation_for(&a.options.model.spec, dialect).is_some() {
            return Err(format!(
                "error: {} is not for {} programs: a mapping check runs the first model on the programs and the second on their translation; expected a model for {} tests first",
                a.name, dialect.title, dialect.title
            ));
        }
        a.options.run.states_only = false;
        let through = Through {
            model: b.clone(),
            translation: t,
        };
        Ok((
            Pair {
                a,
                b_translated: Some(through),
                b,
            },
            Some(t),
        ))
    }

    fn b_model(&self) -> &dyn search::Model {
        match &self.b_translated {
            Some(t) => t,
            None => &self.b,
        }
    }
}

pub fn run(args: &DistinguishArgs) -> ExitStatus {
    args.threads.init_threads();
    let (a, b) = match (
        Compared::from_spec(&args.model_a),
        Compared::from_spec(&args.model_b),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{}", e.to_string().trim_end());
            return ExitStatus::BadInput;
        }
    };
    let pd = programs_dialect(args);
    let d = match dialects::for_dialect(pd) {
        Ok(d) => d,
        Err(e) => {
            eprint!("{}", e.render(""));
            return ExitStatus::BadInput;
        }
    };
    let (pair, mapping) = match Pair::new(a, b, pd) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitStatus::BadInput;
        }
    };
    let limits = Limits {
        max_programs: args.max_programs,
        timeout: (args.timeout > 0.0).then(|| Duration::from_secs_f64(args.timeout.min(1e9))),
        races: args.races,
        first_only: false,
        mapping: mapping.is_some(),
    };
    if let Some(cycle) = &args.cycle {
        return run_cycle(cycle, d, &pair, &limits, args);
    }
    let alphabet = match args.alphabet.apply(Alphabet::search_default(d)) {
        Ok(a) => a,
        Err(e) => {
            eprint!("{}", e.render(""));
            return ExitStatus::BadInput;
        }
    };
    let mut kinds = Vec::new();
    for k in &args.kinds {
        match EventKind::ALL.iter().find(|e| e.word() == k) {
            Some(e) => kinds.push(*e),
            None => {
                eprintln!(
                    "error: unknown event kind `{k}` in --kinds; expected r, w, rmw, fence or cbar"
                );
                return ExitStatus::BadInput;
            }
        }
    }
    if args.barriers {
        kinds.push(EventKind::Cbar);
    }
    kinds.sort();
    kinds.dedup();
    if args.invocations == 0 || args.events == 0 || args.locations == 0 {
        eprintln!("error: --invocations, --events and --locations must be at least 1");
        return ExitStatus::BadInput;
    }
    if args.invocations > 8 {
        eprintln!(
            "error: --invocations {} is past the search's limit of 8",
            args.invocations
        );
        return ExitStatus::BadInput;
    }
    let bounds = Bounds {
        threads: args.invocations,
        events: args.events,
        size: args.size.unwrap_or(args.invocations * args.events),
        locations: args.locations,
    };
    let space = Space::new(bounds, alphabet, &kinds);
    describe_space(&pair.a, &pair.b, &space, mapping);
    print_header();
    let outcome = search::search(&space, &pair.a, pair.b_model(), &limits, print_size);
    report(&outcome, &pair, args, false)
}

fn print_header() {
    outln!(
        "{:>6} {:>11} {:>12} {:>10} {:>14} {:>9}",
        "events",
        "invocations",
        "enumerated",
        "examined",
        "distinguishing",
        "seconds"
    );
}

fn print_size(s: &SizeStats) {
    outln!(
        "{:>6} {:>11} {:>12} {:>10} {:>14} {:>9.2}{}",
        s.events,
        s.threads,
        s.enumerated,
        s.examined,
        s.distinguishing,
        s.seconds,
        if s.complete { "" } else { " (partial)" }
    );
}

/// `--cycle`: the models on the variants of one cycle.
fn run_cycle(
    cycle: &str,
    d: &'static dyn GenDialect,
    pair: &Pair,
    limits: &Limits,
    args: &DistinguishArgs,
) -> ExitStatus {
    let (a, b) = (&pair.a, &pair.b);
    // A barrier cycle varies its barriers and placements unless --wide (docs/generate.md).
    let focus = if args.wide {
        Focus::All
    } else {
        Focus::Barriers
    };
    let fam = Axis::parse_list(&args.vary).and_then(|vary| {
        let alphabet = args.alphabet.apply(Alphabet::family_default(d))?;
        family::family_focused(cycle, d, &vary, &alphabet, args.max_variants, focus)
    });
    let fam = match fam {
        Ok(f) => f,
        Err(e) => {
            eprint!("{}", e.render(cycle));
            return ExitStatus::BadInput;
        }
    };
    let narrowed = !args.wide && family::has_barrier_edge(cycle, d);
    outln!(
        "Distinguishing {} and {} on the variants of {cycle} (vary {}{}): {} variants, {} tests up to renaming",
        a.name,
        b.name,
        args.vary.join(","),
        if narrowed {
            "; on the barriers and placements only, --wide for every item"
        } else {
            ""
        },
        fam.variants.len(),
        fam.tests.len()
    );
    print_header();
    let outcome = search::compare_all(&fam.tests, a, pair.b_model(), limits, print_size);
    report(&outcome, pair, args, true)
}

fn describe_space(a: &Compared, b: &Compared, space: &Space, mapping: Option<&Translation>) {
    let al = &space.alphabet;
    let d = al.dialect;
    let bo = space.bounds;
    if let Some(t) = mapping {
        outln!(
            "Checking the mapping of {} programs to {} ({}): a program {} runs race-free whose translation {} allows a state {} forbids",
            t.from, t.to, t.doc, a.name, b.name, a.name
        );
    }
    outln!(
        "Distinguishing {} and {} on {} programs: up to {} invocations, {} events each, {} events in all, {} locations",
        a.name,
        b.name,
        d.dialect().title,
        bo.threads,
        bo.events,
        bo.size.min(bo.threads * bo.events),
        bo.locations
    );
    outln!(
        "Alphabet: events {}; semantics {}; scopes {}; placements {} ({} event choices)",
        space
            .kinds
            .iter()
            .map(|k| k.word())
            .collect::<Vec<_>>()
            .join(","),
        al.sems
            .iter()
            .map(|s| s.word())
            .collect::<Vec<_>>()
            .join(","),
        al.scopes
            .iter()
            .map(|s| s.word(d))
            .collect::<Vec<_>>()
            .join(","),
        level_words(&al.levels, d),
        space.choices.len()
    );
}

fn report(outcome: &Outcome, pair: &Pair, args: &DistinguishArgs, cycle: bool) -> ExitStatus {
    let (a, b) = (&pair.a, &pair.b);
    let mapping = pair.b_translated.as_ref().map(|t| t.translation);
    let examined = outcome.examined();
    let racy: u64 = outcome.sizes.iter().map(|s| s.racy).sum();
    let vacuous: u64 = outcome.sizes.iter().map(|s| s.vacuous).sum();
    let rate = examined as f64 / outcome.seconds.max(1e-9);
    outln!(
        "Examined {examined} programs in {:.2} s ({rate:.0} programs/s){}",
        outcome.seconds,
        outcome.first_seconds.map_or(String::new(), |t| format!(
            "; first distinguishing program after {t:.2} s"
        ))
    );
    let errors: u64 = outcome.sizes.iter().map(|s| s.errors).sum();
    if let Some((text, message)) = &outcome.first_error {
        eprintln!(
            "warning: {errors} program(s) could not be run by a model and count as neither agreeing nor distinguishing; the first: {message}\n{text}"
        );
    }
    if let Some(why) = &outcome.stopped {
        outln!("Search {why}: minimality holds only for the complete sizes above.");
    }
    if mapping.is_some() {
        outln!(
            "Of these, {racy} have a data race under {} (undefined behaviour: any state of their translation is correct) and {vacuous} have no state {} allows (no consistent execution: no implementation matches them); neither was compared.",
            a.name, a.name
        );
    }
    if outcome.found.is_empty() {
        if outcome.stopped.is_none() && errors == 0 && mapping.is_some() {
            outln!(
                "The mapping is sound within these bounds: on none of the {} race-free programs examined does {} allow, on the translation, a state {} forbids.",
                examined - racy - vacuous,
                b.name,
                a.name
            );
            return ExitStatus::Ok;
        }
        if outcome.stopped.is_none() && errors == 0 {
            outln!(
                "No program of the space distinguishes {} and {}: they agree on all {examined} programs examined.",
                a.name, b.name
            );
            return ExitStatus::Ok;
        }
        // Nothing found, but not everything examined: not an answer (docs/generate.md).
        return ExitStatus::Partial;
    }
    let last = outcome.sizes.last().expect("a size was searched");
    if cycle {
        outln!(
            "{} of the cycle's tests distinguish the models:",
            outcome.found.len()
        );
    } else {
        outln!(
            "Every program of the space with fewer events, or as many and fewer invocations, was examined (counts above) and agreed: the {} program(s) below, with {} events and {} invocations, are minimal within these bounds.",
            outcome.found.len(),
            last.events,
            last.threads
        );
    }
    let mut files = Vec::new();
    for (k, f) in outcome.found.iter().enumerate() {
        let name = if cycle {
            f.test.name.clone()
        } else {
            search::test_name(&a.name, &b.name, k + 1)
        };
        let (allow, forbid) = if f.allowed_by == 0 { (a, b) } else { (b, a) };
        let mut test = f.test.clone();
        test.name = name.clone();
        let state = state_text(&test);
        test.description = format!(
            "distinguish: {state} is allowed by {}, forbidden by {} ({} state(s) only {} allows, {} only {} allows)",
            allow.name, forbid.name, f.only_a, a.name, f.only_b, b.name
        );
        if f.race_marks > 0 && f.only_a + f.only_b == 0 {
            test.description = format!(
                "distinguish: {state} is allowed race-free by {}, only racily by {}",
                allow.name, forbid.name
            );
        }
        let text = emit::text(&test);
        let why = explanation(&text, forbid);
        // A mapping check's test: which instruction became which, shown and written.
        let listing = match mapping {
            Some(_) => translation_lines(&text, b),
            None => Vec::new(),
        };
        if k < args.show {
            outln!();
            outln!(
                "== {}. {name}: {state} allowed by {}, forbidden by {}",
                k + 1,
                allow.name,
                forbid.name
            );
            outln!("{}", text.trim_end());
            for line in &listing {
                outln!("{line}");
            }
            outln!("Why {} forbids it:", forbid.name);
            for line in why.lines() {
                outln!("  {line}");
            }
        }
        files.push((
            format!("{}.litmus", vkherd_generate::index::file_stem(&name)),
            with_comments(
                &text,
                &[
                    format!(
                        "Allowed by {}, forbidden by {}.\n{why}",
                        allow.name, forbid.name
                    ),
                    listing.join("\n"),
                ],
            ),
        ));
    }
    if outcome.found.len() > args.show {
        outln!();
        outln!(
            "({} more not shown: --show N, or -o DIR to write them all)",
            outcome.found.len() - args.show
        );
    }
    if let Some(dir) = &args.output {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("error: cannot create {}: {e}", dir.display());
            return ExitStatus::BadInput;
        }
        for (file, text) in &files {
            let path = dir.join(file);
            if let Err(e) = std::fs::write(&path, text) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return ExitStatus::BadInput;
            }
        }
        outln!("Wrote {} tests into {}", files.len(), dir.display());
    }
    ExitStatus::Ok
}

/// `1:r0=1; 1:r1=0;`, the state a found test asks about (herd's spelling).
fn state_text(test: &vkherd_generate::test::Test) -> String {
    use vkherd_generate::test::{loc_name, Obs};
    test.exists
        .iter()
        .map(|&(o, v)| match o {
            Obs::Reg { thread, reg } => format!("{thread}:r{reg}={v};"),
            Obs::Loc(l) => format!("{}={v};", loc_name(l)),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why `model` forbids the state `text`'s condition asks about, in words.
fn explanation(text: &str, model: &Compared) -> String {
    let program = match vkherd::load_litmus(text) {
        Ok(p) => p,
        Err(d) => return format!("(no explanation: {})", d.message),
    };
    let opts = Options {
        run: RunConfig {
            states_only: false,
            ..model.options.run.clone()
        },
        ..model.options.clone()
    };
    match explain(&program, Some(text), &opts, &Target::Condition, &[]) {
        Ok(ex) => explanation_text(&ex),
        Err(e) => format!("(no explanation: {e})"),
    }
}

/// The listing of `text`'s translation for `model`.
fn translation_lines(text: &str, model: &Compared) -> Vec<String> {
    let listed = vkherd::load_litmus(text)
        .map_err(|d| d.message)
        .and_then(|p| {
            translated::for_model(&p, text, &model.options.model.spec)
                .map(|(_, l)| l)
                .map_err(|d| d.message)
        });
    match listed {
        Ok(Some(l)) => l.lines(&model.name),
        Ok(None) => Vec::new(),
        Err(m) => vec![format!("(no translation: {m})")],
    }
}

/// The test with comments after its description, one block each (`(* ... *)`, the
/// comment of every dialect's litmus files); an empty one is left out.
fn with_comments(text: &str, comments: &[String]) -> String {
    let mut lines = text.lines();
    let mut out = String::new();
    for l in lines.by_ref().take(2) {
        out.push_str(l);
        out.push('\n');
    }
    for comment in comments.iter().filter(|c| !c.trim().is_empty()) {
        let comment = comment.replace("*)", "* )").replace("(*", "( *");
        out.push_str(&format!("(* {} *)\n", comment.trim_end()));
    }
    for l in lines {
        out.push_str(l);
        out.push('\n');
    }
    out
}
