//! `yaku schema`: the JSON Schema of ruleset, deck and strategy files, for editors.

/// Arguments of `yaku schema`.
#[derive(clap::Args, Debug)]
pub struct SchemaArgs {
    /// Write the schema to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(args: &SchemaArgs) -> i32 {
    let schema = crate::ruleset::json_schema();
    let text = format!(
        "{}\n",
        serde_json::to_string_pretty(&schema).unwrap_or_default()
    );
    super::write_output(args.output.as_deref(), &text)
}
