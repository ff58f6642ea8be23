//! The `vkherd` command line: a thin shell over the library.

/// `println!` that ignores a closed stdout (output piped into `head`) instead of panicking.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

mod argv;
mod bench_cmd;
mod cli;
mod compare_cmd;
mod diff_cmd;
mod dir_walk;
mod explain_cmd;
mod herd7_options;
mod isolate;
mod khronos_cmd;
mod litmus_cmd;
mod merge_cmd;
mod observe_cmd;
mod progress;
mod report_cmd;
mod report_extras;
mod show_arg;

/// mimalloc: the enumeration allocates many small bit matrices from several rayon
/// threads at once, where glibc malloc's arena locking cost ~40% of the time.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(cli::main());
}
