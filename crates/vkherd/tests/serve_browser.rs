//! `vkherd serve` as a person uses it, in a real headless Chromium driven by
//! chromedriver (WebDriver): load the page, pick an example, run it, see the states
//! table and a graph; break the test and see the error marked at its line; share a link
//! and follow it. Skips, saying so, where Chromium or chromedriver is not installed
//! (`.ci/run` installs both on CI).

use crate::serve::Served;
use crate::util::{root, tmp_path};
use fantoccini::{Client, ClientBuilder, Locator};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Chromium and chromedriver on PATH, if both are.
fn browser() -> Option<(&'static str, &'static str)> {
    let works = |b: &str| {
        Command::new(b)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| works(b))?;
    works("chromedriver").then_some((chromium, "chromedriver"))
}

/// A chromedriver process, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_driver(driver: &str) -> Driver {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    // Owned by a Driver at once: killed on every path, the failing ones included.
    let started = Driver {
        child: Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
        port,
    };
    // Ready once it accepts connections (a guard, not a timing assertion).
    for _ in 0..600 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return started;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("chromedriver did not start");
}

async fn session(chromium: &str, port: u16) -> Client {
    let binary = which(chromium);
    let profile = tmp_path("serve-browser-profile");
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": binary,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1500", format!("--user-data-dir={}", profile.display())],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session")
}

fn which(program: &str) -> String {
    let out = Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .expect("sh");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

async fn js(c: &Client, script: &str) -> serde_json::Value {
    c.execute(script, vec![]).await.expect("a script")
}

/// Waits until the result pane's status is one of `wanted`, and returns it (a guard
/// fails the test past a minute; nothing is asserted on time).
async fn status(c: &Client, wanted: &[&str]) -> String {
    for _ in 0..1200 {
        let s = js(c, "return document.getElementById('result').dataset.status").await;
        if let Some(s) = s.as_str() {
            if wanted.contains(&s) {
                return s.to_string();
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the page never reached {wanted:?}");
}

/// Waits until the run's graphs are drawn.
async fn drawn(c: &Client) {
    for _ in 0..1200 {
        if js(
            c,
            "return document.getElementById('result').dataset.drawn === 'true'",
        )
        .await
            == true
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the graphs were never drawn");
}

async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.expect("find").len()
}

/// What the library says of the example (not read from the page).
fn expected_states(path: &str) -> (usize, &'static str) {
    let source = std::fs::read_to_string(root().join(path)).unwrap();
    let program = vkherd::load_litmus(&source).unwrap();
    let rep = vkherd::run(&program, &vkherd::Options::default()).unwrap();
    let verdict = match rep.verdict {
        vkherd::Verdict::Ok => "Ok",
        vkherd::Verdict::No => "No",
    };
    (rep.outcomes.states.len(), verdict)
}

#[test]
fn a_person_picks_an_example_runs_it_breaks_it_and_shares_it() {
    let Some((chromium, driver)) = browser() else {
        eprintln!("skipped: no chromium (nor chromium-browser, google-chrome) and chromedriver on PATH; the playground was not loaded in a browser");
        return;
    };
    let served = Served::start(&[]);
    let driver = start_driver(driver);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let c = session(chromium, driver.port).await;
        let base = format!("http://{}/", served.addr);
        c.goto(&base).await.unwrap();
        status(&c, &["ready"]).await;

        // Pick an example.
        let example = "mp/MP-relacq-wg.litmus";
        let file = format!("litmus-tests/{example}");
        let (states, verdict) = expected_states(&file);
        c.find(Locator::Id("example"))
            .await
            .unwrap()
            .select_by_value(example)
            .await
            .unwrap();
        for _ in 0..600 {
            if js(&c, "return document.getElementById('file').value").await == file.as_str() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        assert_eq!(
            js(&c, "return document.getElementById('source').value").await,
            text.as_str()
        );

        // Run it: the states table, the verdict, a graph drawn.
        c.find(Locator::Id("run"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert_eq!(status(&c, &["done", "error", "busy"]).await, "done");
        drawn(&c).await;
        assert_eq!(count(&c, "table.states tbody tr").await, states);
        assert_eq!(
            js(
                &c,
                "return document.querySelector('.verdict').dataset.verdict"
            )
            .await,
            verdict
        );
        assert!(
            count(&c, "#graphs figure.graph svg").await >= 1,
            "a witness graph"
        );
        assert!(
            count(&c, "#explanation figure.graph svg").await >= 1,
            "a reason's graph"
        );
        if let Ok(path) = std::env::var("VKHERD_SERVE_SCREENSHOT") {
            let png = c.screenshot().await.unwrap();
            std::fs::write(path, png).unwrap();
        }

        // Share it: the link reproduces the run in a fresh page.
        c.find(Locator::Id("share"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let mut link = String::new();
        for _ in 0..600 {
            link = js(&c, "return document.getElementById('link').value")
                .await
                .as_str()
                .unwrap_or("")
                .to_string();
            if !link.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(link.starts_with(&base) && link.contains('#'), "{link}");

        // Break it: the error is marked at its line, as the CLI locates it.
        let broken = text.replacen("st.atom.rel", "st.atom.frob", 1);
        let line = broken.lines().position(|l| l.contains("frob")).unwrap() + 1;
        let source = c.find(Locator::Id("source")).await.unwrap();
        source.clear().await.unwrap();
        source.send_keys(&broken).await.unwrap();
        c.find(Locator::Id("run"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert_eq!(status(&c, &["done", "error", "busy"]).await, "error");
        let marked = js(
            &c,
            "return [...document.querySelectorAll('#gutter span.error')].map(s => s.dataset.line)",
        )
        .await;
        assert_eq!(marked, serde_json::json!([line.to_string()]));
        let shown = js(&c, "return document.getElementById('error').textContent").await;
        let expected = vkherd::load_litmus(&broken).unwrap_err();
        let at = format!("{file}:{}:{}", expected.span.line, expected.span.column);
        assert_eq!(expected.span.line as usize, line);
        assert!(shown.as_str().unwrap().contains(&at), "{shown} lacks {at}");

        // Follow the link from elsewhere: the example's run again.
        c.goto("about:blank").await.unwrap();
        c.goto(&link).await.unwrap();
        assert_eq!(status(&c, &["done", "error", "busy"]).await, "done");
        assert_eq!(
            js(&c, "return document.getElementById('source').value").await,
            text.as_str()
        );
        assert_eq!(count(&c, "table.states tbody tr").await, states);
        c.close().await.unwrap();
    });
}
