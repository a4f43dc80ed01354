//! `replab audit` (being moved to a typed configuration of replab-lab).

pub use replab_lab::audit::AuditArgs as Args;

/// Runs `replab audit`.
pub fn run(args: Args) -> anyhow::Result<()> {
    replab_lab::audit::run(&args)
}
