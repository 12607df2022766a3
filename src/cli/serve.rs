//! `yaku serve`: the browser table, served by yaku itself on this machine (or a network with
//! `--listen`).

use std::io::IsTerminal;
use std::net::SocketAddr;

/// `yaku serve` options.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The address to serve on; the default serves this machine only, on a free port. Give
    /// `0.0.0.0:8080` (or a network address) to play with people on other machines.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    pub listen: SocketAddr,
    /// Do not open the page in a browser.
    #[arg(long)]
    pub no_open: bool,
    /// A program that speaks the seat protocol, which rooms may seat by NAME (the page offers
    /// it among the bots): `--bot "pybot=python3 bot.py"`. Repeat for more. Only the programs
    /// named here run: clients cannot name one.
    #[arg(long = "bot", value_name = "NAME=PROGRAM")]
    pub bots: Vec<String>,
}

pub fn run(args: &ServeArgs) -> i32 {
    let mut programs = crate::serve::programs::Programs::default();
    for bot in &args.bots {
        if let Err(why) = programs.add(bot) {
            eprintln!("error: --bot {why}");
            return super::EXIT_USAGE;
        }
    }
    let server = match crate::serve::Server::bind(args.listen) {
        Ok(s) => s.with_programs(programs),
        Err(e) => {
            eprintln!("error: cannot serve on {}: {e}", args.listen);
            return super::EXIT_FAILURE;
        }
    };
    let url = match server.local_addr() {
        Ok(addr) => format!("http://{addr}/"),
        Err(e) => {
            eprintln!("error: cannot serve on {}: {e}", args.listen);
            return super::EXIT_FAILURE;
        }
    };
    println!("yaku serves the table on {url} (Ctrl-C stops it)");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    if !args.no_open && std::io::stdout().is_terminal() {
        open_browser(&url);
    }
    match server.run() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: the server stopped: {e}");
            super::EXIT_FAILURE
        }
    }
}

/// Opens `url` with the desktop's opener where one exists; nothing happens where none does.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let _ = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}
