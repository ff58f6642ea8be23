//! `vkherd serve` as a server is tested: started as the README says (port 0 here), its
//! answers compared byte for byte with the command line's `--json` on the corpus, its
//! errors with the CLI's, and loaded with concurrent and hostile requests.
//! crates/serve/tests tests the server alone; serve_browser.rs drives the page.

use crate::files;
use crate::util::{bin, root};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::time::Duration;

/// A `vkherd serve` process, killed when dropped.
pub struct Served {
    child: Child,
    pub addr: SocketAddr,
}

impl Served {
    /// Starts `vkherd serve --bind 127.0.0.1:0 ARGS` and reads its address from the first
    /// line it prints.
    pub fn start(args: &[&str]) -> Served {
        let mut child = bin()
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(args)
            .current_dir(root())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start vkherd serve");
        let mut out = BufReader::new(child.stdout.take().expect("piped"));
        let mut line = String::new();
        out.read_line(&mut line).expect("the first line");
        let addr = line
            .trim()
            .strip_prefix("vkherd serve: listening on http://")
            .and_then(|s| s.strip_suffix('/'))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .parse()
            .expect("an address");
        // Keep reading what it prints, so that it never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        Served { child, addr }
    }

    /// The server's peak resident memory (VmHWM), in kB, where /proc has it.
    pub fn peak_memory_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An answer: the status, `Retry-After`, the body.
pub struct Reply {
    pub status: u16,
    pub retry_after: Option<String>,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// One request on its own connection (a guard fails a test whose server never answers).
pub fn request(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(300)))
        .unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    let _ = stream.write_all(body);
    let mut data = Vec::new();
    stream.read_to_end(&mut data).expect("read the answer");
    let text = String::from_utf8(data).expect("UTF-8 answers");
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let retry_after = head.lines().find_map(|l| {
        l.to_ascii_lowercase()
            .strip_prefix("retry-after:")
            .map(|v| v.trim().to_string())
    });
    Reply {
        status,
        retry_after,
        body: body.to_string(),
    }
}

pub fn post(addr: SocketAddr, path: &str, body: &Value) -> Reply {
    request(addr, "POST", path, body.to_string().as_bytes())
}

/// A `--json` object with its time (the one field two runs differ in) blanked.
fn timeless(json: &str) -> String {
    let key = "\"seconds\":";
    let Some(at) = json.find(key) else {
        return json.to_string();
    };
    let from = at + key.len();
    let len = json[from..].find([',', '}']).expect("a number");
    format!("{}0{}", &json[..from], &json[from + len..])
}

/// The `report` member of a run's answer, as the server wrote it (its bytes).
fn report_text(body: &str) -> String {
    let members: std::collections::HashMap<String, Box<serde_json::value::RawValue>> =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("not an answer ({e}): {body}"));
    members["report"].get().to_string()
}

#[test]
fn every_corpus_test_gets_the_command_lines_json_byte_for_byte() {
    let served = Served::start(&[]);
    // The server's limits, given to the CLI: the run information says them.
    let (_, cli, _) = crate::util::run_in_root(&[
        "--json",
        "--max-candidates",
        "5000000",
        "--timeout",
        "10",
        "litmus-tests",
    ]);
    // The CLI's object of each file, by its file.
    let by_file: std::collections::HashMap<String, &str> = cli
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["file"].as_str().unwrap().to_string(), l)
        })
        .collect();
    let files = files::litmus_files(&root().join("litmus-tests"));
    assert_eq!(by_file.len(), files.len());
    for file in &files {
        let rel = file.strip_prefix(root()).unwrap().to_str().unwrap();
        let cli_line = by_file[rel];
        let source = std::fs::read_to_string(file).unwrap();
        let r = post(
            served.addr,
            "/api/run",
            &json!({"test": source, "file": rel}),
        );
        assert_eq!(r.status, 200, "{rel}: {}", r.body);
        assert_eq!(timeless(&report_text(&r.body)), timeless(cli_line), "{rel}");
        // And the text report, as `vkherd FILE` prints it.
        let text = r.json()["text"].as_str().unwrap().to_string();
        assert!(text.starts_with("Test "), "{rel}");
    }
}

#[test]
fn extras_liveness_diff_and_diy_are_the_command_lines() {
    let served = Served::start(&[]);
    let file = "litmus-tests/mp/MP-relacq-wg.litmus";
    let source = std::fs::read_to_string(root().join(file)).unwrap();
    let r = post(
        served.addr,
        "/api/run",
        &json!({"test": source, "file": file, "graphs": true, "explain": true}),
    );
    assert_eq!(r.status, 200);
    let v = r.json();
    // The herd text is `vkherd FILE`'s (less the blank line after it).
    let (_, text, _) = crate::util::run_in_root(&[file]);
    assert_eq!(
        v["text"].as_str().unwrap(),
        text.trim_end_matches('\n').to_string() + "\n"
    );
    // The explanation is `vkherd explain --json`'s.
    let (_, explained, _) = crate::util::run_in_root(&["explain", "--json", file]);
    let expected: Value = serde_json::from_str(explained.trim()).unwrap();
    assert_eq!(v["explanation"]["explanation"], expected);
    let (_, explained_text, _) = crate::util::run_in_root(&["explain", file]);
    assert_eq!(v["explanation"]["text"], explained_text);
    assert!(!v["explanation"]["figures"].as_array().unwrap().is_empty());
    // One witness graph per state.
    let states = v["report"]["states"].as_array().unwrap().len();
    let figures = v["graphs"]["figures"].as_array().unwrap();
    assert_eq!(figures.len(), states);
    assert!(figures
        .iter()
        .all(|f| f["dot"].as_str().unwrap().starts_with("digraph")));

    // Liveness: the report's liveness object is `--liveness --json`'s.
    let spin = "litmus-tests/liveness";
    let live = files::litmus_files(&root().join(spin));
    let live = &live[0];
    let rel = live.strip_prefix(root()).unwrap().to_str().unwrap();
    let source = std::fs::read_to_string(live).unwrap();
    let r = post(
        served.addr,
        "/api/run",
        &json!({"test": source, "file": rel, "options": {"liveness": true, "progress": "obe"}}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let (_, cli, _) = crate::util::run_in_root(&[
        "--json",
        "--liveness",
        "--progress",
        "obe",
        "--max-candidates",
        "5000000",
        "--timeout",
        "10",
        rel,
    ]);
    assert_eq!(timeless(&report_text(&r.body)), timeless(cli.trim()));

    // diff: `vkherd diff --json`'s object.
    let spec = ("vulkan", "vulkan+no-chains");
    let chains = "litmus-tests/chains";
    for test in files::litmus_files(&root().join(chains)).iter().take(4) {
        let rel = test.strip_prefix(root()).unwrap().to_str().unwrap();
        let source = std::fs::read_to_string(test).unwrap();
        let r = post(
            served.addr,
            "/api/diff",
            &json!({"test": source, "file": rel, "a": spec.0, "b": spec.1}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let (_, cli, _) = crate::util::run_in_root(&["diff", "--json", spec.0, spec.1, rel]);
        let first: Value = serde_json::from_str(cli.lines().next().unwrap()).unwrap();
        let answer = r.json();
        if first.get("summary").is_none() {
            assert_eq!(answer["diff"], first, "{rel}");
        } else {
            // The CLI prints only the tests that differ.
            assert!(
                answer["diff"]["only_a"].as_array().unwrap().is_empty(),
                "{rel}"
            );
            assert!(
                answer["diff"]["only_b"].as_array().unwrap().is_empty(),
                "{rel}"
            );
        }
    }

    // diy: `vkherd diy CYCLE`'s test.
    let cycle = "PodWW Rfe PodRR Fre";
    let r = post(served.addr, "/api/diy", &json!({"cycle": cycle}));
    assert_eq!(r.status, 200);
    let (_, cli, _) = crate::util::run_in_root(&["diy", cycle]);
    assert_eq!(r.json()["test"], cli);
    let r = post(
        served.addr,
        "/api/diy",
        &json!({"cycle": "PodWW Rfx PodRR Fre"}),
    );
    assert_eq!(r.status, 400);
    let (_, _, err) = crate::util::run_in_root(&["diy", "PodWW Rfx PodRR Fre"]);
    assert_eq!(r.json()["text"], err);
    assert_eq!(r.json()["error"]["column"], 7);
}

#[test]
fn a_broken_test_gets_the_command_lines_located_error() {
    let served = Served::start(&[]);
    let dir = root().join("crates/vkherd/tests/malformed");
    let mut checked = 0;
    for file in files::litmus_files(&dir) {
        let Ok(source) = std::fs::read_to_string(&file) else {
            continue; // not UTF-8: the CLI reads bytes, a request carries text
        };
        let rel = file.strip_prefix(root()).unwrap().to_str().unwrap();
        let r = post(
            served.addr,
            "/api/run",
            &json!({"test": source, "file": rel}),
        );
        let out = bin()
            .current_dir(root())
            .args([
                "--json",
                "--max-candidates",
                "5000000",
                "--timeout",
                "10",
                rel,
            ])
            .output()
            .unwrap();
        let cli_json = String::from_utf8(out.stdout).unwrap();
        let cli: Value = serde_json::from_str(cli_json.trim()).unwrap();
        if cli.get("error").is_none() {
            continue; // a file that runs (a warning only)
        }
        assert_eq!(r.status, 400, "{rel}: {}", r.body);
        let mut answer = r.json();
        // The error as stderr shows it, then the object `--json` prints.
        let stderr = String::from_utf8(out.stderr).unwrap();
        let text = answer["text"].as_str().unwrap().to_string();
        assert!(stderr.starts_with(&text), "{rel}:\n{stderr}\n---\n{text}");
        answer.as_object_mut().unwrap().remove("text");
        assert_eq!(answer, cli, "{rel}");
        // It reads as the CLI's own type.
        let _: vkherd::json::ErrorLine = serde_json::from_value(answer).unwrap();
        checked += 1;
    }
    assert!(checked > 10, "only {checked} malformed tests");
}

#[test]
fn requests_cannot_name_files_or_raise_limits() {
    let served = Served::start(&["--max-candidates", "1000", "--max-unroll", "3"]);
    let source =
        std::fs::read_to_string(root().join("litmus-tests/mp/MP-relacq-wg.litmus")).unwrap();
    for model in [
        "/etc/passwd",
        "crates/cat/models/vulkan.cat",
        "../vulkan.cat",
    ] {
        let r = post(
            served.addr,
            "/api/run",
            &json!({"test": source, "options": {"model": model}}),
        );
        assert_eq!(r.status, 400);
        assert!(r.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not model files"));
    }
    let r = post(
        served.addr,
        "/api/diff",
        &json!({"test": source, "a": "vulkan", "b": "/etc/passwd+x"}),
    );
    assert_eq!(r.status, 400);
    let r = post(
        served.addr,
        "/api/run",
        &json!({"test": source, "options": {"unroll": 4}}),
    );
    assert_eq!(r.status, 400);
    // A big search stops at the server's limit, whatever the request asks.
    let big = crate::util::run_in_root(&["gen", "iriw", "6"]).1;
    let r = post(
        served.addr,
        "/api/run",
        &json!({"test": big, "options": {"max_candidates": 1_000_000_000u64, "timeout": 1e9}}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let report = &r.json()["report"];
    assert_eq!(report["partial"], true);
    assert_eq!(report["limits"]["max_candidates"], 1000);
    assert!(report["stats"]["candidates"].as_u64().unwrap() <= 1000);
    // And in time: a request may ask for less time than the server's.
    let served_long = Served::start(&[]);
    let r = post(
        served_long.addr,
        "/api/run",
        &json!({"test": big, "options": {"timeout": 0.2}, "graphs": true, "explain": true}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["report"]["limits"]["timeout_seconds"], 0.2);
    // A stopped run has no extras, and says why.
    if v["report"]["partial"] == true {
        assert!(v["graphs"]["error"]
            .as_str()
            .unwrap()
            .contains("stopped by a limit"));
    }
    // Every error body of the server reads as the CLI's error object.
    for r in [
        request(served.addr, "POST", "/api/run", b"{"),
        request(served.addr, "GET", "/nowhere", b""),
    ] {
        assert!((400..500).contains(&r.status));
        let _: vkherd::json::ErrorLine = serde_json::from_str(&r.body).unwrap();
    }
}

#[test]
fn many_clients_at_once_are_all_answered_in_bounded_memory() {
    let served = Served::start(&["--max-runs", "2"]);
    let tests: Vec<(String, String)> = files::litmus_files(&root().join("litmus-tests/mp"))
        .into_iter()
        .chain(files::litmus_files(&root().join("litmus-tests/sb")))
        .map(|f| {
            let rel = f
                .strip_prefix(root())
                .unwrap()
                .to_str()
                .unwrap()
                .to_string();
            (rel, std::fs::read_to_string(&f).unwrap())
        })
        .collect();
    // What each test's answer must be, asked one at a time.
    let expected: Vec<String> = tests
        .iter()
        .map(|(rel, source)| {
            let r = post(
                served.addr,
                "/api/run",
                &json!({"test": source, "file": rel}),
            );
            assert_eq!(r.status, 200);
            timeless(&report_text(&r.body))
        })
        .collect();
    let (clients, each) = (12, 25);
    let tests = std::sync::Arc::new((tests, expected));
    let handles: Vec<_> = (0..clients)
        .map(|c| {
            let (tests, addr) = (tests.clone(), served.addr);
            std::thread::spawn(move || {
                let (mut ok, mut busy) = (0u64, 0u64);
                for k in 0..each {
                    let i = (c * each + k) % tests.0.len();
                    let (rel, source) = &tests.0[i];
                    let r = post(
                        addr,
                        "/api/run",
                        &json!({"test": source, "file": rel, "graphs": k % 3 == 0}),
                    );
                    match r.status {
                        200 => {
                            assert_eq!(timeless(&report_text(&r.body)), tests.1[i], "{rel}");
                            ok += 1;
                        }
                        503 => {
                            assert_eq!(r.retry_after.as_deref(), Some("2"));
                            busy += 1;
                        }
                        s => panic!("{rel}: status {s}: {}", r.body),
                    }
                }
                (ok, busy)
            })
        })
        .collect();
    let (mut ok, mut busy) = (0, 0);
    for h in handles {
        let (o, b) = h.join().expect("a client");
        ok += o;
        busy += b;
    }
    assert_eq!(ok + busy, (clients * each) as u64, "an answer was lost");
    assert!(ok > 0);
    eprintln!("serve load: {ok} answered, {busy} busy");
    if let Some(kb) = served.peak_memory_kb() {
        eprintln!("serve load: peak memory {} MB", kb / 1024);
        assert!(kb < 1024 * 1024, "the server's memory peaked at {kb} kB");
    }
    // Still serving.
    assert_eq!(
        post(served.addr, "/api/run", &json!({"test": tests.0[0].1})).status,
        200
    );
}

/// The API names a model's flags as the command line does (docs/semantics.md, "Flags"):
/// vulkan-asserts raises its `not-locordcomplete` assert beside the data race on
/// MP-avwg-crosswg (tests/model_flags.rs checks the command line's words).
#[test]
fn a_models_flags_are_named_in_the_report_and_the_text() {
    let served = Served::start(&[]);
    let file = "litmus-tests/mp/MP-avwg-crosswg.litmus";
    let source = std::fs::read_to_string(root().join(file)).unwrap();
    let r = post(
        served.addr,
        "/api/run",
        &json!({"test": source, "file": file, "options": {"model": "cat:vulkan-asserts"}}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["report"]["flag_data_race"], true);
    assert_eq!(
        v["report"]["flags"],
        json!(["data-race", "not-locordcomplete"])
    );
    let text = v["text"].as_str().unwrap();
    assert!(
        text.contains("Flag data-race\nFlag not-locordcomplete\n"),
        "{text}"
    );
}
