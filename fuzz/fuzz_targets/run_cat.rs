//! A fuzzed cat model, compiled and, when it compiles and defines `co` (or `locord`),
//! run on a small test under tight limits: nothing panics, overflows its stack or hangs,
//! and every compile error names a real place in the model.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use vkherd::models::{ModelChoice, ModelSpec};
use vkherd::{report, Options, RunConfig};

/// Message passing through a workgroup-scoped release/acquire pair, with a plain
/// location: rf, asmo, fences' sets and races all non-empty somewhere.
const TEST: &str = "VULKAN MP
{ x=0; y=0; }
P0@sg 0,wg 0,qf 0 | P1@sg 0,wg 1,qf 0 ;
st.sc0 x, 1 | ld.atom.acq.wg.sc0.semsc0 r0, y ;
st.atom.rel.wg.sc0.semsc0 y, 1 | ld.sc0 r1, x ;
exists (1:r0=1 /\\ 1:r1=0)
";

fn program() -> &'static vkherd::LoweredProgram {
    static P: OnceLock<vkherd::LoweredProgram> = OnceLock::new();
    P.get_or_init(|| vkherd::load_litmus(TEST).expect("the fuzz test parses"))
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 8192 {
        return;
    }
    let source = common::text(data);
    let name = "/nonexistent-vkherd-fuzz/fuzz.cat";
    let src = vkherd_cat::Source {
        name: name.to_string(),
        text: Arc::from(source.as_str()),
    };
    let model = match vkherd_cat::Model::compile(src, &BTreeSet::new()) {
        Ok(m) => m,
        Err(e) => {
            if e.file == name {
                common::check_diagnostic(&source, &e.diagnostic);
            }
            let _ = e.render();
            return;
        }
    };
    if model.named("co").is_none() {
        return;
    }
    let opts = Options {
        model: ModelChoice::given(ModelSpec::cat(Arc::new(model))),
        run: RunConfig {
            max_candidates: Some(500),
            timeout: Some(Duration::from_millis(500)),
            ..RunConfig::default()
        },
        ..Options::default()
    };
    if let Ok(rep) = vkherd::run(program(), &opts) {
        let _ = report::herd_text(&rep);
    }
});
