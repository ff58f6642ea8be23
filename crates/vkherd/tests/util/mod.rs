//! What the CLI tests share: running the `vkherd` binary, reading its output, the
//! repository's root and scratch files under cargo's per-target temporary directory.
//! The modules of this one binary run in parallel in one process: their scratch names
//! (and the `std::env::temp_dir()` ones, which carry the process id) must differ from
//! module to module, as they did when the modules were binaries of their own.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `vkherd` binary cargo built for these tests.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vkherd"))
}

/// Runs `vkherd ARGS` in the current directory.
pub fn vkherd(args: &[&str]) -> Output {
    bin().args(args).output().expect("run vkherd")
}

/// Runs `vkherd ARGS` with the variables `env` set.
pub fn vkherd_with_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    bin()
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run vkherd")
}

/// Runs `vkherd ARGS` from the repository's root: the exit code, stdout and stderr.
pub fn run_in_root(args: &[&str]) -> (i32, String, String) {
    let out = bin().current_dir(root()).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// Bytes a process wrote, as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `name` in cargo's temporary directory for these tests (nothing is created).
pub fn tmp_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// An empty directory `name` in cargo's temporary directory (emptied if it was there).
pub fn fresh_dir(name: &str) -> PathBuf {
    let d = tmp_path(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create a test directory");
    d
}

/// Writes `contents` to `path`, making its directory; returns the path as a string.
pub fn write_file(path: &Path, contents: &str) -> String {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create a directory");
    }
    std::fs::write(path, contents).expect("write a test file");
    path.to_str().unwrap().to_string()
}

/// The corpus file or directory `rel` (below litmus-tests/), as a string.
pub fn corpus(rel: &str) -> String {
    root()
        .join("litmus-tests")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

/// Whether Graphviz's `dot` runs here (tests that need it skip, saying so, without it).
pub fn dot_installed() -> bool {
    Command::new("dot")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `dot -Tsvg` of `graph`: the SVG, or what dot said when it failed or warned.
pub fn render(graph: &str) -> Result<String, String> {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run dot");
    let mut stdin = child.stdin.take().expect("piped");
    let input = graph.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("dot runs");
    let _ = writer.join();
    if out.status.success() && out.stderr.is_empty() {
        Ok(text(&out.stdout))
    } else {
        Err(format!("{:?}: {}", out.status.code(), text(&out.stderr)))
    }
}
