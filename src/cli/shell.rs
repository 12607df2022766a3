//! `yaku completions SHELL` and `yaku man`: shell completion scripts and the man page, generated
//! from the command-line definition itself (clap_complete, clap_mangen), so they cannot drift.

use clap_complete::Shell;

/// Arguments of `yaku completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Arguments of `yaku man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Write the page to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

/// Prints the completion script for a shell.
pub fn completions(args: &CompletionsArgs) -> i32 {
    let mut command = super::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "yaku", &mut out);
    super::write_output(None, &String::from_utf8_lossy(&out))
}

/// Prints the man page, in roff.
pub fn man(args: &ManArgs) -> i32 {
    let mut out = Vec::new();
    if let Err(e) = clap_mangen::Man::new(super::command()).render(&mut out) {
        eprintln!("error: cannot render the man page: {e}");
        return super::EXIT_FAILURE;
    }
    super::write_output(args.output.as_deref(), &String::from_utf8_lossy(&out))
}
