//! The one place that maps the library's settings to the command line's `--flags`: the running
//! subcommand's options, by their field (`max_plies` → `--max-plies`), installed into
//! `replab-settings` before anything runs, so the library's refusals name the flag the user
//! typed.

use std::{collections::HashMap, sync::OnceLock};

use clap::{ArgMatches, Command};

/// The running subcommand's flags by field.
static FLAGS: OnceLock<HashMap<String, String>> = OnceLock::new();

/// Installs the spelling of the subcommand `matches` chose within `cli`: `field → --long` for
/// every option with a long name.
pub fn install(cli: &Command, matches: &ArgMatches) {
    let flags = chosen(cli, matches)
        .get_arguments()
        .filter_map(|a| Some((a.get_id().to_string(), format!("--{}", a.get_long()?))));
    let _ = FLAGS.set(flags.collect());
    replab_settings::spell_with(flag);
}

/// The deepest subcommand `matches` chose (`reproduce axon`), or `cli` itself.
fn chosen<'a>(cli: &'a Command, matches: &ArgMatches) -> &'a Command {
    match matches.subcommand() {
        Some((name, sub)) => cli.find_subcommand(name).map_or(cli, |c| chosen(c, sub)),
        None => cli,
    }
}

/// The flag of `field`: the running subcommand's, else the field with hyphens.
fn flag(field: &'static str) -> String {
    FLAGS
        .get()
        .and_then(|flags| flags.get(field).cloned())
        .unwrap_or_else(|| format!("--{}", field.replace('_', "-")))
}
