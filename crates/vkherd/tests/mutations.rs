//! Deterministic mutations of the inputs other people write besides Vulkan tests: the
//! OpenCL tests of the corpus (parsed, lowered and run under tight limits) and the cat
//! models, bundled and sample (compiled, and run on a small test when they compile).
//! Every mutant is either accepted or rejected with a located error (line and column
//! from 1, a span inside the text it names, rendered with `-->` and a caret); none
//! panics. The fuzz targets parse_opencl, parse_cat and run_cat (fuzz/, docs/errors.md
//! "Fuzzing") explore the same inputs at random; this is their fast, repeatable part.

use crate::files;

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use vkherd::Options;
use vkherd::RunConfig;
use vkherd_cat::{ErrorKind, Model, Source};
use vkherd_litmus::{span_at, Diagnostic};

/// A fixed linear congruential generator: the same mutants on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Bytes and words that matter to the two grammars.
const PIECES: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "|",
    "&",
    "*",
    "+",
    "~",
    "\\",
    "=",
    "\"",
    "\n",
    " ",
    "0",
    "1",
    "-",
    "^-1",
    "(*",
    "*)",
    "//",
    "/*",
    "let ",
    "rec ",
    "and ",
    "procedure ",
    "call ",
    "end ",
    "include ",
    "acyclic ",
    "empty ",
    "flag ",
    "show ",
    "undefined_unless ",
    "as ",
    "if ",
    "P0",
    "P1@",
    "atomic_load(",
    "memory_order_acquire",
    "memory_scope_device",
    "while (",
    "int r0 = ",
    "exists ",
    "\u{e9}",
    "\u{0}",
];

/// `text` with 1 to 3 random edits: a byte or a piece replaced, deleted or inserted, a
/// line deleted or repeated, or the text cut short.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(bytes.len() + 1);
        let piece = PIECES[rng.below(PIECES.len())].as_bytes();
        match rng.below(7) {
            0 | 1 => {
                bytes.splice(at..at, piece.iter().copied());
            }
            2 if at < bytes.len() => {
                let end = (at + 1 + rng.below(8)).min(bytes.len());
                bytes.drain(at..end);
            }
            3 if at < bytes.len() => {
                let end = (at + 1).min(bytes.len());
                bytes.splice(at..end, piece.iter().copied());
            }
            4 | 5 => {
                // A whole line deleted (4) or repeated (5).
                let start = bytes[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let end = bytes[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |i| at + i + 1);
                let line: Vec<u8> = bytes[start..end].to_vec();
                if rng.below(2) == 0 {
                    bytes.drain(start..end);
                } else {
                    bytes.splice(end..end, line);
                }
            }
            _ => bytes.truncate(at),
        }
    }
    // As the CLI reads files.
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Why `d` is not a located error in `source`, if it is not.
fn unlocated(source: &str, d: &Diagnostic) -> Option<String> {
    let s = d.span;
    if s.line == 0 || s.column == 0 {
        return Some(format!("line or column 0: {d:?}"));
    }
    if s.offset + s.len > source.len()
        || !source.is_char_boundary(s.offset)
        || !source.is_char_boundary(s.offset + s.len)
    {
        return Some(format!("span outside the text: {d:?}"));
    }
    if span_at(source, s.offset, s.len) != s {
        return Some(format!("inconsistent span: {d:?}"));
    }
    let r = d.render("input", source);
    if d.message.is_empty() || !r.starts_with("error: ") || !r.contains("--> input:") {
        return Some(format!("badly rendered: {r}"));
    }
    None
}

/// Runs `case` on `input`; a panic or a problem it returns is a failure naming the input.
fn check(
    failures: &mut Vec<String>,
    what: &str,
    input: &str,
    case: impl FnOnce() -> Option<String>,
) {
    match catch_unwind(AssertUnwindSafe(case)) {
        Ok(None) => {}
        Ok(Some(problem)) => failures.push(format!("{what}: {problem}\n--- input:\n{input}")),
        Err(_) => failures.push(format!("{what}: panicked\n--- input:\n{input}")),
    }
}

fn tight() -> Options {
    Options {
        run: RunConfig {
            max_candidates: Some(300),
            timeout: Some(Duration::from_millis(300)),
            unroll: 1,
            ..RunConfig::default()
        },
        ..Options::default()
    }
}

#[test]
fn mutated_opencl_tests_are_run_or_rejected_with_a_located_error() {
    let tests: Vec<(PathBuf, String)> = files::corpus_files()
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .filter(|(_, t)| vkherd_dialects::opencl::is_opencl(t))
        .collect();
    assert!(tests.len() > 50, "OpenCL corpus not found");
    let mut rng = Rng(21);
    let (mut failures, mut rejected, mut total) = (Vec::new(), 0, 0);
    for (file, text) in &tests {
        for k in 0..12 {
            let mutant = mutate(text, &mut rng);
            total += 1;
            let what = format!("{} mutant {k}", file.display());
            check(&mut failures, &what, &mutant, || {
                let program = match vkherd::load_litmus(&mutant) {
                    Ok(p) => p,
                    Err(d) => {
                        rejected += 1;
                        return unlocated(&mutant, &d);
                    }
                };
                // Only every third accepted mutant is run (they are mostly the original).
                if k % 3 != 0 {
                    return None;
                }
                match vkherd::run(&program, &tight()) {
                    Ok(_) => None,
                    Err(d) => unlocated(&mutant, &d),
                }
            });
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The mutations reach the parser's errors, not only harmless places.
    assert!(
        rejected * 3 > total,
        "only {rejected} of {total} mutants rejected"
    );
}

/// The cat files mutated: the bundled ones and the samples of crates/cat/tests/models,
/// written into a scratch directory with what they include.
fn cat_files() -> (PathBuf, Vec<(String, String)>) {
    let dir = std::env::temp_dir().join(format!("vkherd-mutations-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vulkan = vkherd_cat::bundled_file("vulkan.cat").unwrap();
    // What the samples include: vulkan.cat without its checks and co.
    let defs: String = vulkan
        .lines()
        .filter(|l| {
            !["acyclic ", "empty ", "flag ", "let co "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("vulkan-defs.cat"), defs).unwrap();
    let mut out: Vec<(String, String)> = vkherd_cat::files()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cat/tests/models");
    for entry in std::fs::read_dir(samples).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "cat") {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, std::fs::read_to_string(&p).unwrap()));
        }
    }
    out.sort();
    (dir, out)
}

#[test]
fn mutated_cat_models_are_run_or_rejected_with_a_located_error() {
    let (dir, models) = cat_files();
    assert!(models.len() >= 6, "{models:?}");
    let test =
        std::fs::read_to_string(files::corpus_root().join("mp/MP-relacq-wg.litmus")).unwrap();
    let program = vkherd::load_litmus(&test).unwrap();
    let mut rng = Rng(13);
    let (mut failures, mut rejected, mut ran, mut total) = (Vec::new(), 0, 0, 0);
    for (name, text) in &models {
        for k in 0..100 {
            let mutant = mutate(text, &mut rng);
            total += 1;
            let path = dir.join(format!("m{k}-{name}")).display().to_string();
            check(
                &mut failures,
                &format!("{name} mutant {k}"),
                &mutant,
                || {
                    let src = Source {
                        name: path.clone(),
                        text: Arc::from(mutant.as_str()),
                    };
                    let model = match Model::compile(src, &BTreeSet::new()) {
                        Ok(m) => m,
                        Err(e) => {
                            rejected += 1;
                            if e.kind == ErrorKind::Model {
                                return Some(format!("not about a place: {}", e.render()));
                            }
                            // In the mutant or in a file it includes.
                            let source = if e.file == path {
                                mutant.as_str()
                            } else {
                                &e.source
                            };
                            return unlocated(source, &e.diagnostic);
                        }
                    };
                    // A model without `co` is refused before it runs (models.rs).
                    let runs = model.named("co").is_some();
                    let opts = Options {
                        model: vkherd::models::ModelChoice::given(vkherd::models::ModelSpec::cat(
                            Arc::new(model),
                        )),
                        ..tight()
                    };
                    ran += usize::from(runs);
                    match runs.then(|| vkherd::run(&program, &opts)) {
                        Some(Err(d)) => unlocated(&test, &d),
                        _ => None,
                    }
                },
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        rejected * 3 > total,
        "only {rejected} of {total} mutants rejected"
    );
    assert!(ran * 5 > total, "only {ran} of {total} mutants ran");
}
