//! Which tests a model can judge: a model is written for a dialect of tests (Vulkan,
//! OpenCL), and the only trace of that in a cat file is the base sets it reads. A base
//! set that tests of a dialect never produce (Vulkan tests have no seq_cst operations,
//! OpenCL tests no availability operations) is empty in every one of their executions,
//! so a model that reads it would judge them as if that part of the model were switched
//! off: an answer that looks right and is not. [`Model::foreign_bases`] names such sets;
//! vkherd refuses to judge a test with a model that reads any (docs/models.md, "Models
//! and dialects").

use crate::base::BASES;
use crate::ir::Op;
use crate::Model;
use vkherd_model::Dialect;

/// The base names that tests of `dialect` never produce: empty in every execution of
/// every test of the dialect, whatever its instructions (checked on the corpus by
/// crates/vkherd/tests/dialects.rs).
pub fn never_produced(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        // The OpenCL-only sets (docs/opencl.md).
        Dialect::Vulkan => &["SC", "SCOPEWI"],
        // OpenCL has two address spaces (SC0 global, SC1 local), no availability or
        // visibility operations, no non-private marks and no ssw declarations.
        Dialect::OpenCl => &[
            "SC2",
            "SC3",
            "SEMSC2",
            "SEMSC3",
            "AV",
            "VIS",
            "SEMAV",
            "SEMVIS",
            "AVDEVICE",
            "VISDEVICE",
            "NONPRIV",
            "ssw",
        ],
    }
}

impl Model {
    /// The base names the model's results depend on: those its checks (flags included)
    /// and `co` read, directly or through definitions, in the order of [`BASES`].
    /// Definitions nothing reads do not count.
    pub fn bases_read(&self) -> Vec<&'static str> {
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
            .map(|(b, _)| b.name)
            .collect()
    }

    /// The base names the model reads that tests of `dialect` never produce: empty when
    /// the model can judge them.
    pub fn foreign_bases(&self, dialect: Dialect) -> Vec<&'static str> {
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
    fn never_produced_names_are_base_names() {
        for d in [Dialect::Vulkan, Dialect::OpenCl] {
            for name in never_produced(d) {
                assert!(crate::base::lookup(name).is_some(), "{name}");
            }
        }
    }

    #[test]
    fn each_bundled_model_is_for_its_own_dialect_only() {
        let vulkan = Model::bundled("vulkan", &[]).unwrap();
        assert_eq!(vulkan.foreign_bases(Dialect::Vulkan), Vec::<&str>::new());
        assert!(vulkan.foreign_bases(Dialect::OpenCl).contains(&"AV"));
        let opencl = Model::bundled("opencl", &[]).unwrap();
        assert_eq!(opencl.foreign_bases(Dialect::OpenCl), Vec::<&str>::new());
        assert!(opencl.foreign_bases(Dialect::Vulkan).contains(&"SC"));
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
        assert_eq!(m.bases_read(), ["AV", "po", "asmo", "rf"]);
        assert_eq!(m.foreign_bases(Dialect::Vulkan), Vec::<&str>::new());
        assert_eq!(m.foreign_bases(Dialect::OpenCl), ["AV"]);
    }
}
