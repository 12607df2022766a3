//! `yaku completions SHELL` and `yaku man`: shell completion scripts and the man pages, generated
//! from the command-line definition itself (clap_complete, clap_mangen), so they cannot drift.
//! `yaku man --dir DIR` writes the page of every subcommand that `yaku(1)` lists.

use clap_complete::Shell;
use std::io::IsTerminal;

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
    /// Write the page of `yaku` to this file instead of standard output.
    #[arg(long, short, value_name = "FILE", conflicts_with = "dir")]
    output: Option<std::path::PathBuf>,
    /// Write every page into this folder: `yaku.1` and one per subcommand (`yaku-play.1`, ...)
    #[arg(long, value_name = "DIR")]
    dir: Option<std::path::PathBuf>,
}

/// Prints the completion script for a shell.
pub fn completions(args: &CompletionsArgs) -> i32 {
    let mut command = super::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "yaku", &mut out);
    super::write_output(None, &String::from_utf8_lossy(&out))
}

/// Prints the man page of `yaku`, in roff (shown through `man` on a terminal), or writes every
/// page into a folder.
pub fn man(args: &ManArgs) -> i32 {
    let Some(dir) = &args.dir else {
        let page = match render(super::command()) {
            Ok(page) => page,
            Err(e) => return render_failed(&e),
        };
        // On a terminal the page is shown, not printed as roff; failing that it is printed,
        // and the note why comes last, where the terminal leaves it in view.
        let mut note = None;
        if args.output.is_none() && std::io::stdout().is_terminal() {
            match show(&page) {
                Ok(code) => return code,
                Err(why) => note = Some(why),
            }
        }
        let code = super::write_output(args.output.as_deref(), &page);
        if let Some(why) = note {
            eprintln!(
                "note: {why}, so the page is printed in roff (`yaku man -o yaku.1` writes it to a file, `man -l yaku.1` shows it)"
            );
        }
        return code;
    };
    let mut command = super::command().disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    man_pages(command, &mut pages);
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return super::EXIT_FAILURE;
    }
    for (name, page) in pages {
        let page = match page {
            Ok(page) => page,
            Err(e) => return render_failed(&e),
        };
        let code = super::write_output(Some(&dir.join(name)), &page);
        if code != super::EXIT_OK {
            return code;
        }
    }
    super::EXIT_OK
}

/// Shows a page in roff through `man -l -` (reading the page from its input); the exit code,
/// or why `man` could not show it.
fn show(page: &str) -> Result<i32, String> {
    use std::io::Write;
    let mut man = std::process::Command::new("man")
        .args(["-l", "-"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("`man` cannot be run ({e})"))?;
    if let Some(mut input) = man.stdin.take() {
        // A pager that is quit early closes its input: not a failure.
        let _ = input.write_all(page.as_bytes());
    }
    let status = man.wait().map_err(|e| format!("`man` failed ({e})"))?;
    if status.success() {
        Ok(super::EXIT_OK)
    } else {
        Err(format!("`man -l -` ended with {status}"))
    }
}

/// Every page under `command` (its own first), by file name (`yaku-play.1`).
fn man_pages(command: clap::Command, pages: &mut Vec<(String, std::io::Result<String>)>) {
    let name = clap_mangen::Man::new(command.clone()).get_filename();
    let subcommands: Vec<clap::Command> = command
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .cloned()
        .collect();
    pages.push((name, render(command)));
    for sub in subcommands {
        man_pages(sub, pages);
    }
}

/// One command's page, in roff.
fn render(command: clap::Command) -> std::io::Result<String> {
    let mut out = Vec::new();
    clap_mangen::Man::new(command).render(&mut out)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn render_failed(e: &std::io::Error) -> i32 {
    eprintln!("error: cannot render the man page: {e}");
    super::EXIT_FAILURE
}
