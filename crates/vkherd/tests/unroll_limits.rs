//! Deep searches and runaway unroll bounds (issue 21, item 1; docs/errors.md "Limits"):
//! a spin loop unrolled far finishes or stops at a documented limit with exit code 2 or
//! 3, never an abort; a bound far past the limits is refused at once.

use crate::util::{text, tmp_path, vkherd_with_env as vkherd};

/// `vkherd gen FAMILY N`, written to a file of its own.
fn generated(family: &str, n: &str) -> String {
    let out = vkherd(&["gen", family, n], &[]);
    assert_eq!(out.status.code(), Some(0));
    let dir = tmp_path("unroll-limits");
    std::fs::create_dir_all(&dir).expect("a test directory");
    // One file per call: the tests run in parallel, and one writing a shared file while
    // another reads it gave "unexpected end of input".
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = dir.join(call.to_string());
    std::fs::create_dir_all(&dir).expect("a test directory");
    let path = dir.join(format!("{family}-{n}.litmus"));
    std::fs::write(&path, out.stdout).expect("write the test");
    path.to_str().unwrap().to_string()
}

#[test]
fn a_spin_lock_unrolled_far_runs_on_small_worker_stacks() {
    // 256 KiB per worker thread (RUST_MIN_STACK sizes rayon's threads): the former
    // recursive search overflowed it at --unroll 3 already and aborted (exit 134).
    let f = generated("spinlock", "2");
    let out = vkherd(
        &["-j", "1", "--unroll", "20", &f],
        &[("RUST_MIN_STACK", "262144")],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    // One invocation takes the lock at once, the other fails 0 to 20 times first: 2 * 21
    // executions, every one with x == 2.
    assert!(
        stdout.contains("Observation spinlock-2 Always 42 0\n"),
        "{stdout}"
    );
}

#[test]
fn an_unroll_bound_of_100000_stops_at_the_path_limit() {
    // Listing the paths would walk 10^10 steps (the run was killed after 50 s): the
    // limit on the steps of a thread's paths stops it as soon as it is passed.
    let f = generated("spinlock", "2");
    let out = vkherd(&["--unroll", "100000", &f], &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with(
            "error: the paths of thread P0 execute more than 10000000 instructions in all at --unroll 100000: lower --unroll or simplify the loops\n"
        ),
        "{stderr}"
    );
    // Placed at the thread's loop, as every error about a thread's paths.
    assert!(stderr.contains("spinlock-2.litmus:7:1\n"), "{stderr}");
}

#[test]
fn a_path_combination_over_the_event_limit_is_refused() {
    // At --unroll 2100 each invocation's longest path runs its RMW 2101 times, then the
    // load, the store and the unlock: 2 * 2104 = 4208 events, more than 4096.
    let f = generated("spinlock", "2");
    let out = vkherd(&["--unroll", "2100", "--json", &f], &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(
            "error: a path combination has 4208 events at --unroll 2100 (more than 4096): lower --unroll or simplify the loops (this concerns the test as a whole)\n"
        ),
        "{stderr}"
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\"error\":{"), "{stdout}");
}
