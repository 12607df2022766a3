//! `yaku serve`: the browser table, served by yaku itself on this machine (or a network with
//! `--listen`), its rooms kept in a database; and the stored rooms listed and exported.

use crate::serve::gate::Gate;
use crate::serve::limits::Limits;
use crate::serve::rooms::{Rooms, stored_record};
use crate::serve::store::{Store, StoreError, default_path};
use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// `yaku serve` options.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The address to serve on; the default serves this machine only, on the port the
    /// database's last server used (so that links sent before a restart still work) or a free
    /// one. Give `0.0.0.0:8080` (or a network address) to play with people on other machines.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Do not open the page in a browser.
    #[arg(long)]
    pub no_open: bool,
    /// The database the rooms are kept in (made if it does not exist), a regular file;
    /// default: `$XDG_DATA_HOME/yaku/serve.sqlite` (`~/.local/share/yaku/serve.sqlite`).
    #[arg(long, value_name = "FILE", conflicts_with = "in_memory")]
    pub db: Option<PathBuf>,
    /// Keep rooms in memory only: stopping the server ends their games.
    #[arg(long)]
    pub in_memory: bool,
    /// List the stored rooms (code, game, seats, moves, finished or not) instead of serving.
    #[arg(long, conflicts_with_all = ["export", "in_memory"])]
    pub rooms: bool,
    /// Write the record of the stored room CODE (finished or not) instead of serving; `yaku
    /// replay` reads it.
    #[arg(long, value_name = "CODE", conflicts_with = "in_memory")]
    pub export: Option<String>,
    /// Where `--export` writes the record (default: standard output).
    #[arg(short, long, value_name = "FILE", requires = "export")]
    pub output: Option<PathBuf>,
    /// A program that speaks the seat protocol, which rooms may seat by NAME (the page offers
    /// it among the bots): `--bot "pybot=python3 bot.py"`. Repeat for more. Only the programs
    /// named here run: clients cannot name one.
    #[arg(long = "bot", value_name = "NAME=PROGRAM")]
    pub bots: Vec<String>,
    /// A limit of the server set to VALUE (a count, a rate, or a time such as `10s`, `10m`):
    /// `--limit rooms_per_address=50`. Repeat for more; `--limits` lists them all.
    #[arg(long = "limit", value_name = "NAME=VALUE")]
    pub limit: Vec<String>,
    /// A config file whose `[limits]` table sets limits of the server (`--limit` after it).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print every limit of the server, with its value and meaning, as a config file writes
    /// it, instead of serving.
    #[arg(long)]
    pub limits: bool,
    /// The address people open the page by, when it is a name (`https://table.example.org`,
    /// behind a reverse proxy, or `http://mybox:8080` on a home network): the server answers
    /// requests that name it. Without it, only its IP addresses and `localhost` are answered,
    /// which keeps pages of other sites from reaching it through their own names. Repeat for
    /// more.
    #[arg(long = "public-url", value_name = "URL")]
    pub public_urls: Vec<String>,
    /// A reverse proxy in front of the server (its IP address): requests from it are taken to
    /// come from the last address its `X-Forwarded-For` header adds, for every per-address
    /// limit. Repeat for more.
    #[arg(long = "trusted-proxy", value_name = "ADDR")]
    pub trusted_proxies: Vec<std::net::IpAddr>,
}

/// The limits `--config` and `--limit` set, over the defaults.
fn limits(args: &ServeArgs) -> Result<Limits, String> {
    let mut limits = match &args.config {
        Some(path) => {
            let at = || format!("--config `{}`", path.display());
            if let Some(problem) = crate::fsio::named_file_problem(path, "toml") {
                return Err(format!("{}: it {problem}", at()));
            }
            let text = crate::fsio::read_text_limited(path, crate::fsio::MAX_RULE_FILE_SIZE)
                .map_err(|e| format!("{}: {e}", at()))?;
            Limits::from_config(&text).map_err(|e| format!("{}: {e}", at()))?
        }
        None => Limits::default(),
    };
    for spec in &args.limit {
        let Some((name, value)) = spec.split_once('=') else {
            return Err(format!(
                "--limit `{spec}`: give NAME=VALUE (`rooms_per_address=50`)"
            ));
        };
        limits
            .set(name.trim(), value)
            .map_err(|e| format!("--limit {e}"))?;
    }
    Ok(limits)
}

/// The database `--db` names, or the default one (its folder made if need be).
fn database(args: &ServeArgs) -> Result<(PathBuf, Store), StoreError> {
    let path = match &args.db {
        Some(p) => p.clone(),
        None => {
            let path = default_path().ok_or_else(|| StoreError::NoFolder {
                path: PathBuf::from("$XDG_DATA_HOME/yaku/serve.sqlite (HOME is not set either)"),
            })?;
            if let Some(folder) = path.parent() {
                let _ = std::fs::create_dir_all(folder);
            }
            path
        }
    };
    let store = Store::open(&path)?;
    Ok((path, store))
}

/// Prints a store's error, the one place they are rendered on the command line.
fn store_failed(e: &StoreError) -> i32 {
    eprintln!("error: {}", crate::diag::escape_control(&e.to_string()));
    super::EXIT_FAILURE
}

fn list(store: &Store) -> i32 {
    let listed = match store.list() {
        Ok(l) => l,
        Err(e) => return store_failed(&e),
    };
    for room in listed {
        println!(
            "{}  {:<16} {:<28} {:>4} moves  {}",
            room.code,
            crate::diag::escape_control(&room.ruleset),
            crate::diag::escape_control(&room.holders.join(",")),
            room.moves,
            if room.finished {
                "finished"
            } else {
                "in progress"
            }
        );
    }
    super::EXIT_OK
}

fn export(store: &Store, db: &Path, code: &str, output: Option<&Path>) -> i32 {
    match stored_record(store, code) {
        Ok(Some(record)) => {
            super::write_output_from(output, &record.to_json(), &[db.to_path_buf()])
        }
        Ok(None) => {
            eprintln!(
                "error: no room `{}` in `{}` (`yaku serve --rooms` lists them)",
                crate::diag::escape_control(code),
                db.display()
            );
            super::EXIT_FAILURE
        }
        Err(e) => store_failed(&e),
    }
}

pub fn run(args: &ServeArgs) -> i32 {
    let mut programs = crate::serve::programs::Programs::default();
    for bot in &args.bots {
        if let Err(why) = programs.add(bot) {
            eprintln!("error: --bot {why}");
            return super::EXIT_USAGE;
        }
    }
    let limits = match limits(args) {
        Ok(l) => l,
        Err(why) => {
            eprintln!("error: {}", crate::diag::escape_control(&why));
            return super::EXIT_USAGE;
        }
    };
    if args.limits {
        print!("{}", limits.to_config());
        return super::EXIT_OK;
    }
    let mut origins = crate::serve::origin::Origins::default();
    for url in &args.public_urls {
        if let Err(why) = origins.add_public_url(url) {
            eprintln!("error: --public-url {}", crate::diag::escape_control(&why));
            return super::EXIT_USAGE;
        }
    }
    for proxy in &args.trusted_proxies {
        origins.add_trusted_proxy(*proxy);
    }
    let gate = Gate::new(programs, &limits);
    // An interrupt ends the rooms' seat programs with the server (their process groups do not
    // get the terminal's Ctrl-C).
    super::exit_on_signals();
    let this_machine = SocketAddr::from(([127, 0, 0, 1], 0));
    let mut listen = args.listen.unwrap_or(this_machine);
    let (rooms, kept) = if args.in_memory {
        (Rooms::new(gate, limits.clone()), None)
    } else {
        let (path, mut store) = match database(args) {
            Ok(opened) => opened,
            Err(e) => return store_failed(&e),
        };
        if args.rooms {
            return list(&store);
        }
        if let Some(code) = &args.export {
            return export(&store, &path, code, args.output.as_deref());
        }
        if let Err(e) = store.hold() {
            return store_failed(&e);
        }
        // Without --listen, this machine on the port the database's last server used.
        let port = store
            .noted("listen")
            .and_then(|l| l.parse::<SocketAddr>().ok());
        if let (None, Some(last)) = (args.listen, port) {
            listen.set_port(last.port());
        }
        match Rooms::open(store, gate, limits.clone()) {
            Ok((rooms, problems)) => {
                for e in &problems {
                    eprintln!("warning: {}", crate::diag::escape_control(&e.to_string()));
                }
                (rooms, Some(path))
            }
            Err(e) => return store_failed(&e),
        }
    };
    let mut bound = crate::serve::Server::bind(listen);
    if bound.is_err() && args.listen.is_none() && listen != this_machine {
        eprintln!(
            "warning: the port this database's last server used ({}) is taken; serving on a free one",
            listen.port()
        );
        bound = crate::serve::Server::bind(this_machine);
    }
    let server = match bound {
        Ok(s) => s.with_limits(limits).with_origins(origins),
        Err(e) => {
            eprintln!("error: cannot serve on {listen}: {e}");
            return super::EXIT_FAILURE;
        }
    };
    let (url, bound) = match server.local_addr() {
        Ok(addr) => (format!("http://{addr}/"), addr),
        Err(e) => {
            eprintln!("error: cannot serve on {listen}: {e}");
            return super::EXIT_FAILURE;
        }
    };
    if let Some(store) = rooms.store()
        && let Err(e) = store.note_server(&url, bound)
    {
        return store_failed(&e);
    }
    println!("yaku serves the table on {url} (Ctrl-C stops it)");
    for public in &args.public_urls {
        eprintln!("and answers to {}", crate::diag::escape_control(public));
    }
    // On standard error: a script reads the address from the first line of standard output
    // and may close it then.
    match kept {
        Some(path) => eprintln!(
            "rooms are kept in {} ({} games in progress)",
            path.display(),
            rooms.len()
        ),
        None => eprintln!("rooms are kept in memory only: stopping the server ends their games"),
    }
    let _ = std::io::Write::flush(&mut std::io::stdout());
    if !args.no_open && std::io::stdout().is_terminal() {
        open_browser(&url);
    }
    match server.with_rooms(rooms).run() {
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
