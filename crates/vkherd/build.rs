//! Records the git commit the binary is built from, for `vkherd --version`.
//!
//! Without git, or outside a git checkout (a source tarball, `cargo install` from a
//! registry), the commit is `unknown` and the build goes on.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    let dirty =
        commit.is_some() && git(&["status", "--porcelain", "--untracked-files=no"]).is_some();
    let text = match commit {
        Some(c) if dirty => format!("{c}, modified"),
        Some(c) => c,
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=VKHERD_GIT_COMMIT={text}");
    // Rebuild when HEAD moves (a commit, a checkout) or the index changes.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        for file in ["HEAD", "index"] {
            println!("cargo:rerun-if-changed={dir}/{file}");
        }
        if let Some(head_ref) = git(&["symbolic-ref", "-q", "HEAD"]) {
            if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
                let path = format!("{common}/{head_ref}");
                // A ref kept only in packed-refs has no file; a missing path would make
                // cargo rerun this script on every build.
                if std::path::Path::new(&path).exists() {
                    println!("cargo:rerun-if-changed={path}");
                }
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
