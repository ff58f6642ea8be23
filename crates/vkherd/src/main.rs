//! The `vkherd` command line: a thin shell over the library.

mod bench_cmd;
mod cli;
mod khronos_cmd;
mod progress;

fn main() {
    std::process::exit(cli::main());
}
