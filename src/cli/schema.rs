//! `yaku schema`: the JSON Schema of ruleset, deck and strategy files, for editors and
//! validators: one root that tells the kinds apart, or one kind's schema alone.

use crate::ruleset::FileKind;

/// Arguments of `yaku schema`.
#[derive(clap::Args, Debug)]
pub struct SchemaArgs {
    /// Print only this kind of file's schema (the default tells the kinds apart by their top-level table)
    #[arg(long, value_name = "KIND", value_parser = ["ruleset", "deck", "strategy"])]
    kind: Option<String>,
    /// `json` (JSON Schema) or `markdown` (the guide's key reference)
    #[arg(long, value_name = "FORMAT", default_value = "json", value_parser = ["json", "markdown"])]
    format: String,
    /// Write the schema to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(args: &SchemaArgs) -> i32 {
    if args.format == "markdown" {
        if args.kind.is_some() {
            eprintln!("error: the key reference covers every kind; `--kind` is for JSON Schema");
            return super::EXIT_USAGE;
        }
        let text = crate::ruleset::key_reference_markdown();
        return super::write_output(args.output.as_deref(), &text);
    }
    let schema = match args.kind.as_deref() {
        None => crate::ruleset::json_schema(),
        Some(name) => {
            let kind = FileKind::ALL
                .into_iter()
                .find(|k| k.name() == name)
                .expect("clap checks the kind");
            crate::ruleset::kind_schema(kind)
        }
    };
    let text = format!(
        "{}\n",
        serde_json::to_string_pretty(&schema).unwrap_or_default()
    );
    super::write_output(args.output.as_deref(), &text)
}
