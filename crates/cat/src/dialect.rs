//! Which tests a model can judge: a model is written for a dialect of tests (Vulkan,
//! OpenCL), and the only trace of that in a cat file is the base sets it reads. A base
//! set that tests of a dialect never produce (Vulkan tests have no seq_cst operations,
//! OpenCL tests no availability operations) is empty in every one of their executions,
//! so a model that reads it would judge them as if that part of the model were switched
//! off: an answer that looks right and is not. [`Model::foreign_bases`] names such sets;
//! vkherd refuses to judge a test with a model that reads any (docs/models.md, "Models
//! and dialects").

use crate::base::{BaseName, BASES};
use crate::ir::Op;
use crate::Model;
use vkherd_model::Dialect;

/// The base names that tests of `dialect` never produce: empty in every execution of
/// every test of the dialect, whatever its instructions (checked on the corpus by
/// crates/vkherd/tests/dialects.rs).
pub fn never_produced(dialect: Dialect) -> &'static [BaseName] {
    use BaseName::*;
    match dialect {
        // The OpenCL-only sets (docs/opencl.md).
        Dialect::Vulkan => &[SeqCst, ScopeWi],
        // OpenCL has two address spaces (SC0 global, SC1 local), no availability or
        // visibility operations, no non-private marks and no ssw declarations.
        Dialect::OpenCl => &[
            Sc2, Sc3, SemSc2, SemSc3, Av, Vis, SemAv, SemVis, AvDevice, VisDevice, NonPriv, Ssw,
        ],
    }
}

impl Model {
    /// The base names the model's results depend on: those its checks (flags included)
    /// and `co` read, directly or through definitions, in the order of [`BASES`].
    /// Definitions nothing reads do not count.
    pub fn bases_read(&self) -> Vec<BaseName> {
        self.bases_read
            .get_or_init(|| self.find_bases_read())
            .clone()
    }

    fn find_bases_read(&self) -> Vec<BaseName> {
        let roots = self.checks.iter().map(|c| c.node).chain(self.named("co"));
        let reach = self.graph.cone(roots, Vec::new());
        let mut read = vec![false; BASES.len()];
        for (node, reached) in self.graph.nodes.iter().zip(&reach) {
            if let (Op::Base(i), true) = (&node.op, reached) {
                read[*i as usize] = true;
            }
        }
        BASES
            .iter()
            .zip(read)
            .filter(|(_, r)| *r)
            .map(|(b, _)| b.id)
            .collect()
    }

    /// The base names the model reads that tests of `dialect` never produce: empty when
    /// the model can judge them.
    pub fn foreign_bases(&self, dialect: Dialect) -> Vec<BaseName> {
        let never = never_produced(dialect);
        self.bases_read()
            .into_iter()
            .filter(|b| never.contains(b))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bundled_model_is_for_its_own_dialect_only() {
        let vulkan = Model::bundled("vulkan", &[]).unwrap();
        assert_eq!(vulkan.foreign_bases(Dialect::Vulkan), []);
        assert!(vulkan
            .foreign_bases(Dialect::OpenCl)
            .contains(&BaseName::Av));
        let opencl = Model::bundled("opencl", &[]).unwrap();
        assert_eq!(opencl.foreign_bases(Dialect::OpenCl), []);
        assert!(opencl
            .foreign_bases(Dialect::Vulkan)
            .contains(&BaseName::SeqCst));
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
        assert_eq!(m.bases_read(), [Av, Po, Asmo, Rf]);
        assert_eq!(m.foreign_bases(Dialect::Vulkan), []);
        assert_eq!(m.foreign_bases(Dialect::OpenCl), [Av]);
    }
}
