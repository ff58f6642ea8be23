//! Every corpus test that observe can express gives a module that passes Debian's
//! `spirv-val` for Vulkan 1.3 (skipped, visibly, when spirv-val or the corpus is absent),
//! and the generator's own checks.

use std::path::{Path, PathBuf};
use std::process::Command;
use vkherd_observe::plan::{Plan, Width};
use vkherd_observe::spirv::{self, ShaderConfig};
use vkherd_observe::ObserveError;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../litmus-tests")
}

fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            // litmus-tests/ptx/: PTX tests (issue 31), not Vulkan.
            if p.file_name().is_some_and(|n| n.to_string_lossy() == "ptx") {
                continue;
            }
            litmus_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "litmus") {
            out.push(p);
        }
    }
}

/// Each Vulkan corpus test: its path and its module, or why it is refused.
fn modules() -> Vec<(PathBuf, Result<Vec<u32>, ObserveError>)> {
    let mut files = Vec::new();
    litmus_files(&corpus(), &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|f| {
            let src = std::fs::read_to_string(&f).expect("readable");
            if vkherd_dialects::opencl::is_opencl(&src) {
                return None;
            }
            let test = vkherd_dialects::vulkan::parse_litmus(&src).expect("corpus parses");
            let program = vkherd_dialects::vulkan::lower_litmus(&test).expect("corpus lowers");
            let module = Plan::new(&program).and_then(|plan| {
                let cfg = ShaderConfig {
                    workgroup_size: 64,
                    unroll: 2,
                    width: if plan.needs.int64 {
                        Width::W64
                    } else {
                        Width::W32
                    },
                    pieces_per_workgroup: 4,
                };
                spirv::generate(&program, &plan, &cfg)
            });
            Some((f, module))
        })
        .collect()
}

fn spirv_val() -> Option<PathBuf> {
    let ok = Command::new("spirv-val")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then(|| PathBuf::from("spirv-val"))
}

#[test]
fn corpus_modules_pass_the_generators_checks() {
    let mods = modules();
    if mods.is_empty() {
        eprintln!("SKIPPED: no corpus at {}", corpus().display());
        return;
    }
    let mut made = 0;
    for (f, m) in &mods {
        match m {
            Ok(_) => made += 1,
            Err(ObserveError::Unsupported { .. }) => {}
            Err(e) => panic!("{}: {e}", f.display()),
        }
    }
    // Most of the corpus is expressible (the rest crosses queue families, uses ssw,
    // avdevice/visdevice, sc2, quorum barriers or barriers in loops).
    assert!(
        made * 2 > mods.len(),
        "only {made} of {} modules made",
        mods.len()
    );
}

#[test]
fn corpus_modules_pass_spirv_val() {
    let Some(val) = spirv_val() else {
        eprintln!("SKIPPED: spirv-val not installed (Debian: apt-get install spirv-tools)");
        return;
    };
    let mods = modules();
    if mods.is_empty() {
        eprintln!("SKIPPED: no corpus at {}", corpus().display());
        return;
    }
    let dir = std::env::temp_dir().join(format!("vkherd-spirv-val-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (f, m) in &mods {
        let Ok(words) = m else { continue };
        let path = dir.join("m.spv");
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&path, bytes).unwrap();
        let out = Command::new(&val)
            .args(["--target-env", "vulkan1.3"])
            .arg(&path)
            .output()
            .unwrap();
        checked += 1;
        if !out.status.success() {
            failures.push(format!(
                "{}: {}{}",
                f.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} of {checked} modules fail spirv-val:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("spirv-val passed {checked} modules");
    assert!(checked > 0);
}
