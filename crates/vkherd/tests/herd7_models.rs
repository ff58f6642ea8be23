//! Models written in herd7's cat syntax (crates/cat/tests/models/herd7-*.cat: a bare
//! title, `include`, `procedure`/`call`, `let rec ... and ...`, `show`/`unshow`,
//! `undefined_unless`, `flag ~empty`, stdlib.cat's names) give exactly vulkan.cat's
//! answers on every Vulkan test of the corpus: same states, racy marks, verdicts and
//! counts (their flag under its own name, `racy`). They reuse vulkan.cat's definitions (vulkan-defs.cat, written here from the
//! bundled vulkan.cat without its checks and `co`) and restate its checks and `co` with
//! those constructs; a control model that leaves out one `call` differs.

use crate::files;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use vkherd::{report, Options};
use vkherd_cat::{Model, Source};

/// The lines of vulkan.cat that the herd7-style models restate.
const RESTATED: [&str; 4] = [
    "acyclic locord | rf | fr | asmo as consistent",
    "empty (rf ; [R \\ A]) & twoplus([W] ; locord) as consistent-nonatomic",
    "flag ~empty dr as racy",
    "let co = (locord | asmo)+",
];

/// vulkan.cat without the lines of [`RESTATED`] (each must be there once).
fn vulkan_defs() -> String {
    let text = vkherd_cat::bundled_file("vulkan.cat").unwrap();
    for line in RESTATED {
        assert_eq!(
            text.lines().filter(|l| l.trim() == line).count(),
            1,
            "vulkan.cat no longer has `{line}` once: update the herd7-style models"
        );
    }
    text.lines()
        .filter(|l| !RESTATED.contains(&l.trim()))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// `model` (from crates/cat/tests/models/, with `edit` applied) compiled in a scratch
/// directory beside vulkan-defs.cat.
fn load(model: &str, edit: impl Fn(String) -> String) -> Model {
    let dir = std::env::temp_dir().join(format!(
        "vkherd-herd7-models-{}-{model}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("vulkan-defs.cat"), vulkan_defs()).unwrap();
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cat/tests/models");
    let text = edit(std::fs::read_to_string(models.join(model)).unwrap());
    let path: PathBuf = dir.join(model);
    std::fs::write(&path, &text).unwrap();
    Model::compile(
        Source {
            name: path.display().to_string(),
            text: Arc::from(text),
        },
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The herd-style reports of the first `count` Vulkan tests of the corpus under `model`.
fn reports(model: Model, count: usize) -> Vec<(String, String)> {
    let model = Arc::new(model);
    let mut out = Vec::new();
    // The liveness corpus's spin locks loop on RMWs: a user model has none of the bundled
    // Vulkan model's search shortcuts (its coherence core), and they take over 30 s each
    // under these models in a debug build. Its answers are tests/liveness.rs's job.
    let corpus = files::corpus_files()
        .into_iter()
        .filter(|f| !f.components().any(|c| c.as_os_str() == "liveness"));
    for f in corpus {
        if out.len() == count {
            break;
        }
        let src = std::fs::read_to_string(&f).unwrap();
        // The Vulkan tests: the models compared here are Vulkan's.
        if vkherd_dialects::of(&src).name != "vulkan" {
            continue;
        }
        let program = vkherd::load_litmus(&src).unwrap();
        let opts = Options {
            model: vkherd::models::ModelChoice::given(vkherd::models::ModelSpec::cat(
                model.clone(),
            )),
            ..Options::default()
        };
        let rep = vkherd::run(&program, &opts).unwrap();
        out.push((f.display().to_string(), report::herd_text(&rep)));
    }
    assert!(out.len() > 30, "corpus not found");
    out
}

/// The tests on which `model`'s reports differ from vulkan.cat's, among the first `count`
/// Vulkan tests of the corpus.
fn differences(model: Model, count: usize) -> Vec<String> {
    static VULKAN: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    let vulkan = VULKAN.get_or_init(|| {
        // The herd7-style models call vulkan.cat's race flag `racy` too, but a model from
        // a file has its flags reported under their own names (a bundled model's data
        // race is `data-race`), and its states only flagged (docs/semantics.md).
        let bundled = reports(Model::bundled("vulkan", &[]).unwrap(), usize::MAX);
        (bundled.into_iter())
            .map(|(file, text)| {
                let text = text.replace("Flag data-race\n", "Flag racy\n");
                (file, text.replace(" # racy", " # flagged"))
            })
            .collect()
    });
    let other = reports(model, count);
    vulkan
        .iter()
        .zip(&other)
        .filter(|(a, b)| a != b)
        .map(|((file, a), (_, b))| format!("{file}:\nvulkan.cat:\n{a}\nherd7-style:\n{b}"))
        .collect()
}

#[test]
fn a_model_with_procedures_undefined_unless_and_let_rec_gives_vulkan_answers_on_the_corpus() {
    let diff = differences(load("herd7-procedures.cat", |t| t), usize::MAX);
    assert!(diff.is_empty(), "{}", diff.join("\n"));
}

#[test]
fn a_model_with_flag_and_nested_procedure_calls_gives_vulkan_answers_on_the_corpus() {
    let diff = differences(load("herd7-flags.cat", |t| t), usize::MAX);
    assert!(diff.is_empty(), "{}", diff.join("\n"));
}

#[test]
fn the_comparison_sees_a_model_that_leaves_out_a_call() {
    // Without the race flag, racy states lose their mark; without the consistency
    // checks, forbidden states appear. (On part of the corpus: a user model gets only
    // the search's model-independent cuts, which makes it slower than vulkan.cat.)
    for (model, call) in [
        ("herd7-flags.cat", "call races(dr)"),
        ("herd7-flags.cat", "call checks()"),
        ("herd7-procedures.cat", "call consistent(locord, W)"),
    ] {
        let control = load(model, |t| {
            assert!(t.contains(call));
            t.replace(call, "")
        });
        assert!(
            !differences(control, 40).is_empty(),
            "{model} without {call}"
        );
    }
}

#[test]
fn the_cli_refuses_a_herd7_model_it_cannot_run_with_a_located_error() {
    let dir = std::env::temp_dir().join(format!("vkherd-herd7-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: [(&str, &[u8], &str); 5] = [
        (
            "poloc.cat",
            b"AArch64\nlet co = asmo\nacyclic po-loc",
            "herd7's `po-loc` is `po & sloc` here",
        ),
        (
            "enum.cat",
            b"\"m\"\nenum Fences = 'a",
            "herd7's `enum` (tags) is not supported",
        ),
        // (Not named cos.cat: it would include itself.)
        (
            "x86.cat",
            b"X86\ninclude \"cos.cat\"",
            "herd7's library file `cos.cat`",
        ),
        (
            "latin1.cat",
            b"let co = asmo (* caf\xe9 *) \xe9",
            "unexpected character",
        ),
        ("coset.cat", b"let co = W\nacyclic po", "`co` is a set"),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = crate::util::bin()
            .arg("--model")
            .arg(&path)
            .arg(files::corpus_root().join("sb/SB.litmus"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(expected), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("--> {}:", path.display())) && stderr.contains('^'),
            "{name}: {stderr}"
        );
    }
}
