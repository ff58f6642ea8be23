//! The run slots: beyond them a request is answered 503 with Retry-After at once; a
//! panic is a 500 for its request alone; every request of a crowd is answered.

use crate::util::{limits, post, start};
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use vkherd_serve::Limits;

#[test]
fn a_request_beyond_the_slots_is_told_busy_and_retries_once_one_is_free() {
    let s = start(Limits {
        max_runs: 1,
        ..limits()
    });
    let addr = s.addr;
    let first = std::thread::spawn(move || post(addr, "/api/run", &json!({"test": "block"})));
    s.started.recv().expect("the first run started");
    let busy = post(addr, "/api/run", &json!({"test": "t"}));
    assert_eq!(busy.status, 503);
    assert_eq!(busy.header("retry-after"), Some("2"));
    assert!(
        busy.error_message().contains("busy"),
        "{}",
        busy.error_message()
    );
    // diy and diff share the slots.
    assert_eq!(post(addr, "/api/diy", &json!({"cycle": "c"})).status, 503);
    s.gate.open();
    let first = first.join().unwrap();
    assert_eq!(first.status, 200);
    assert_eq!(first.json()["test"], "block");
    assert_eq!(post(addr, "/api/run", &json!({"test": "t"})).status, 200);
}

#[test]
fn a_panic_is_a_500_for_its_request_and_the_server_goes_on() {
    let s = start(Limits {
        max_runs: 1,
        ..limits()
    });
    // Quiet: the panic is expected.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = post(s.addr, "/api/run", &json!({"test": "panic"}));
    std::panic::set_hook(hook);
    assert_eq!(r.status, 500);
    let message = r.error_message();
    assert!(
        message.contains("a stand-in panic") && message.contains("bug"),
        "{message}"
    );
    // The one slot was given back.
    for _ in 0..3 {
        assert_eq!(post(s.addr, "/api/run", &json!({"test": "t"})).status, 200);
    }
}

#[test]
fn every_request_of_a_crowd_is_answered_with_a_result_or_busy() {
    let s = start(Limits {
        max_runs: 2,
        ..limits()
    });
    let (clients, each) = (16, 40);
    let ok = Arc::new(AtomicU64::new(0));
    let busy = Arc::new(AtomicU64::new(0));
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            let (ok, busy, addr) = (ok.clone(), busy.clone(), s.addr);
            std::thread::spawn(move || {
                for k in 0..each {
                    let test = format!("client {c} request {k}");
                    let r = post(addr, "/api/run", &json!({ "test": test }));
                    match r.status {
                        200 => {
                            // Each answer is its own request's.
                            assert_eq!(r.json()["test"], test);
                            ok.fetch_add(1, Ordering::Relaxed);
                        }
                        503 => {
                            assert_eq!(r.header("retry-after"), Some("2"));
                            busy.fetch_add(1, Ordering::Relaxed);
                        }
                        other => panic!("status {other}: {:?}", String::from_utf8_lossy(&r.body)),
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a client");
    }
    let (ok, busy) = (ok.load(Ordering::Relaxed), busy.load(Ordering::Relaxed));
    assert_eq!(ok + busy, clients * each, "no answer lost");
    assert!(ok > 0);
}
