//! The searcher behind one object-safe interface ([`DynSearch`]), so that searchers of every
//! detector type can be kept side by side, chosen at run time and reused, while each detector
//! keeps its own compiled search.

use std::any::Any;

use replab_board::{Move, Position};
use replab_detect::Detector;

use crate::{Iteration, Limits, SearchConfig, SearchResult, Searcher, SetupError, SharedTable};
use crate::{TableStats, tt::Table};

/// A [`Searcher`] of some detector on some table, type-erased. Build one with [`boxed`] or
/// [`boxed_shared`] (the registry's `with_detector!` names the detector type).
pub trait DynSearch: Send {
    /// [`Searcher::search_game`]: the last of `positions`, the earlier ones as game history.
    fn search_game(&mut self, positions: &[Position], moves: &[Move]) -> SearchResult;
    /// [`Searcher::search_game_with`]: `on_iteration` after each completed iteration.
    fn search_game_with(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult;
    /// [`Searcher::search_game_limited`]: also stopping on the `limits`.
    fn search_game_limited(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult;
    /// [`Searcher::set_draw_jitter`].
    fn set_draw_jitter(&mut self, on: bool);
    /// [`Searcher::clear_hash`].
    fn clear_hash(&mut self);
    /// [`Searcher::set_depth_and_nodes`].
    fn set_depth_and_nodes(&mut self, max_depth: u32, node_limit: Option<u64>);
    /// [`Searcher::set_first_depth`].
    fn set_first_depth(&mut self, depth: u32);
    /// [`Searcher::table_stats`].
    fn table_stats(&self) -> TableStats;
    /// Whether the detector keeps its marks in the searcher's table
    /// ([`Detector::in_search_table`]).
    fn in_search_table(&self) -> bool;
    /// Bytes the detector's structures use ([`Detector::memory_bytes`]).
    fn detector_bytes(&self) -> usize;
    /// The detector, for a caller that knows its type (downcast with [`Any::downcast_ref`]).
    fn detector_any(&self) -> &dyn Any;
}

impl<D: Detector + Send + 'static, T: Table + Send> DynSearch for Searcher<D, T> {
    fn search_game(&mut self, positions: &[Position], moves: &[Move]) -> SearchResult {
        Searcher::search_game(self, positions, moves)
    }
    fn search_game_with(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        Searcher::search_game_with(self, positions, moves, on_iteration)
    }
    fn search_game_limited(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        Searcher::search_game_limited(self, positions, moves, limits, on_iteration)
    }
    fn set_draw_jitter(&mut self, on: bool) {
        Searcher::set_draw_jitter(self, on)
    }
    fn clear_hash(&mut self) {
        Searcher::clear_hash(self)
    }
    fn set_depth_and_nodes(&mut self, max_depth: u32, node_limit: Option<u64>) {
        Searcher::set_depth_and_nodes(self, max_depth, node_limit)
    }
    fn set_first_depth(&mut self, depth: u32) {
        Searcher::set_first_depth(self, depth)
    }
    fn table_stats(&self) -> TableStats {
        Searcher::table_stats(self)
    }
    fn in_search_table(&self) -> bool {
        self.detector().in_search_table()
    }
    fn detector_bytes(&self) -> usize {
        self.detector().memory_bytes()
    }
    fn detector_any(&self) -> &dyn Any {
        self.detector()
    }
}

/// A type-erased searcher using `detector` with `config` on its own table
/// ([`Searcher::try_new`]).
pub fn boxed<D: Detector + Send + 'static>(
    detector: D,
    config: SearchConfig,
) -> Result<Box<dyn DynSearch>, SetupError> {
    Ok(Box::new(Searcher::try_new(detector, config)?))
}

/// A type-erased searcher using `detector` with `config` on the shared `table`
/// ([`Searcher::with_shared_table`]).
pub fn boxed_shared<D: Detector + Send + 'static>(
    detector: D,
    config: SearchConfig,
    table: SharedTable,
) -> Result<Box<dyn DynSearch>, SetupError> {
    Ok(Box::new(Searcher::with_shared_table(
        detector, config, table,
    )?))
}
