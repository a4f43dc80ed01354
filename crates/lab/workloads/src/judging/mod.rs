//! Judging detectors against the exact oracle on seeded random games: the game generator
//! (`games`), what is checked and how a detector is built for it (`spec`), the judge that
//! counts agreement ply by ply (`judge`) and the cause of each error (`cause`). Shared by the
//! audit and the key-width experiment.

pub mod cause;
pub mod games;
pub mod judge;
pub mod spec;

/// The longest game limit.
pub const MAX_PLIES: u32 = 100_000;
