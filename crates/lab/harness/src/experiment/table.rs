//! The experiment table: [`ExperimentSet`] and the [`experiments!`](crate::experiments) macro
//! that declares it, the one list of what `bench` runs, writes and shows.

use std::path::Path;

use anyhow::Result;
use serde::{Serialize, de::DeserializeOwned};

use super::{Headline, Link, Site};
use crate::{Progress, contribution::Contribution};

/// A table of experiments composed by [`experiments!`](crate::experiments): what `bench`
/// runs, writes and shows on the landing page.
pub trait ExperimentSet: Serialize + DeserializeOwned + Sized {
    /// Every experiment's name and title, in table order.
    fn experiments() -> Vec<(&'static str, &'static str)>;
    /// Every step's label, in order (the count is their number).
    fn steps(site: &Site) -> Result<Vec<String>>;
    /// Runs every experiment in table order, announcing each step.
    fn run(site: &Site, progress: &mut dyn Progress) -> Result<Self>;
    /// Writes every report under `out`.
    fn write(&self, out: &Path) -> Result<()>;
    /// Every report of the site, in table order.
    fn pages(&self) -> Vec<Link>;
    /// Every headline, in table order.
    fn headlines(&self) -> Vec<Headline>;
    /// Every contribution to the landing page's tables, in table order.
    fn contributions(&self) -> Vec<Contribution>;
    /// Every experiment's own landing sections, in table order.
    fn sections(&self) -> Vec<(String, String)>;
}

/// Declares the experiment table: a struct with one field per experiment (its typed results,
/// serialised under the field's name) and its [`ExperimentSet`] implementation. A line
/// `field: Type = takes(source)` hands the results of the earlier line `source` to `Type`'s settings
/// ([`Takes`]) before it runs: the one way an experiment uses another's results.
///
/// ```
/// use replab_harness::{experiment::{Experiment, ExperimentSet, Site}, experiments};
/// # use replab_harness::experiment::Configuration;
/// # use anyhow::Result;
/// # use replab_report::ReportDir;
/// # #[derive(Clone, Default, clap::Args, replab_settings::Settings)] struct Cfg {}
/// # impl Configuration for Cfg { fn quick() -> Self { Cfg {} } fn set_command(&mut self, _: String) {} }
/// /// A throwaway experiment: counts to three.
/// struct Count;
/// impl Experiment for Count {
///     const NAME: &'static str = "count";
///     const DIR: &'static str = "count";
///     const TITLE: &'static str = "Counting to three";
///     type Config = Cfg;
///     type Results = Vec<u32>;
///     fn run(_: &Cfg, _: &mut dyn replab_harness::Progress) -> Result<Vec<u32>> { Ok(vec![1, 2, 3]) }
///     fn write(r: &Vec<u32>, dir: &ReportDir) -> Result<()> {
///         replab_harness::experiment::write_json(r, dir)
///     }
/// }
/// experiments! {
///     /// A table of one experiment.
///     pub struct Table { count: Count }
/// }
/// assert_eq!(Table::steps(&Site::default()).unwrap(), ["count"]);
/// ```
#[macro_export]
macro_rules! experiments {
    (
        $(#[$doc:meta])*
        pub struct $set:ident {
            $( $(#[$fdoc:meta])* $field:ident : $exp:ty $(= takes($input:ident))? ),* $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
        pub struct $set {
            $(
                $(#[$fdoc])*
                pub $field: <$exp as $crate::experiment::Experiment>::Results,
            )*
        }

        impl $crate::experiment::ExperimentSet for $set {
            fn experiments() -> Vec<(&'static str, &'static str)> {
                vec![$((
                    <$exp as $crate::experiment::Experiment>::NAME,
                    <$exp as $crate::experiment::Experiment>::TITLE,
                ),)*]
            }

            fn steps(site: &$crate::experiment::Site) -> anyhow::Result<Vec<String>> {
                let mut steps = Vec::new();
                $(
                    steps.extend(<$exp as $crate::experiment::Experiment>::steps(
                        &<$exp as $crate::experiment::Experiment>::bench_config(site)?,
                    ));
                )*
                Ok(steps)
            }

            fn run(
                site: &$crate::experiment::Site,
                progress: &mut dyn $crate::Progress,
            ) -> anyhow::Result<Self> {
                // Every configuration first: a bad one fails before anything runs.
                let configs = ($(
                    <$exp as $crate::experiment::Experiment>::bench_config(site)?,
                )*);
                let mut steps = $crate::experiment::Steps::new(Self::steps(site)?);
                let ($($field,)*) = configs;
                // In table order, each line's results under its field's name, where a later
                // line's `takes(field)` finds them.
                $(
                    #[allow(unused_mut)]
                    let mut $field = $field;
                    $(
                        <$exp as $crate::experiment::Takes>::take(&mut $field, &$input);
                    )?
                    let $field = <$exp as $crate::experiment::Experiment>::run_steps(
                        &$field, progress, &mut steps,
                    )?;
                )*
                steps.finish(progress);
                Ok(Self { $($field,)* })
            }

            fn write(&self, out: &std::path::Path) -> anyhow::Result<()> {
                $( <$exp as $crate::experiment::Experiment>::write_site(&self.$field, out)?; )*
                Ok(())
            }

            fn pages(&self) -> Vec<$crate::experiment::Link> {
                let mut pages = Vec::new();
                $( pages.extend(<$exp as $crate::experiment::Experiment>::pages(&self.$field)); )*
                pages
            }

            fn headlines(&self) -> Vec<$crate::experiment::Headline> {
                let mut lines = Vec::new();
                $(
                    lines.extend(<$exp as $crate::experiment::Experiment>::headlines(&self.$field));
                )*
                lines
            }

            fn contributions(&self) -> Vec<$crate::contribution::Contribution> {
                let mut values = Vec::new();
                $(
                    values.extend(
                        <$exp as $crate::experiment::Experiment>::contributions(&self.$field),
                    );
                )*
                values
            }

            fn sections(&self) -> Vec<(String, String)> {
                let mut sections = Vec::new();
                $(
                    sections.extend(
                        <$exp as $crate::experiment::Experiment>::sections(&self.$field),
                    );
                )*
                sections
            }
        }
    };
}
