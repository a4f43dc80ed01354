//! What `bench` knows when it builds each experiment's settings, and what an experiment gives
//! the landing page besides its tables: a headline and its report's link.

use std::path::PathBuf;

use serde::Serialize;

use super::{Configuration, Experiment};
use crate::contribution::Phrase;

/// What `bench` knows when it builds each experiment's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The short run (under 2 minutes on 2 cores): shallower searches, fewer games and records.
    pub quick: bool,
    /// The smallest run (with `quick`): each experiment's [`Configuration::smoke`] settings, a
    /// check of the machinery and the pages whose figures decide nothing.
    pub smoke: bool,
    /// Where the datasets are (`datasets/` of the repository): the suites' EPD files.
    pub datasets: PathBuf,
    /// The command line that regenerates the site, as it was typed: every report of the site
    /// records it.
    pub command: String,
    /// The replab binary, for the steps that run it in a child process (instruction counts
    /// under valgrind, `replab uci`). `None`: none of those (tests).
    pub exe: Option<PathBuf>,
}

impl Default for Site {
    /// The full run, with the datasets under `datasets/`, no binary and no command recorded
    /// (tests and library users).
    fn default() -> Self {
        Self {
            quick: false,
            smoke: false,
            datasets: PathBuf::from("datasets"),
            command: String::new(),
            exe: None,
        }
    }
}

impl Site {
    /// The standard settings of an experiment in `bench`: its smoke, quick or default run, with
    /// the site's command line.
    pub fn settings<E: Experiment + ?Sized>(&self) -> E::Config {
        let mut config = if self.smoke {
            E::Config::smoke()
        } else if self.quick {
            E::Config::quick()
        } else {
            E::Config::default()
        };
        config.set_command(self.command.clone());
        config
    }
}

/// One line of the landing page's headlines.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Headline {
    /// The claim's name, in bold (`Key width`).
    pub label: String,
    /// Optional context after the label: words and links (a link to the report), escaped by
    /// the site.
    pub context: Vec<Phrase>,
    /// The computed sentence (escaped on the page).
    pub text: String,
}

/// A report of the site: its directory under the root and its title.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Link {
    /// Directory under the site's root (`suite-wac`).
    pub dir: String,
    /// Title on the landing page.
    pub title: String,
}
