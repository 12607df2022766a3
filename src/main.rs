//! The `yaku` binary: parse the command line, run it, map the outcome to an exit code.

fn main() {
    std::process::exit(yaku::cli::run());
}
