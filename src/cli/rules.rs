//! `yaku rules RULESET`: the ruleset's rule sheet as text, Markdown or an HTML page; a house
//! rule's sheet marks what it changes from its base.

use crate::sheet::{self, Format};
use std::sync::Arc;

/// Arguments of `yaku rules`.
#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    /// A bundled ruleset name (`koikoi`, `house/lightning-wild`) or a rule file.
    pub(crate) ruleset: String,
    #[command(flatten)]
    pub(crate) house: super::HouseArgs,
    /// The sheet's format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the sheet to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(args: &RulesArgs) -> i32 {
    let loaded = crate::ruleset::load(&args.ruleset);
    super::hand_over_to_wider(&loaded.diagnostics);
    if !loaded.diagnostics.is_empty() {
        super::print_diagnostics(&loaded.sources, &loaded.diagnostics);
    }
    let Some(ruleset) = loaded.value.map(Arc::new) else {
        return super::EXIT_FAILURE;
    };
    let base = base_of(&args.ruleset, &loaded.sources);
    let built = sheet::build(&ruleset, base.as_ref());
    // Text for a terminal fits its width, so that the terminal does not break words.
    let text = match args.format {
        sheet::Format::Text if args.output.is_none() => {
            sheet::render_text(&built, super::terminal_width())
        }
        format => sheet::render(&built, format),
    };
    let inputs = super::ruleset_inputs(&args.ruleset, &loaded.sources);
    super::write_output_from(args.output.as_deref(), &text, &inputs)
}

/// The ruleset a house rule extends, loaded, when the top file names one that loads.
fn base_of(spec: &str, sources: &crate::diag::SourceMap) -> Option<crate::ruleset::Ruleset> {
    let top = sources.files().first()?;
    // A combination (`koikoi+house/a`) is compared with its first ruleset.
    if top.name == "<command line>" {
        return crate::ruleset::load(spec.split('+').next()?).value;
    }
    let tree: toml::Table = top.text.parse().ok()?;
    let extends = tree.get("ruleset")?.get("extends")?;
    // `extends = ["koikoi", "house/a"]`: compared with the first.
    let extends = extends
        .as_str()
        .or_else(|| extends.as_array()?.first()?.as_str())?;
    // A relative path resolves next to the file on disk; a bundled name loads as it is.
    let beside = std::path::Path::new(spec)
        .parent()
        .map(|dir| dir.join(extends))
        .filter(|p| p.exists());
    let base_spec = beside.map_or_else(|| extends.to_string(), |p| p.display().to_string());
    crate::ruleset::load(&base_spec).value
}
