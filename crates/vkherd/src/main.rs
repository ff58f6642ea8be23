//! The `vkherd` command line: a thin shell over the library.

mod cli;
mod khronos_cmd;

fn main() {
    std::process::exit(cli::main());
}
