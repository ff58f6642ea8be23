//! Every crate's integration tests are one binary (`autotests = false`): a test file that
//! its crate's tests/tests.rs does not declare would never be compiled, silently. This
//! checks that each `.rs` file and module folder in `crates/*/tests/` is declared.

use crate::util::root;

#[test]
fn every_integration_test_file_of_every_crate_is_declared_in_its_tests_rs() {
    let mut undeclared = Vec::new();
    let mut crates = 0;
    for krate in std::fs::read_dir(root().join("crates")).unwrap() {
        let tests = krate.unwrap().path().join("tests");
        let Ok(root_file) = std::fs::read_to_string(tests.join("tests.rs")) else {
            continue;
        };
        crates += 1;
        let declared = |name: &str| {
            root_file.lines().any(|l| {
                let l = l.trim();
                l == format!("mod {name};") || l == format!("pub mod {name};")
            })
        };
        for entry in std::fs::read_dir(&tests).unwrap() {
            let path = entry.unwrap().path();
            let module = if path.is_dir() {
                // A module folder (util/, common/); data folders have no mod.rs.
                path.join("mod.rs")
                    .exists()
                    .then(|| path.file_name().unwrap().to_string_lossy().to_string())
            } else if path.extension().is_some_and(|e| e == "rs") {
                let stem = path.file_stem().unwrap().to_string_lossy().to_string();
                (stem != "tests").then_some(stem)
            } else {
                None
            };
            if let Some(m) = module {
                if !declared(&m) {
                    undeclared.push(path.display().to_string());
                }
            }
        }
    }
    assert!(crates >= 5, "found the tests of only {crates} crates");
    assert!(
        undeclared.is_empty(),
        "not declared in their crate's tests/tests.rs (so never compiled): {undeclared:?}"
    );
}
