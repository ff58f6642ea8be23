//! `vkherd serve`: the playground page and its JSON API (docs/serve.md). The server
//! (HTTP, limits, the page) is the `vkherd-serve` crate; this module is its backend,
//! which answers each request with the library as the command line does, so that an
//! answer is the CLI's, byte for byte.

mod answer;
mod catalog;
mod options;
mod refusal;

use crate::args::ServeArgs;
use crate::cli::exit::ExitStatus;
use std::sync::Arc;
use vkherd_serve::{Answer, Backend, Bounds, DiffRequest, DiyRequest, Limits, RunRequest};

pub fn run(args: &ServeArgs) -> ExitStatus {
    let config = match args.config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitStatus::BadInput;
        }
    };
    args.threads.init_threads();
    let server = match vkherd_serve::Server::bind(&config, Arc::new(Playground::new())) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot listen on {}: {e}", config.bind);
            return ExitStatus::BadInput;
        }
    };
    let addr = server.local_addr().unwrap_or(config.bind);
    let l = &config.limits;
    // The first line says where: scripts (and the tests) read the address from it.
    outln!("vkherd serve: listening on http://{addr}/");
    outln!(
        "limits: {} runs at once, {} s and {} candidates per run, --unroll up to {}, requests up to {} bytes",
        l.max_runs,
        l.timeout.as_secs_f64(),
        l.max_candidates,
        l.max_unroll,
        l.max_body
    );
    match server.run() {
        Ok(()) => ExitStatus::Ok,
        Err(e) => {
            eprintln!("error: the server stopped: {e}");
            ExitStatus::Fail
        }
    }
}

/// The backend: what it knows of the library, found once at start.
struct Playground {
    /// The model names a request may give (`vkherd models`): a request never names a
    /// file.
    models: Vec<String>,
    /// The examples, and the dialects they are in.
    corpus: catalog::Corpus,
}

impl Playground {
    fn new() -> Playground {
        Playground {
            models: vkherd::models::list().into_iter().map(|(n, _)| n).collect(),
            corpus: catalog::Corpus::load(),
        }
    }
}

impl Backend for Playground {
    fn catalog(&self, limits: &Limits) -> String {
        catalog::catalog(&self.corpus, limits)
    }

    fn run(&self, request: &RunRequest, bounds: &Bounds) -> Answer {
        answer::run(&self.models, request, bounds)
    }

    fn diff(&self, request: &DiffRequest, bounds: &Bounds) -> Answer {
        answer::diff(&self.models, request, bounds)
    }

    fn diy(&self, request: &DiyRequest) -> Answer {
        answer::diy(&self.corpus, request)
    }
}
