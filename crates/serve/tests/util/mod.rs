//! A server on a free port with a stand-in backend, and a plain HTTP/1.1 client (one
//! request per connection) that can also send what no well-behaved client sends.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use vkherd_serve::{
    Answer, Backend, Bounds, Config, DiffRequest, DiyRequest, Limits, Refusal, RunRequest, Server,
};

/// A backend whose runs do what their test says: `panic` panics, `block` waits until
/// [`Gate::open`] (saying on `started` that it began), `refuse` is refused, anything
/// else is echoed with the bounds the server gave it.
pub struct StandIn {
    gate: Arc<Gate>,
    started: Mutex<Sender<()>>,
}

#[derive(Default)]
pub struct Gate {
    open: Mutex<bool>,
    changed: Condvar,
}

impl Gate {
    pub fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.changed.notify_all();
    }

    fn wait(&self) {
        let mut open = self.open.lock().unwrap();
        while !*open {
            open = self.changed.wait(open).unwrap();
        }
    }
}

impl Backend for StandIn {
    fn catalog(&self, limits: &Limits) -> String {
        serde_json::json!({ "max_runs": limits.max_runs }).to_string()
    }

    fn run(&self, request: &RunRequest, bounds: &Bounds) -> Answer {
        match request.test.as_str() {
            "panic" => panic!("a stand-in panic"),
            "block" => {
                let _ = self.started.lock().unwrap().send(());
                self.gate.wait();
            }
            "refuse" => {
                return Err(Refusal {
                    status: 400,
                    body: r#"{"file":"t","error":{"location":"t:1:1","line":1,"column":1,"message":"no"}}"#.into(),
                })
            }
            _ => {}
        }
        Ok(serde_json::json!({
            "test": request.test,
            "timeout": bounds.timeout.as_secs_f64(),
            "max_candidates": bounds.max_candidates,
        })
        .to_string())
    }

    fn diff(&self, request: &DiffRequest, _: &Bounds) -> Answer {
        Ok(serde_json::json!({ "a": request.a, "b": request.b }).to_string())
    }

    fn diy(&self, request: &DiyRequest) -> Answer {
        Ok(serde_json::json!({ "cycle": request.cycle }).to_string())
    }
}

/// A running server: its address, its backend's gate, and the runs that started.
pub struct Running {
    pub addr: SocketAddr,
    pub gate: Arc<Gate>,
    pub started: Receiver<()>,
}

/// Limits small enough for tests to reach.
pub fn limits() -> Limits {
    Limits {
        max_runs: 2,
        timeout: Duration::from_secs(5),
        max_candidates: 1000,
        max_unroll: 4,
        max_body: 4096,
        max_connections: 64,
        read_timeout: Duration::from_secs(1),
    }
}

/// Starts a server with `limits` on a free port, serving until the tests end.
pub fn start(limits: Limits) -> Running {
    let gate = Arc::new(Gate::default());
    let (tx, started) = channel();
    let backend = StandIn {
        gate: gate.clone(),
        started: Mutex::new(tx),
    };
    let config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        limits,
    };
    let server = Server::bind(&config, Arc::new(backend)).expect("bind a free port");
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || server.run());
    Running {
        addr,
        gate,
        started,
    }
}

/// An answer: status, headers (names in lower case), body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The message of an error body (the object `--json` prints for a failed file).
    pub fn error_message(&self) -> String {
        let v = self.json();
        assert_eq!(v["error"]["location"], "request", "{v}");
        v["error"]["message"]
            .as_str()
            .expect("a message")
            .to_string()
    }
}

/// A connection, with a guard against a server that never answers (the test fails
/// rather than hangs; no test asserts on time).
pub fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    stream
}

/// Sends `raw` bytes as they are and reads the answer until the server closes.
pub fn exchange(addr: SocketAddr, raw: &[u8]) -> Reply {
    let mut stream = connect(addr);
    stream.write_all(raw).expect("send");
    read_reply(&mut stream)
}

pub fn read_reply(stream: &mut TcpStream) -> Reply {
    let mut data = Vec::new();
    stream.read_to_end(&mut data).expect("read the answer");
    parse(&data)
}

pub fn parse(data: &[u8]) -> Reply {
    let end = data
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no answer: {:?}", String::from_utf8_lossy(data)));
    let head = String::from_utf8_lossy(&data[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: data[end + 4..].to_vec(),
    }
}

/// `METHOD path` with `body`, one request on its own connection.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> Reply {
    let mut raw = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    raw.extend_from_slice(body);
    exchange(addr, &raw)
}

pub fn get(addr: SocketAddr, path: &str) -> Reply {
    request(addr, "GET", path, b"")
}

pub fn post(addr: SocketAddr, path: &str, body: &serde_json::Value) -> Reply {
    request(addr, "POST", path, body.to_string().as_bytes())
}
