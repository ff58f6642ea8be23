//! Which tests a model can judge: a model is written for a dialect of tests, and the only
//! trace of that in a cat file is the base sets it reads. Each dialect declares the bases
//! it gives models beyond the shared ones ([`Dialect::bases`]); a base of another dialect
//! is empty in every execution of its tests (Vulkan tests have no seq_cst operations,
//! OpenCL tests no availability operations), so a model that reads it would judge them as
//! if that part of the model were switched off: an answer that looks right and is not.
//! [`Model::foreign_bases`] names such bases; vkherd refuses to judge a test with a model
//! that reads any (docs/models.md, "Models and dialects").

use crate::base::{all_bases, BaseName};
use crate::ir::Op;
use crate::Model;
use vkherd_model::Dialect;

/// The base names some dialect declares and `dialect` does not: empty in every execution
/// of every test of `dialect`, whatever its instructions (checked on the corpus by
/// crates/vkherd/tests/cli_edges.rs).
pub fn never_produced(dialect: &Dialect) -> Vec<BaseName> {
    all_bases()
        .filter(|b| is_foreign(b.id, dialect))
        .map(|b| b.id)
        .collect()
}

/// `b` is a base of some dialect, not of `dialect` (in Dat3M's event view, the
/// dialects' Dat3M names count too: `WI` is OpenCL's only), or a shared base `dialect`
/// declares its tests never produce ([`Dialect::lacks`]: PTX's `A`).
fn is_foreign(b: BaseName, dialect: &Dialect) -> bool {
    let name = b.name();
    let has = |d: &Dialect| d.base(name).is_some() || crate::view::dialect_name(d, name).is_some();
    let lacked = dialect.lacks.iter().any(|l| l.name == name);
    lacked || (!has(dialect) && vkherd_dialects::ALL.iter().any(|d| has(d)))
}

impl Model {
    /// The base names the model's results depend on: those its checks (flags included)
    /// and `co` read, directly or through definitions, in the order of [`all_bases`], then
    /// of Dat3M's event view's ([`crate::view::view_bases`]).
    /// Definitions nothing reads do not count.
    pub fn bases_read(&self) -> Vec<BaseName> {
        self.bases_read
            .get_or_init(|| self.find_bases_read())
            .clone()
    }

    fn find_bases_read(&self) -> Vec<BaseName> {
        let roots = self.checks.iter().map(|c| c.node).chain(self.named("co"));
        let reach = self.graph.cone(roots, Vec::new());
        let read: std::collections::BTreeSet<BaseName> = (self.graph.nodes.iter().zip(&reach))
            .filter_map(|(node, reached)| match (&node.op, reached) {
                (Op::Base(b), true) => Some(*b),
                _ => None,
            })
            .collect();
        all_bases()
            .map(|b| b.id)
            .chain(crate::view::view_bases().iter().map(|v| v.base.id))
            .filter(|b| read.contains(b))
            .collect()
    }

    /// Does the model read a syntactic dependency (`addr`, `data`, `ctrl`, or a name
    /// defined from them such as `dep`)? The enumerator computes the dependencies of a
    /// path combination only for a model that does (vkherd_enumerate's `Engine::
    /// reads_dependencies`). Any node of the compiled model counts, not only those its
    /// checks reach: a definition nothing checks may still be asked for by name
    /// (`explain`, graphs, a visitor's wanted relations), and must then have its value.
    pub fn reads_dependencies(&self) -> bool {
        *self.reads_dependencies.get_or_init(|| {
            (self.graph.nodes.iter())
                .any(|node| matches!(node.op, Op::Base(b) if crate::base::is_dependency(b)))
        })
    }

    /// The base names the model reads that tests of `dialect` never produce: empty when
    /// the model can judge them.
    pub fn foreign_bases(&self, dialect: &Dialect) -> Vec<BaseName> {
        self.bases_read()
            .into_iter()
            .filter(|&b| is_foreign(b, dialect))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vkherd_dialects::ALL;

    #[test]
    fn each_bundled_model_is_for_its_own_dialect_only() {
        for d in ALL {
            for b in d.models {
                let model = Model::bundled(b.name, &[]).unwrap();
                assert_eq!(model.foreign_bases(d), [], "{} for {}", b.name, d.name);
                for other in ALL.iter().filter(|o| o.name != d.name) {
                    assert!(
                        !model.foreign_bases(other).is_empty(),
                        "{} is not for {}",
                        b.name,
                        other.name
                    );
                }
            }
        }
    }

    #[test]
    fn only_what_the_checks_read_counts() {
        let src = crate::Source {
            name: "t.cat".into(),
            text: std::sync::Arc::from(
                "let unused = [SC] ; po\nlet co = asmo\nacyclic po | rf | [AV] ; co as c\n",
            ),
        };
        let m = Model::compile(src, &Default::default()).unwrap();
        use BaseName::*;
        let av = crate::base::lookup("AV").unwrap();
        assert_eq!(m.bases_read(), [Po, Asmo, Rf, av]);
        for d in ALL {
            let foreign: &[BaseName] = if d.base("AV").is_some() { &[] } else { &[av] };
            assert_eq!(m.foreign_bases(d), foreign, "{}", d.name);
        }
    }
}
