//! The `vkherd` command line: a thin shell over the library. `args` says what the user
//! asked for; `main` parses it and hands it to the command in `cmd`.

/// `println!` that ignores a closed stdout (output piped into `head`) instead of panicking.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

mod args;
mod cli;
mod cmd;

use args::{Cli, Command, ParseError};
use clap::CommandFactory;
use cli::exit::ExitStatus;
use std::io::Write;

/// mimalloc: the enumeration allocates many small bit matrices from several rayon
/// threads at once, where glibc malloc's arena locking cost ~40% of the time.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let status = match args::parse() {
        Ok(cli) => dispatch(cli),
        Err(ParseError::Argv(e)) => {
            eprintln!("{e}");
            ExitStatus::BadInput
        }
        Err(ParseError::Clap(e)) => {
            let _ = e.print();
            if e.use_stderr() {
                ExitStatus::BadInput
            } else {
                ExitStatus::Ok
            }
        }
    };
    std::process::exit(status.code());
}

/// Runs the command asked for.
fn dispatch(cli: Cli) -> ExitStatus {
    match &cli.command {
        Some(Command::Khronos {
            paths,
            common,
            limits,
        }) => {
            common.init_threads();
            match common.model() {
                Ok(m) => cmd::khronos::run(paths, &m, common, limits),
                Err(e) => ExitStatus::bad_input(&e),
            }
        }
        Some(Command::Explain {
            file,
            state,
            common,
            graphs,
            run,
        }) => {
            common.init_threads();
            let model = match common.model() {
                Ok(m) => m,
                Err(e) => return ExitStatus::bad_input(&e),
            };
            if let Err(e) = graphs.check() {
                eprintln!("{e}");
                return ExitStatus::BadInput;
            }
            let opts = run.run_args().options(&model);
            if opts.liveness.is_some() {
                return cmd::explain::run_liveness(file, &opts, common.json);
            }
            cmd::explain::run(
                file,
                state.as_deref(),
                &opts,
                cmd::explain::Output {
                    json: common.json,
                    dot: graphs.dot,
                    graph: graphs.graph.as_deref(),
                    show: &graphs.show,
                },
            )
        }
        Some(Command::Models) => {
            for (name, doc) in vkherd::models::list() {
                outln!("{name:<20} {doc}");
            }
            outln!("{:<20} {}", "FILE.cat", vkherd::models::FILE_MODELS);
            ExitStatus::Ok
        }
        Some(Command::Diff {
            model_a,
            model_b,
            paths,
            json,
            threads,
            run,
        }) => {
            threads.init_threads();
            cmd::diff::run(model_a, model_b, paths, run, *json)
        }
        Some(Command::Gen { family, n }) => match vkherd::families::generate(family, *n) {
            Ok(text) => {
                let _ = std::io::stdout().write_all(text.as_bytes());
                ExitStatus::Ok
            }
            Err(message) => {
                eprintln!("error: {message}");
                ExitStatus::BadInput
            }
        },
        Some(Command::Bench {
            paths,
            runs,
            common,
            run,
        }) => {
            common.init_threads();
            match common.model() {
                Ok(m) => cmd::bench::run(paths, *runs, &run.options(&m), common.json),
                Err(e) => ExitStatus::bad_input(&e),
            }
        }
        Some(Command::Compare { old, new, json }) => cmd::compare::run(old, new, *json),
        Some(Command::Completions { shell }) => {
            let mut out = Vec::new();
            clap_complete::generate(*shell, &mut Cli::command(), "vkherd", &mut out);
            let _ = std::io::stdout().write_all(&out);
            ExitStatus::Ok
        }
        Some(Command::Man) => {
            let mut out = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut out) {
                Ok(()) => {
                    let _ = std::io::stdout().write_all(&out);
                    ExitStatus::Ok
                }
                Err(e) => {
                    eprintln!("error: cannot render the man page: {e}");
                    ExitStatus::Fail
                }
            }
        }
        Some(Command::Report {
            paths,
            output,
            no_times,
            no_graphs,
            explain_candidates,
            show,
            model,
            threads,
            run,
        }) => {
            threads.init_threads();
            match model.model() {
                Ok(m) => {
                    let show = cmd::report::Show {
                        times: !*no_times,
                        graphs: !*no_graphs,
                        explain_candidates: *explain_candidates,
                        relations: show.clone(),
                    };
                    cmd::report::run(paths, output, &run.options(&m), show)
                }
                Err(e) => ExitStatus::bad_input(&e),
            }
        }
        Some(Command::Merge { files, json }) => cmd::merge::run(files, *json),
        Some(Command::Diy(args)) => cmd::diy::run(args),
        Some(Command::Distinguish(args)) => cmd::distinguish::run(args),
        Some(Command::Table(args)) => cmd::table::run(args),
        Some(Command::Observe(args)) => cmd::observe::run(args),
        Some(Command::Serve(args)) => cmd::serve::run(args),
        None => {
            cli.common.init_threads();
            let model = match cli.common.model() {
                Ok(m) => m,
                Err(e) => return ExitStatus::bad_input(&e),
            };
            if let Err(e) = cli.graphs.check() {
                eprintln!("{e}");
                return ExitStatus::BadInput;
            }
            let opts = cli.run.options(&model);
            let drawing = cli.graphs.dot || cli.graphs.graph.is_some();
            if let Err(e) = args::show::check(&cli.graphs.show, drawing, &opts) {
                eprintln!("{e}");
                return ExitStatus::BadInput;
            }
            let output = cmd::litmus::Output {
                json: cli.common.json,
                time: cli.time,
                stats: cli.stats,
                herd7_log: cli.herd7_log,
                shard: cli.shard,
                graphs: cli.graphs.clone(),
            };
            cmd::litmus::run(&cli.paths, opts, output)
        }
    }
}
