//! Requests no well-behaved client sends: huge, malformed, deeply nested, not UTF-8,
//! slow. Each gets a 4xx with a message (or its connection closed), and the server goes
//! on serving.

use crate::util::{connect, exchange, limits, post, read_reply, request, start};
use serde_json::json;
use std::io::Write;

fn still_serves(addr: std::net::SocketAddr) {
    assert_eq!(post(addr, "/api/run", &json!({"test": "t"})).status, 200);
}

#[test]
fn a_body_over_the_limit_is_refused_without_being_read() {
    let s = start(limits());
    // Declared too large: answered before the body is sent at all.
    let mut stream = connect(s.addr);
    let head = format!(
        "POST /api/run HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
        1u64 << 40
    );
    stream.write_all(head.as_bytes()).unwrap();
    let r = read_reply(&mut stream);
    assert_eq!(r.status, 413);
    assert!(r
        .error_message()
        .contains("larger than this server's limit of 4096 bytes"));
    // Chunked, with no length declared: cut off once past the limit.
    let mut raw = b"POST /api/run HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".to_vec();
    for _ in 0..10 {
        raw.extend_from_slice(b"400\r\n");
        raw.extend_from_slice(&[b' '; 0x400]);
        raw.extend_from_slice(b"\r\n");
    }
    raw.extend_from_slice(b"0\r\n\r\n");
    let r = exchange(s.addr, &raw);
    assert_eq!(r.status, 413);
    // Just under the limit is read.
    let test = "x".repeat(4000);
    assert_eq!(
        post(s.addr, "/api/run", &json!({ "test": test })).status,
        200
    );
    still_serves(s.addr);
}

#[test]
fn malformed_bodies_get_a_400_that_says_why() {
    let s = start(limits());
    let deep = "[".repeat(4000); // under the body limit, far past serde_json's depth
    let deep_object = format!("{{\"test\": {}", "{\"a\":".repeat(700));
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", b"".to_vec()),
        ("not JSON", b"hello".to_vec()),
        ("truncated", br#"{"test": "abc"#.to_vec()),
        ("a list", b"[1, 2]".to_vec()),
        ("deep nesting", deep.into_bytes()),
        ("deep objects", deep_object.into_bytes()),
        ("invalid UTF-8", b"{\"test\": \"\xff\xfe\"}".to_vec()),
        ("a lone surrogate", br#"{"test": "\udc00"}"#.to_vec()),
        ("wrong type", br#"{"test": 5}"#.to_vec()),
        (
            "unknown field",
            br#"{"test": "t", "path": "/etc/passwd"}"#.to_vec(),
        ),
        ("no test", br#"{"options": {}}"#.to_vec()),
        (
            "negative unroll",
            br#"{"test": "t", "options": {"unroll": -1}}"#.to_vec(),
        ),
    ];
    for (what, body) in cases {
        let r = request(s.addr, "POST", "/api/run", &body);
        assert_eq!(r.status, 400, "{what}");
        assert!(
            r.error_message().starts_with("the request is not the JSON"),
            "{what}: {}",
            r.error_message()
        );
    }
    still_serves(s.addr);
}

#[test]
fn garbage_instead_of_http_is_refused_and_the_server_goes_on() {
    let s = start(limits());
    for raw in [
        b"\x00\x01\x02\x03\r\n\r\n".to_vec(),
        b"GET / HTTP/9.9\r\n\r\n".to_vec(),
        format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(200_000)).into_bytes(),
        format!(
            "GET / HTTP/1.1\r\nHost: x\r\nX: {}\r\n\r\n",
            "b".repeat(200_000)
        )
        .into_bytes(),
    ] {
        let mut stream = connect(s.addr);
        let _ = stream.write_all(&raw);
        let mut data = Vec::new();
        // An error status, or the connection closed: either way no crash.
        let _ = std::io::Read::read_to_end(&mut stream, &mut data);
        if !data.is_empty() {
            let r = crate::util::parse(&data);
            assert!((400..500).contains(&r.status), "{}", r.status);
        }
    }
    still_serves(s.addr);
}

#[test]
fn a_slow_client_is_cut_off() {
    let s = start(limits());
    // Headers that never end: the connection is closed (hyper's header deadline).
    let mut stream = connect(s.addr);
    stream
        .write_all(b"POST /api/run HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let mut data = Vec::new();
    let _ = std::io::Read::read_to_end(&mut stream, &mut data);
    assert!(
        data.is_empty() || crate::util::parse(&data).status == 408,
        "{:?}",
        String::from_utf8_lossy(&data)
    );
    // A body that stops arriving: 408 (tower-http's body deadline).
    let mut stream = connect(s.addr);
    stream
        .write_all(b"POST /api/run HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"test\": ")
        .unwrap();
    let r = read_reply(&mut stream);
    assert_eq!(r.status, 408);
    assert!(r.error_message().contains("did not arrive in time"));
    still_serves(s.addr);
}
