//! Edges of the command line where an answer could be wrong, lost or silent (issue 21):
//! graphs every Graphviz reads (item 8), herd7's options and unknown relation names
//! (item 9), and one rule for a model and a dialect that do not match (item 10).

use crate::files::corpus_files;
use crate::util::{corpus, dot_installed, fresh_dir as dir, render, text, vkherd};
use std::process::Output;

// ---- Item 8: graphs every Graphviz reads ----

/// One graph per stream: `digraph NAME {`, balanced braces, `}` at the end.
fn check_one_graph(dot: &str) -> Result<(), String> {
    if !dot.starts_with("digraph ") || !dot.ends_with("\n}\n") {
        return Err("not one `digraph NAME { ... }`".into());
    }
    if dot.matches("digraph").count() != 1 {
        return Err(format!("{} digraphs", dot.matches("digraph").count()));
    }
    if dot.matches('{').count() != dot.matches('}').count() {
        return Err("unbalanced braces".into());
    }
    Ok(())
}

/// The columns of each figure of a DOT graph: its figures' node prefixes (`` or
/// `xK_`), each with the threads in the order of the invisible chain that sets the
/// columns, and every thread with an event (a thread whose path has none is not drawn).
fn figure_columns(dot: &str) -> Vec<(String, Vec<usize>, Vec<usize>)> {
    use std::collections::BTreeMap;
    // Node -> (prefix, thread), from the thread clusters.
    let mut thread_of: BTreeMap<String, (String, usize)> = BTreeMap::new();
    let mut threads: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut current: Option<(String, usize)> = None;
    for line in dot.lines().map(str::trim) {
        if let Some(rest) = line
            .strip_prefix("subgraph cluster_")
            .and_then(|r| r.strip_suffix(" {"))
        {
            let (prefix, name) = match rest.split_once('_') {
                Some((x, n)) if x.starts_with('x') => (format!("{x}_"), n),
                _ => (String::new(), rest),
            };
            current = name
                .strip_prefix('p')
                .and_then(|t| t.parse().ok())
                .map(|t| (prefix, t));
        } else if line == "}" {
            current = None;
        } else if let (Some(cur), Some((node, _))) = (&current, line.split_once(" [label=")) {
            thread_of.insert(node.to_string(), cur.clone());
            let drawn = threads.entry(cur.0.clone()).or_default();
            if !drawn.contains(&cur.1) {
                drawn.push(cur.1);
            }
        }
    }
    let mut out = Vec::new();
    for (prefix, all) in threads {
        let chain: Vec<usize> = dot
            .lines()
            .map(str::trim)
            .find(|l| {
                l.ends_with(" [style=invis];")
                    && l.contains(" -> ")
                    && l.starts_with(&format!("{prefix}e"))
            })
            .map(|l| {
                l.trim_end_matches(" [style=invis];")
                    .split(" -> ")
                    .map(|n| thread_of[n].1)
                    .collect()
            })
            .unwrap_or_default();
        out.push((prefix, chain, all));
    }
    out
}

/// The left edge of each thread cluster `cluster_{prefix}p{T}` in dot's SVG.
fn cluster_lefts(svg: &str, prefix: &str) -> std::collections::BTreeMap<usize, f64> {
    let mut out = std::collections::BTreeMap::new();
    let key = format!("<title>cluster_{prefix}p");
    let mut rest = svg;
    while let Some(i) = rest.find(&key) {
        rest = &rest[i + key.len()..];
        let Some((t, after)) = rest.split_once("</title>") else {
            break;
        };
        let Ok(t) = t.parse::<usize>() else {
            continue;
        };
        let points = after
            .split_once("points=\"")
            .and_then(|(_, p)| p.split_once('"'))
            .map(|(p, _)| p)
            .unwrap_or("");
        let left = points
            .split_whitespace()
            .filter_map(|xy| xy.split(',').next()?.parse::<f64>().ok())
            .fold(f64::INFINITY, f64::min);
        out.insert(t, left);
    }
    out
}

/// Checks what a DOT output of `what` says and, with Graphviz, how it is drawn: threads in
/// columns left to right in the order of the chain, P0 leftmost.
fn check_graph(what: &str, dot: &str, with_dot: bool) -> Result<(), String> {
    check_one_graph(dot).map_err(|e| format!("{what}: {e}"))?;
    let figures = figure_columns(dot);
    for (prefix, chain, all) in &figures {
        if all.len() > 1 && (chain.len() != all.len() || chain[0] != *all.iter().min().unwrap()) {
            return Err(format!(
                "{what} {prefix}: the columns {chain:?} are not every thread {all:?} with the first leftmost"
            ));
        }
    }
    if !with_dot {
        return Ok(());
    }
    let svg = render(dot).map_err(|e| format!("{what}: dot: {e}"))?;
    for (prefix, chain, _) in &figures {
        let lefts = cluster_lefts(&svg, prefix);
        let xs: Vec<f64> = chain.iter().map(|t| lefts[t]).collect();
        if xs.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!(
                "{what} {prefix}: threads {chain:?} are drawn at x = {xs:?}, not left to right"
            ));
        }
    }
    Ok(())
}

/// Every DOT output vkherd makes on the corpus (a witness per state, and `explain`'s
/// executions) is one graph, which Graphviz draws without a word, threads as columns in
/// order, P0 leftmost. Without `dot`, the structure is checked and the drawing skipped,
/// visibly.
#[test]
fn every_dot_output_on_the_corpus_is_one_graph_graphviz_draws_in_columns() {
    let with_dot = dot_installed();
    if !with_dot {
        eprintln!("SKIPPED drawing (structure checked only): Graphviz's `dot` is not installed");
    }
    let files = corpus_files();
    assert!(files.len() > 200, "the corpus has {} tests", files.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let multi = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(f) = files.get(k) else { break };
                let f = f.to_str().unwrap();
                // The liveness corpus: its loops give `explain` (every candidate of every
                // state) too many candidates; its witness graphs are drawn with the
                // liveness witness instead.
                let runs = if f.contains("/liveness/") {
                    vec![vec!["-j", "1", "--dot", "--progress", "obe", f]]
                } else {
                    vec![
                        vec!["-j", "1", "--dot", f],
                        vec!["explain", "-j", "1", "--dot", f],
                    ]
                };
                for args in runs {
                    let out = vkherd(&args);
                    let dot = text(&out.stdout);
                    let what = format!("{args:?}");
                    // 5: a bounded-empty test (LB-spin-relacq) still draws its graph.
                    let result = if !matches!(out.status.code(), Some(0 | 5)) {
                        Err(format!(
                            "{what}: exit {:?}: {}",
                            out.status.code(),
                            text(&out.stderr)
                        ))
                    } else {
                        check_graph(&what, &dot, with_dot)
                    };
                    if dot.contains("subgraph cluster_x2 ") {
                        multi.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    if let Err(e) = result {
                        failures.lock().unwrap().push(e);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Most outputs have several executions: they are what Graphviz 2.43 choked on.
    assert!(multi.into_inner() > 200);
}

/// A directory run with `--dot` is one graph too, and its summary line goes to stderr.
#[test]
fn a_directory_run_with_dot_is_one_graph_with_the_summary_on_stderr() {
    let out = vkherd(&["--dot", &corpus("mp")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let dot = text(&out.stdout);
    check_one_graph(&dot).unwrap();
    assert!(dot.contains("label=\"MP-relacq-wg: 1:r0=0; 1:r1=0;\""));
    assert!(text(&out.stderr).contains("Summary: "));
}

// ---- Item 9: unknown names and herd7 options ----

/// herd7 options vkherd does not have get their own message and what to use instead, in
/// any place of the command line, not clap's "unexpected argument".
#[test]
fn herd7_options_vkherd_lacks_are_refused_with_what_to_use_instead() {
    let f = corpus("mp/MP-relacq-wg.litmus");
    for (args, name, instead) in [
        (vec!["-nshow", "1", &f], "nshow", "--graph DIR"),
        (vec!["-q", &f], "q", "2>/dev/null"),
        (vec!["-gv", &f], "gv", "--graph DIR"),
        (vec![&f, "-through", "all"], "through", "vkherd explain"),
        (
            vec!["-skipchecks", "sc", &f],
            "skipchecks",
            "--model my.cat",
        ),
        (vec!["-showevents", "all", &f], "showevents", "--show"),
        (vec!["-cat", "x.cat", &f], "cat", "--model FILE.cat"),
        (vec!["-I", "cats", &f], "I", "--model DIR/NAME.cat"),
        (vec!["-Icats", &f], "I", "--model DIR/NAME.cat"),
        (vec!["-v", &f], "v", "--stats"),
        (vec!["explain", &f, "-nshow", "1"], "nshow", "--dot"),
        (vec!["--through=all", &f], "through", "vkherd explain"),
    ] {
        let out = vkherd(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.starts_with(&format!(
                "error: herd7's -{name} is not supported by vkherd; "
            )),
            "{args:?}: {err}"
        );
        assert!(err.contains(instead), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// `--show` names are checked before any test runs, drawn or not: an unknown name is an
/// error listing the model's relations; a known one with nothing to draw is an error too;
/// herd7's `-show` keywords get a word of their own.
#[test]
fn show_names_are_checked_whether_or_not_graphs_are_drawn() {
    let f = corpus("mp/MP-relacq-wg.litmus");
    for args in [
        vec![&f[..], "--show", "frob"],
        vec![&f[..], "--show", "hb,frob", "--dot"],
    ] {
        let out = vkherd(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains("`frob` is not a relation of the model `vulkan`; expected one of: ")
                && err.contains(", hb, ")
                && err.contains("nor of `opencl`"),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = vkherd(&[&f, "--show", "hb"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("nothing is drawn: add --dot"));
    let out = vkherd(&[&f, "-show", "all", "--dot"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("herd7's -show all chooses which executions to draw"));
    let out = vkherd(&["--model", "vulkan-2024", &f, "--show", "gsw", "--dot"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`gsw` is not a relation of the model `vulkan`"));
    // A relation of the OpenCL model only: fine for an OpenCL test, an error for each
    // Vulkan one when its witnesses are drawn.
    let cl = corpus("opencl/mp/MP-rel-acq-wg-crosswg.litmus");
    let out = vkherd(&[&cl, "--show", "gsw", "--dot"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = vkherd(&[&f, "--show", "gsw", "--dot"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`gsw` is not a relation of the model `vulkan`"));
}

// ---- Item 10: one rule for a model and a dialect that do not match ----

/// The sets docs/models.md says a dialect never produces are empty in every execution of
/// every corpus test of that dialect (the witnesses of all their states): the rule refuses
/// a model for reading them, so they must really be empty there.
#[test]
fn sets_a_dialect_never_produces_are_empty_in_its_corpus_tests() {
    use vkherd_cat::dialect::never_produced;
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for f in corpus_files() {
        let source = std::fs::read_to_string(&f).unwrap();
        let program = vkherd::load_litmus(&source).unwrap();
        *seen.entry(program.dialect.name).or_default() += 1;
        let model = (vkherd::Options::default().model)
            .resolve(program.dialect)
            .unwrap();
        let eo = vkherd_enumerate::EnumOptions {
            engine: vkherd_enumerate::AnyEngine::Cat(model.cat_engine()),
            ..Default::default()
        };
        let (found, _) = vkherd_enumerate::capture::witnesses(&program, &eo)
            .unwrap_or_else(|e| panic!("{}: {e:?}", f.display()));
        // (A test none of whose executions ends within the unroll bound has no witness.)
        for c in found.values() {
            for b in never_produced(program.dialect) {
                assert!(
                    vkherd_cat::base::static_value(b, &c.statics).is_empty(),
                    "{}: {} is not empty",
                    f.display(),
                    b.name()
                );
            }
        }
    }
    assert!(seen["vulkan"] > 100 && seen["opencl"] > 50, "{seen:?}");
}

/// A model that reads the shared base `A` (rc11-coherence.cat's `sw`, `[REL & A] ; rf ;
/// [ACQ & A]`) is refused for PTX tests, which never have `A` (docs/ptx.md): its `sw`
/// would be silently empty there. The error names the base and the dialect and says
/// what PTX has instead; the same model judges Vulkan tests, and its PTX form (strong
/// operations for `A`) judges the PTX test.
#[test]
fn a_model_reading_a_is_refused_for_ptx_tests_with_a_hint() {
    let (rc11, rc11_ptx) = (
        "benches/rmw-loops/rc11-coherence.cat",
        "benches/rmw-loops/rc11-coherence-ptx.cat",
    );
    let ptx = "litmus-tests/ptx/mp/MP-relacq-gpu.litmus";
    let (code, out, err) = crate::util::run_in_root(&["--model", rc11, ptx]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(&format!(
            "error: `MP-relacq-gpu` is a PTX test, and the model {rc11} is not for PTX tests: it reads A, which PTX tests never have (PTX has no atomic attribute: strong operations play its part, the accesses qualified with a scope, `(R | W) & (SCOPEWG | SCOPEQF | SCOPEDEV)`"
        )),
        "{err}"
    );
    assert!(err.contains(&format!("--> {ptx}:1:1")), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for (model, test) in [
        (rc11, "litmus-tests/mp/MP-relacq-wg.litmus"),
        (rc11_ptx, ptx),
    ] {
        let (code, _, err) = crate::util::run_in_root(&["--model", model, test]);
        assert_eq!(code, 0, "{model} on {test}: {err}");
    }
}

const VULKAN_MP: &str = "mp/MP-relacq-wg.litmus";
const OPENCL_MP: &str = "opencl/mp/MP-rel-acq-wg-crosswg.litmus";

/// `--model` judges every test, and a test of a dialect the model is not for is refused
/// (exit code 2, at its header) in both directions, for bundled models by any name, in
/// the main form, `explain` and `khronos`.
#[test]
fn a_model_judges_only_tests_of_its_dialect_in_both_directions() {
    let (vk, cl) = (corpus(VULKAN_MP), corpus(OPENCL_MP));
    let khronos = format!("{}/tests/khronos", env!("CARGO_MANIFEST_DIR"));
    let vulkan_reads = "the model opencl is not for Vulkan tests: it reads SC, SCOPEWI, which Vulkan tests never have";
    for (args, said) in [
        (vec!["--model", "opencl", &vk[..]], "`MP-relacq-wg` is a Vulkan test, and the model opencl is not for Vulkan tests: it reads SC, SCOPEWI, which Vulkan tests never have"),
        (vec!["--model", "vulkan", &cl], "`MP-rel-acq-wg-crosswg` is an OpenCL test, and the model vulkan is not for OpenCL tests"),
        (vec!["--model", "cat:vulkan-2024", &cl], "the model vulkan-2024 is not for OpenCL tests"),
        (vec!["--model", "hand:vulkan", &cl], "the model hand:vulkan is not for OpenCL tests"),
        (vec!["--model", "vulkan", "--no-chains", &cl], "the model vulkan is not for OpenCL tests"),
        (vec!["explain", "--model", "opencl", &vk], vulkan_reads),
        (vec!["explain", "--model", "vulkan", &cl], "the model vulkan is not for OpenCL tests"),
        (vec!["bench", "--runs", "1", "--model", "opencl", &vk], vulkan_reads),
    ] {
        let out = vkherd(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stdout));
        let err = text(&out.stderr);
        assert!(err.contains(said), "{args:?}: {err}");
        // At the header, which names the dialect.
        assert!(err.contains(".litmus:1:1\n"), "{args:?}: {err}");
    }
    // Every Khronos test is a Vulkan test: refused before any runs.
    let out = vkherd(&["khronos", "--model", "opencl", &khronos]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).lines().next().unwrap(),
        format!("error: Khronos tests are Vulkan tests, and {vulkan_reads}, so its verdict would be wrong (docs/models.md, \"Models and dialects\"); expected a model for Vulkan tests: leave out --model (vulkan judges them) or give --model vulkan")
    );
    assert!(out.stdout.is_empty());
    // The model of each dialect judges it.
    for args in [
        vec!["--model", "opencl", &cl[..]],
        vec!["--model", "vulkan-2024", &vk],
    ] {
        assert_eq!(vkherd(&args).status.code(), Some(0), "{args:?}");
    }
}

/// A model of your own is judged by the same rule: refused for a dialect whose missing
/// sets it reads, run on both when it reads none of them.
#[test]
fn a_model_of_your_own_follows_the_same_rule() {
    let d = dir("edges-user-models");
    let sc = d.join("sc.cat");
    std::fs::write(
        &sc,
        "\"sequential consistency\"\nlet co = asmo\nlet fr = rf^-1 ; co\nacyclic po | rf | co | fr as sc\n",
    )
    .unwrap();
    let scoped = d.join("scoped.cat");
    std::fs::write(
        &scoped,
        "let co = asmo\nlet unused = [AV]\nacyclic po | rf | co | ([SC] ; po ; [SC]) as sc\n",
    )
    .unwrap();
    let (sc, scoped) = (sc.to_str().unwrap(), scoped.to_str().unwrap());
    for test in [VULKAN_MP, OPENCL_MP] {
        let out = vkherd(&["--model", sc, &corpus(test)]);
        assert_eq!(out.status.code(), Some(0), "{test}: {}", text(&out.stderr));
    }
    // It reads SC, never produced by Vulkan tests; AV, in a definition no check reads,
    // does not count.
    let out = vkherd(&["--model", scoped, &corpus(VULKAN_MP)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(&format!(
        "the model {scoped} is not for Vulkan tests: it reads SC, which Vulkan tests never have"
    )));
    let out = vkherd(&["--model", scoped, &corpus(OPENCL_MP)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// Without `--model`, each test is judged by its dialect's model with the variants that
/// model has: `--no-chains` (a Vulkan variant) on a directory of both dialects runs, its
/// Vulkan tests without chains and its OpenCL tests as without the option, each of these
/// with a note; the JSON names the model and variants each test ran with.
#[test]
fn without_model_each_dialect_takes_the_variants_its_model_has() {
    let d = dir("edges-mixed");
    for (from, to) in [
        ("chains/CHAIN-av-sg-wg.litmus", "a-vulkan.litmus"),
        (OPENCL_MP, "b-opencl.litmus"),
    ] {
        std::fs::copy(corpus(from), d.join(to)).unwrap();
    }
    let d = d.to_str().unwrap();
    let plain = vkherd(&["-j", "1", d]);
    let without = vkherd(&["-j", "1", "--no-chains", d]);
    assert_eq!(without.status.code(), Some(0), "{}", text(&without.stderr));
    let reports = |o: &Output| -> Vec<String> {
        text(&o.stdout)
            .split("\n\n")
            .filter(|r| r.starts_with("Test "))
            .map(str::to_string)
            .collect()
    };
    let (p, w) = (reports(&plain), reports(&without));
    assert_eq!(p.len(), 2);
    assert_ne!(
        p[0], w[0],
        "--no-chains changes nothing for the Vulkan test"
    );
    assert_eq!(p[1], w[1], "the OpenCL test ran differently");
    let err = text(&without.stderr);
    assert!(
        err.contains("b-opencl.litmus: Note: the OpenCL model (opencl), which judges OPENCL tests when no --model is given, has no variant no-chains: this test ran without it"),
        "{err}"
    );
    assert!(!err.contains("a-vulkan.litmus: Note"), "{err}");
    let json = vkherd(&["-j", "1", "--json", "--no-chains", d]);
    let lines: Vec<serde_json::Value> = text(&json.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["model"], "vulkan");
    assert_eq!(lines[0]["variants"], serde_json::json!(["no-chains"]));
    assert_eq!(lines[1]["model"], "opencl");
    assert_eq!(lines[1]["variants"], serde_json::json!([]));
    assert!(lines[1]["notes"]
        .to_string()
        .contains("has no variant no-chains"));
    // `mmra` is a variant of both: the OpenCL test runs with it, and says nothing.
    let out = vkherd(&["-j", "1", "--json", "--variant", "mmra", "--no-chains", d]);
    let last: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().nth(1).unwrap()).unwrap();
    assert_eq!(last["variants"], serde_json::json!(["mmra"]));
    // `explain` follows the same rule.
    let out = vkherd(&["explain", "--no-chains", &format!("{d}/b-opencl.litmus")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// A variant that neither dialect's model has is an error before any test runs.
#[test]
fn a_variant_no_model_has_is_an_error() {
    let out = vkherd(&["--variant", "frob", &corpus(VULKAN_MP)]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("error: no model has the variant `frob`: without --model, tests are judged by vulkan (variants: mmra, no-chains, vulkan-2024) and OPENCL tests by opencl (variants: mmra, no-svm-atomics, rc11-sc, unscoped-sc)"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// `--graph DIR` where DIR cannot be made (a file is in the way): bad input, with the
/// directory and the system's reason named.
#[test]
fn a_graph_directory_that_cannot_be_made_is_bad_input_naming_it() {
    let d = dir("graph-dir-blocked");
    let blocker = d.join("file");
    std::fs::write(&blocker, "not a directory").unwrap();
    let graphs = blocker.join("graphs");
    let f = corpus("mp/MP-relacq-wg.litmus");
    let out = vkherd(&[&f, "--graph", graphs.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "error: cannot create directory {}: ",
            graphs.display()
        )),
        "{err}"
    );
}
