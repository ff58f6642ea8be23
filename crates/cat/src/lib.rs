//! Memory models as data: herd7's cat language (the subset in docs/models.md), compiled
//! into a staged program over the bit-matrix relations of `vkherd-model`.
//!
//! - [`parse::parse_cat`] reads a file; [`Model::load`] compiles it (with its includes and
//!   the chosen variants) into a hash-consed [`ir::Graph`];
//! - [`eval::Prepared`] specialises the model to one execution (once per path
//!   combination), [`eval::Prepared::for_asmo`] computes what depends on asmo alone, and
//!   [`eval::Prepared::evaluate`] / [`eval::Prepared::may_complete`] judge a candidate;
//! - [`mono`] decides which checks may cut the search, [`shortcuts`] which of the
//!   search's shortcuts the model's checks allow.

pub mod ast;
pub mod base;
mod compile;
pub mod dialect;
pub mod error;
pub mod eval;
pub mod inspect;
pub mod ir;
mod kernel;
mod lex;
pub mod mono;
pub mod parse;
pub mod shortcuts;
mod total_order;
pub mod view;

use ast::CheckKind;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock};
use vkherd_litmus::{Diagnostic, Span};

pub use base::{BaseName, Kind, Stage, Value, BASES};
pub use error::{Construct, ErrorKind, Limit};
pub use eval::{AsmoValues, Evaluation, Prepared};

/// A cat source text with the name it is reported under.
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: Arc<str>,
}

/// An error in a model file, located in the file it occurs in (maybe an included one).
#[derive(Debug, Clone)]
pub struct CatError {
    pub file: String,
    pub source: Arc<str>,
    pub kind: ErrorKind,
    pub diagnostic: Diagnostic,
}

impl CatError {
    /// `error: ...` with `file:line:column` and a caret under the offending text.
    pub fn render(&self) -> String {
        self.diagnostic.render(&self.file, &self.source)
    }

    fn plain(message: String) -> CatError {
        CatError {
            file: String::new(),
            source: Arc::from(""),
            kind: ErrorKind::Model,
            diagnostic: Diagnostic::new(Span::default(), message),
        }
    }
}

impl std::fmt::Display for CatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.diagnostic)
    }
}

/// A check of the model (`acyclic r as name`, `flag ~empty r as name`, ...).
#[derive(Debug, Clone)]
pub struct Check {
    pub name: String,
    pub kind: CheckKind,
    pub negated: bool,
    /// A flag is reported, it does not make candidates inconsistent.
    pub flag: bool,
    pub node: ir::N,
    /// Failing on a partial candidate implies failing on all its completions.
    pub may_cut: bool,
    pub span: Span,
}

/// A model built into the binary: its name (for `--model`), variants, file and doc.
pub use vkherd_model::BundledModel as Bundled;

/// The cat files every model may include (the dialects' own are in their folders).
const LIBRARY_FILES: &[(&str, &str)] = &[("stdlib.cat", include_str!("../models/stdlib.cat"))];

/// The cat files built into the binary: the library's and every dialect's models.
pub fn files() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    LIBRARY_FILES
        .iter()
        .chain(vkherd_dialects::ALL.iter().flat_map(|d| d.model_files))
}

/// The models `--model NAME` accepts: every dialect's, in the order of the dialects.
pub static BUNDLED: std::sync::LazyLock<Vec<&'static Bundled>> =
    std::sync::LazyLock::new(|| vkherd_dialects::ALL.iter().flat_map(|d| d.models).collect());

/// A bundled file's text by file name.
pub fn bundled_file(name: &str) -> Option<&'static str> {
    files().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Is the name an unknown-name error points at one of Dat3M's event view?
fn names_view_base(e: &CatError) -> bool {
    let span = e.diagnostic.span;
    let name = e.source.get(span.offset..span.offset + span.len);
    name.and_then(view::lookup).is_some()
}

/// A compiled model.
#[derive(Debug, Clone)]
pub struct Model {
    name: String,
    graph: ir::Graph,
    /// Top-level definitions, in order.
    named: Vec<(String, ir::N)>,
    checks: Vec<Check>,
    /// The variant names the model tests.
    variants: BTreeSet<String>,
    /// The variants it was compiled with, and its source (to recompile with more).
    active: BTreeSet<String>,
    source: Source,
    /// [`Model::bases_read`], computed once: every test a run judges asks for it.
    bases_read: OnceLock<Vec<BaseName>>,
    /// [`Model::reads_dependencies`], computed once.
    reads_dependencies: OnceLock<bool>,
    /// What the checks allow the search ([`shortcuts::analyse`]).
    shortcuts: shortcuts::Analysis,
    /// Compiled in Dat3M's event view ([`view`]).
    view: bool,
    /// The index among its flags ([`Model::flags`]) of the one its bundled descriptor
    /// declares the data race ([`Bundled::race_flag`]); `None` for a model from a file.
    race_flag: Option<usize>,
}

impl Model {
    /// Compiles `src` with the given variants on. Includes name a bundled file or a path
    /// relative to the including file.
    pub fn compile(src: Source, variants: &BTreeSet<String>) -> Result<Model, CatError> {
        let resolve = |file: &str, from: &Source| -> Option<Source> {
            if let Some(t) = bundled_file(file) {
                return Some(Source {
                    name: file.to_string(),
                    text: Arc::from(t),
                });
            }
            let dir = std::path::Path::new(&from.name).parent()?;
            let path = dir.join(file);
            // As the CLI reads files: bytes that are not UTF-8 become U+FFFD.
            let text = String::from_utf8_lossy(&std::fs::read(&path).ok()?).into_owned();
            Some(Source {
                name: path.display().to_string(),
                text: Arc::from(text),
            })
        };
        let name = src.name.clone();
        // A model that names a base only Dat3M's event view has runs in that view: decided
        // here, once, by the first such name the plain compilation stops at.
        let (mut out, view) = match compile::Compiler::new(variants, &resolve).compile(src.clone())
        {
            Ok(out) => (out, false),
            Err(e) if e.kind == ErrorKind::UnknownName && names_view_base(&e) => {
                let out = compile::Compiler::new(variants, &resolve)
                    .in_view()
                    .compile(src.clone())?;
                (out, true)
            }
            Err(e) => return Err(e),
        };
        let defines = |n: &str| out.named.iter().any(|(m, _)| m == n);
        if view && !defines("co") {
            // The view's `co` is a base: final values are read off it.
            let co = out.graph.base(view::lookup("co").expect("a view base"));
            out.named.push(("co".to_string(), co));
        }
        // A model that defines `locord` but no `co` gets the Vulkan order of final values,
        // `co = (locord | asmo)+` (docs/models.md).
        let defines = |n: &str| out.named.iter().any(|(m, _)| m == n);
        if !defines("co") {
            if let Some(&(_, locord)) = out.named.iter().rev().find(|(m, _)| m == "locord") {
                if out.graph.kind(locord) == Kind::Rel {
                    let asmo = out.graph.base(base::BaseName::Asmo);
                    let u = out.graph.union(Kind::Rel, vec![locord, asmo]);
                    let co = out.graph.unary(ir::Op::Plus, u);
                    out.named.push(("co".to_string(), co));
                }
            }
        }
        let co = out
            .named
            .iter()
            .rev()
            .find(|(m, _)| m == "co")
            .map(|&(_, n)| n);
        let co = co.filter(|&n| out.graph.kind(n) == Kind::Rel);
        let mut shortcuts = shortcuts::analyse(&out.graph, &out.checks, co);
        if view {
            shortcuts = shortcuts::in_view(shortcuts, &out.graph, &out.checks, co);
        }
        Ok(Model {
            shortcuts,
            name,
            graph: out.graph,
            named: out.named,
            checks: out.checks,
            variants: out.variants,
            active: variants.clone(),
            source: src,
            bases_read: OnceLock::new(),
            reads_dependencies: OnceLock::new(),
            view,
            race_flag: None,
        })
    }

    /// A bundled model by name (`vulkan`, `vulkan-2024`, ...), with extra variants.
    pub fn bundled(name: &str, extra: &[String]) -> Result<Model, CatError> {
        let b = BUNDLED.iter().find(|b| b.name == name).ok_or_else(|| {
            CatError::plain(format!(
                "unknown model `{name}`: expected one of {} or a .cat file",
                BUNDLED
                    .iter()
                    .map(|b| b.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        let mut variants: BTreeSet<String> = b.variants.iter().map(|s| s.to_string()).collect();
        variants.extend(extra.iter().cloned());
        let text = bundled_file(b.file).expect("bundled file");
        let mut m = Model::compile(
            Source {
                name: b.file.to_string(),
                text: Arc::from(text),
            },
            &variants,
        )?;
        m.name = name.to_string();
        m.race_flag = b.race_flag.map(|race| {
            let flags = m.checks.iter().filter(|c| c.flag);
            (flags.clone().position(|c| c.name == race))
                .expect("a bundled model's race flag is one of its flags")
        });
        Ok(m)
    }

    /// [`Model::bundled`], compiled once per process and shared: the one cache of the
    /// bundled models, which the engine's default model, each dialect's model and
    /// `--model NAME` all come from. Keyed by the name and the set of variants, so the
    /// order they are given in does not matter.
    pub fn bundled_shared(name: &str, extra: &[String]) -> Result<Arc<Model>, CatError> {
        // A handful of entries, looked up once per test: a list compared without
        // allocating.
        type Entry = (String, BTreeSet<String>, Arc<Model>);
        static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
        let same = |set: &BTreeSet<String>| {
            extra.iter().all(|v| set.contains(v)) && set.iter().all(|v| extra.contains(v))
        };
        // Held while compiling: two threads asking for one model compile it once.
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, m)) = cache.iter().find(|(n, set, _)| n == name && same(set)) {
            return Ok(m.clone());
        }
        let model = Arc::new(Model::bundled(name, extra)?);
        let set = extra.iter().cloned().collect();
        cache.push((name.to_string(), set, model.clone()));
        Ok(model)
    }

    /// The same model with `variant` on too (`no-chains` for Khronos `NOCHAINS` checks).
    pub fn with_variant(&self, variant: &str) -> Model {
        if self.active.contains(variant) {
            return self.clone();
        }
        let mut v = self.active.clone();
        v.insert(variant.to_string());
        let mut m = Model::compile(self.source.clone(), &v).expect("compiled once already");
        m.name = self.name.clone();
        m.race_flag = self.race_flag;
        m
    }

    /// The name it is reported under: the bundled name (`vulkan`, ...) or the file's.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The compiled expressions every node of [`Model::definitions`] and
    /// [`Model::checks`] points into.
    #[inline]
    pub fn graph(&self) -> &ir::Graph {
        &self.graph
    }

    /// The top-level definitions, in order (a name may be defined more than once).
    pub fn definitions(&self) -> &[(String, ir::N)] {
        &self.named
    }

    /// The checks, in order.
    #[inline]
    pub fn checks(&self) -> &[Check] {
        &self.checks
    }

    /// The variant names the model tests (`if "name"`).
    pub fn variants(&self) -> &BTreeSet<String> {
        &self.variants
    }

    /// The variants it was compiled with.
    pub fn active_variants(&self) -> &BTreeSet<String> {
        &self.active
    }

    /// Its main file (includes are read relative to it).
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The node of the last top-level definition called `name`.
    pub fn named(&self, name: &str) -> Option<ir::N> {
        self.named
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, n)| *n)
    }

    /// Which of the search's shortcuts the model's checks allow ([`shortcuts`]).
    pub fn shortcuts(&self) -> &shortcuts::Analysis {
        &self.shortcuts
    }

    /// The coherence filter the search may use on the execution `s`, whose asmo orders
    /// the pairs `asmo_pairs` ([`shortcuts::Analysis::coherence`]); in Dat3M's event
    /// view, the one derived for the view ([`shortcuts::in_view`]).
    pub fn coherence(
        &self,
        s: &vkherd_model::Statics,
        asmo_pairs: &vkherd_model::Rel,
    ) -> Option<shortcuts::Core> {
        self.shortcuts.coherence(&self.graph, s, asmo_pairs)
    }

    /// Whether the model runs in Dat3M's event view ([`view`]): it names a base only that
    /// view has. Its relations are then on the view's events, not the program's.
    pub fn dat3m_view(&self) -> bool {
        self.view
    }

    /// The pairs of writes the enumerated order must order on the execution `s`, when the
    /// model decides them rather than the test's dialect: in Dat3M's event view, every
    /// pair of distinct writes to one location (its `co` is total on them); `None`
    /// otherwise (the dialect's `ordered_writes`).
    pub fn ordered_writes(&self, s: &vkherd_model::Statics) -> Option<vkherd_model::Rel> {
        use vkherd_model::{StaticRel, StaticSet};
        self.view.then(|| {
            let w = s.set(StaticSet::W);
            s.rel(StaticRel::Sloc)
                .restrict(w, w)
                .minus(s.rel(StaticRel::Id))
        })
    }

    /// The flags the model can raise, as reports name them, in the order of its flag
    /// checks: bit `i` of [`eval::Evaluation::flag_bits`] is the `i`-th.
    pub fn flags(&self) -> Vec<vkherd_model::ModelFlag> {
        use vkherd_model::ModelFlag;
        let flags = self.checks.iter().filter(|c| c.flag).enumerate();
        flags
            .map(|(i, c)| match self.race_flag == Some(i) {
                true => ModelFlag::DataRace,
                false => ModelFlag::Named(Arc::from(c.name.as_str())),
            })
            .collect()
    }

    /// Names of the flags the model can raise.
    pub fn flag_names(&self) -> Vec<&str> {
        self.checks
            .iter()
            .filter(|c| c.flag)
            .map(|c| c.name.as_str())
            .collect()
    }
}
