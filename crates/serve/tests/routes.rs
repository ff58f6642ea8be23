//! What each route answers, and that every answer without a result is the error object
//! `--json` prints, with a 4xx for the request's faults.

use crate::util::{get, limits, post, request, start};
use serde_json::json;

#[test]
fn the_page_and_its_files_are_served_with_a_strict_content_security_policy() {
    let s = start(limits());
    let page = get(s.addr, "/");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let csp = page.header("content-security-policy").expect("a CSP");
    assert!(
        csp.contains("default-src 'none'") && csp.contains("script-src 'self' 'wasm-unsafe-eval'"),
        "{csp}"
    );
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    let html = String::from_utf8(page.body).unwrap();
    // Every script and style the page loads is served.
    for path in [
        "/assets/app.js",
        "/assets/style.css",
        "/assets/viz-3.31.0.js",
    ] {
        assert!(html.contains(path), "the page loads {path}");
        let file = get(s.addr, path);
        assert_eq!(file.status, 200, "{path}");
        assert!(!file.body.is_empty());
    }
    // The vendored Graphviz is versioned in its path: browsers may keep it.
    let viz = get(s.addr, "/assets/viz-3.31.0.js");
    assert!(viz.header("cache-control").unwrap().contains("immutable"));
    for licence in ["viz-js", "graphviz", "expat"] {
        let l = get(s.addr, &format!("/assets/licences/{licence}.txt"));
        assert_eq!(l.status, 200, "{licence}");
    }
}

#[test]
fn examples_come_from_the_embedded_corpus_and_never_from_the_disk() {
    let s = start(limits());
    let (path, text) = vkherd_serve::corpus::FILES
        .iter()
        .find(|(p, _)| p.starts_with("mp/"))
        .expect("the corpus is embedded");
    let r = get(s.addr, &format!("/api/example/{path}"));
    assert_eq!(r.status, 200);
    assert_eq!(r.body, text.as_bytes());
    for bad in [
        "/api/example/../../Cargo.toml",
        "/api/example/%2e%2e/%2e%2e/Cargo.toml",
        "/api/example//etc/passwd",
        "/api/example/mp/nothing.litmus",
    ] {
        let r = get(s.addr, bad);
        assert_eq!(r.status, 404, "{bad}");
        assert!(
            r.error_message().contains("no example") || r.error_message().contains("nothing at")
        );
    }
    // The corpus is sorted as the lookup expects.
    let files = vkherd_serve::corpus::FILES;
    assert!(files.windows(2).all(|w| w[0].0 < w[1].0));
    assert!(files
        .iter()
        .all(|(p, _)| vkherd_serve::corpus::example(p).is_some()));
}

#[test]
fn runs_get_the_servers_bounds_which_a_request_may_lower_but_not_raise() {
    let s = start(limits());
    let r = post(s.addr, "/api/run", &json!({"test": "t"}));
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(
        r.json(),
        json!({"test": "t", "timeout": 5.0, "max_candidates": 1000})
    );
    let r = post(
        s.addr,
        "/api/run",
        &json!({"test": "t", "options": {"timeout": 1e9, "max_candidates": 1e15 as u64}}),
    );
    assert_eq!(
        r.json(),
        json!({"test": "t", "timeout": 5.0, "max_candidates": 1000})
    );
    let r = post(
        s.addr,
        "/api/run",
        &json!({"test": "t", "options": {"timeout": 0.25, "max_candidates": 7}}),
    );
    assert_eq!(
        r.json(),
        json!({"test": "t", "timeout": 0.25, "max_candidates": 7})
    );
    let r = post(
        s.addr,
        "/api/run",
        &json!({"test": "t", "options": {"unroll": 5}}),
    );
    assert_eq!(r.status, 400);
    assert!(r.error_message().contains("above this server's limit of 4"));
    let r = post(
        s.addr,
        "/api/run",
        &json!({"test": "t", "options": {"timeout": -1}}),
    );
    assert_eq!(r.status, 400);
    // diff and diy reach the backend too.
    let r = post(
        s.addr,
        "/api/diff",
        &json!({"test": "t", "a": "x", "b": "y"}),
    );
    assert_eq!(r.json(), json!({"a": "x", "b": "y"}));
    let r = post(s.addr, "/api/diy", &json!({"cycle": "PodWW"}));
    assert_eq!(r.json(), json!({"cycle": "PodWW"}));
    // A backend's refusal keeps its status and body.
    let r = post(s.addr, "/api/run", &json!({"test": "refuse"}));
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["error"]["line"], 1);
    assert_eq!(get(s.addr, "/api/catalog").json(), json!({"max_runs": 2}));
}

#[test]
fn wrong_paths_and_methods_are_answered_with_an_error_object() {
    let s = start(limits());
    let r = get(s.addr, "/nothing");
    assert_eq!(r.status, 404);
    assert!(r.error_message().contains("nothing at /nothing"));
    let r = get(s.addr, "/api/run");
    assert_eq!(r.status, 405);
    assert!(r.error_message().contains("method not allowed"));
    let r = request(s.addr, "DELETE", "/", b"");
    assert_eq!(r.status, 405);
    let r = request(s.addr, "POST", "/api/catalog", b"{}");
    assert_eq!(r.status, 405);
}
