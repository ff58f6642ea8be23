//! A directory run enters each directory once, whatever symbolic links lead back to it:
//! a link to an ancestor (a cycle) is not followed and gets a warning; a second link to a
//! directory already walked runs its tests once. Before: the walk followed `up -> ..`
//! until the OS refused the path, running the one test 41 times (and with two such links
//! in a tree, 2^40 times).
#![cfg(unix)]

use crate::util::{corpus, text, tmp_path, vkherd};
use std::os::unix::fs::symlink;
use std::path::PathBuf;

/// `NAME/a/SB.litmus`, and the links `links` (path below NAME, target). One kind of
/// link per tree: with several, a walk that follows them all branches at every level and
/// would take exponential time to fail rather than failing at once.
fn tree(name: &str, links: &[(&str, &str)]) -> PathBuf {
    let root = tmp_path(name);
    let _ = std::fs::remove_dir_all(&root);
    let a = root.join("a");
    std::fs::create_dir_all(&a).unwrap();
    let sb = corpus("sb/SB.litmus");
    std::fs::copy(sb, a.join("SB.litmus")).unwrap();
    for (link, target) in links {
        let link = root.join(link);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        symlink(target, link).unwrap();
    }
    root
}

#[test]
fn a_symlink_loop_runs_each_test_once_and_warns_of_the_cycle() {
    let root = tree("symlink-loop-run", &[("a/up", "..")]);
    let out = vkherd(&["-j", "1", root.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert_eq!(stdout.matches("Test SB ").count(), 1, "{stdout}");
    assert!(stdout.contains("Summary: 1 test in 1 file: "), "{stdout}");
    let warning = format!(
        "{}: Warning: a link to {}, a directory this walk is inside: not followed (a cycle)",
        root.join("a/up").display(),
        root.canonicalize().unwrap().display()
    );
    assert!(stderr.contains(&warning), "{stderr}");
}

#[test]
fn a_second_link_to_a_directory_runs_its_tests_once_without_a_warning() {
    let root = tree("symlink-alias-run", &[("b/alias", "../a")]);
    let out = vkherd(&["-j", "1", root.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert_eq!(stdout.matches("Test SB ").count(), 1, "{stdout}");
    assert!(!stderr.contains("Warning"), "{stderr}");
}

#[test]
fn a_report_of_a_symlink_loop_has_each_test_once() {
    let root = tree("symlink-loop-report", &[("a/up", "..")]);
    let page = root.with_extension("html");
    let out = vkherd(&[
        "report",
        "-j",
        "1",
        root.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        text(&out.stdout).contains(": 1 file, 0 errors"),
        "{}",
        text(&out.stdout)
    );
    assert!(stderr.contains("not followed (a cycle)"), "{stderr}");
}
