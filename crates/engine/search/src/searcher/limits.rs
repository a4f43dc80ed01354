//! The [`Limits`] of a UCI search: the root moves it searches, the stop flag
//! and deadline polled every [`POLL_NODES`] nodes (with the node limit), and the observer told
//! the search's [`Progress`].

use std::{sync::atomic::Ordering, time::Instant};

use replab_board::{Move, MoveList};
use replab_detect::Detector;

use super::Searcher;
use crate::{
    config::{Limits, POLL_NODES, Progress},
    tt::Table,
};

impl<D: Detector, T: Table> Searcher<D, T> {
    /// Takes the limits of a search starting now: its root moves, and unless the limits are
    /// empty, the stop flag, the deadline and the observer. Returns whether they are watched
    /// (not `None` and not empty).
    pub(super) fn take_limits(&mut self, limits: Option<&Limits>) -> bool {
        let search_start = Instant::now();
        self.root_moves.clear();
        self.excluded_root_moves.clear();
        if let Some(l) = limits {
            self.root_moves.extend_from_slice(&l.root_moves);
            self.excluded_root_moves
                .extend_from_slice(&l.excluded_root_moves);
        }
        let limits = limits.filter(|l| !l.is_empty());
        self.stop = limits.and_then(|l| l.stop.clone());
        self.deadline = limits.and_then(|l| l.deadline_from(search_start));
        self.observer = limits.and_then(|l| l.observer.clone());
        limits.is_some()
    }

    /// At the root (`ply` 0) of a search with root moves given or excluded, applies them to
    /// `list` ([`Searcher::restrict_root`]). Returns whether the node's result may be stored:
    /// not when moves were taken out, since it then holds for the moves kept only.
    #[inline(always)]
    pub(super) fn limit_root_moves(&self, ply: usize, list: &mut MoveList) -> bool {
        if ply == 0 && (!self.root_moves.is_empty() || !self.excluded_root_moves.is_empty()) {
            return !self.restrict_root(list);
        }
        true
    }

    /// Keeps only the root moves of [`Limits::root_moves`] in `list`, unless none of them is
    /// there (then every legal move stays); then drops those of
    /// [`Limits::excluded_root_moves`], unless that would leave none. Returns whether a move
    /// was taken out.
    #[cold]
    fn restrict_root(&self, list: &mut MoveList) -> bool {
        let before = list.len();
        let wanted = |m: &Move| self.root_moves.is_empty() || self.root_moves.contains(m);
        if list.iter().any(wanted) {
            let mut kept = MoveList::new();
            for &m in list.iter().filter(|m| wanted(m)) {
                kept.push(m);
            }
            *list = kept;
        }
        if list.iter().any(|m| !self.excluded_root_moves.contains(m)) {
            let mut kept = MoveList::new();
            for &m in list
                .iter()
                .filter(|m| !self.excluded_root_moves.contains(m))
            {
                kept.push(m);
            }
            *list = kept;
        }
        list.len() < before
    }

    /// Whether the stop flag is set or the deadline has passed.
    pub(super) fn external_stop(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Called by `visit` once the node count exceeds `check_at`: stops at the node limit or on
    /// the external limits, else sets the next check.
    #[cold]
    #[inline(never)]
    pub(super) fn poll(&mut self) -> bool {
        let nodes = self.counters.nodes;
        let node_limit = self.config.node_limit.unwrap_or(u64::MAX);
        self.observe(None);
        if nodes > node_limit || self.external_stop() {
            self.stopped = true;
            return true;
        }
        // Only reached while external limits are watched (without them `check_at` is the node
        // limit).
        self.check_at = nodes.saturating_add(POLL_NODES).min(node_limit);
        false
    }

    /// Tells the observer, if any, the search's [`Progress`].
    #[cold]
    pub(super) fn observe(&self, root_move: Option<(Move, u32)>) {
        if let Some(o) = &self.observer {
            (o.0)(&Progress {
                depth: self.depth_now,
                seldepth: self.seldepth as u32,
                nodes: self.counters.nodes,
                root_move,
                generation: self.generation,
            });
        }
    }
}
