//! The detector protocol (the crate docs, *The detector protocol*): entering a child (push,
//! probe, the draw policy, enter, search, leave, pop), the detector's probe, enter and leave
//! (through the table mark for a detector that keeps its marks in the searcher's table), its
//! upcoming cycles, and loading the game before the root.

use replab_board::{Move, Position};
use replab_detect::{Detector, Line, Repetition, load_history};

use super::Searcher;
use crate::tt::Table;

impl<D: Detector, T: Table> Searcher<D, T> {
    /// Enters `child` (reached from `parent` by `mv`, or by a null move when `mv` is null) at
    /// `ply`: pushes it on the line, probes the detector, and unless the repetition is a draw,
    /// enters it, searches it (quiescence when `depth <= 0`) and leaves it. Returns the score
    /// from the child's side to move's point of view.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn visit(
        &mut self,
        parent: &Position,
        mv: Move,
        child: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if mv.is_null() {
            self.line.push_null(child);
        } else {
            self.line.push(parent, mv, child);
        }
        self.counters.nodes += 1;
        self.pv_len[ply] = ply;
        if self.counters.nodes > self.check_at && self.poll() {
            self.line.pop();
            return 0;
        }
        if self.repetition_draw(child) {
            self.counters.repetitions += 1;
            self.path_draws += 1;
            self.rep_taint += 1;
            self.line.pop();
            return self.draw_score(child.side_to_move());
        }
        self.enter(child);
        let score = if depth > 0 {
            self.search_node(child, depth, alpha, beta, ply)
        } else {
            self.quiesce(child, depth, alpha, beta, ply)
        };
        self.leave(child);
        self.line.pop();
        score
    }

    /// Whether the line's last position, `child`, is a repetition the draw policy scores as a
    /// draw: the detector's probe, then [`replab_detect::DrawPolicy::is_draw`] at the line's
    /// distance from the root (the one place the searcher applies its policy).
    #[inline(always)]
    fn repetition_draw(&mut self, child: &Position) -> bool {
        self.probe(child)
            .is_some_and(|rep| self.config.policy.is_draw(rep, self.line.plies_from_root()))
    }

    /// Upcoming cycles: when the side to move can force a repetition (cuckoo detectors) and
    /// alpha is below the draw score, alpha rises to it; returns the score to return when that
    /// makes the node fail high. The one place both searches ask the detector about them.
    #[inline(always)]
    pub(super) fn upcoming_cycle(
        &mut self,
        pos: &Position,
        alpha: &mut i32,
        beta: i32,
        draw: i32,
    ) -> Option<i32> {
        if *alpha < draw && self.detector.upcoming(&self.line, pos) {
            self.path_draws += 1;
            self.rep_taint += 1;
            *alpha = draw;
            if *alpha >= beta {
                return Some(*alpha);
            }
        }
        None
    }

    /// Loads the game (`positions`, `moves`) into the line and the detector, with room for
    /// `capacity` more plies. A detector that keeps its marks in the searcher's table gets the
    /// table cleared for the search first (a shared table is cleared by its owner) and the
    /// history opened in it; returns whether that happened.
    pub(super) fn load_game(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        capacity: usize,
    ) -> bool {
        if self.detector.in_search_table()
            && let Some(tt) = &mut self.tt
        {
            tt.clear_for_search();
            load_history_marked(
                &mut self.detector,
                tt,
                &mut self.line,
                positions,
                moves,
                capacity,
            );
            true
        } else {
            load_history(
                &mut self.detector,
                &mut self.line,
                positions,
                moves,
                capacity,
            );
            false
        }
    }

    /// Follows `line` (moves below the root) from the last of `positions` (the game before it
    /// as history, as in [`Searcher::search_game`]) the way the search would enter it, and
    /// returns the first ply (1 = the root's child) whose position the searcher scores as a
    /// repetition draw, with this searcher's detector and policy; `None` if it enters the
    /// whole line. No search is done and no counter changes; the table changes only for a
    /// detector that keeps its marks in it (cleared, as before a search). This shows what the
    /// policy decides on a scripted line (the policy cases test it).
    ///
    /// # Panics
    /// If `positions` is empty, `moves.len() + 1 != positions.len()`, or a move of `line` is
    /// not legal where it is played.
    pub fn first_draw_ply(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        line: &[Move],
    ) -> Option<usize> {
        self.load_game(positions, moves, line.len() + 1);
        let mut pos = *positions.last().expect("at least the root position");
        let mut entered = Vec::with_capacity(line.len());
        let mut draw = None;
        for (i, &m) in line.iter().enumerate() {
            assert!(pos.is_legal(m), "line move {} is not legal", i + 1);
            let child = pos.play(m);
            self.line.push(&pos, m, &child);
            if self.repetition_draw(&child) {
                self.line.pop();
                draw = Some(i + 1);
                break;
            }
            self.enter(&child);
            entered.push(child);
            pos = child;
        }
        for child in entered.iter().rev() {
            self.leave(child);
            self.line.pop();
        }
        draw
    }

    /// Probes the detector for the line's last position, `pos` (through the position's table
    /// mark for a detector that keeps its marks in the table: a constant `false` test, folded
    /// away, for every other detector).
    #[inline(always)]
    fn probe(&mut self, pos: &Position) -> Option<Repetition> {
        if self.detector.in_search_table()
            && let Some(tt) = &self.tt
        {
            self.detector
                .probe_marked(&self.line, pos, tt.mark(pos.key()))
        } else {
            self.detector.probe(&self.line, pos)
        }
    }

    /// Enters the line's last position, `pos`, in the detector.
    #[inline(always)]
    fn enter(&mut self, pos: &Position) {
        if self.detector.in_search_table()
            && let Some(tt) = &mut self.tt
        {
            tt.update_mark(pos.key(), |mark| {
                self.detector.enter_marked(&self.line, pos, mark)
            });
        } else {
            self.detector.enter(&self.line, pos);
        }
    }

    /// Leaves the line's last position, `pos`, in the detector.
    #[inline(always)]
    fn leave(&mut self, pos: &Position) {
        if self.detector.in_search_table()
            && let Some(tt) = &mut self.tt
        {
            tt.update_mark(pos.key(), |mark| {
                self.detector.leave_marked(&self.line, pos, mark)
            });
        } else {
            self.detector.leave(&self.line, pos);
        }
    }
}

/// [`load_history`] for a detector that keeps its marks in the searcher's table: the same
/// pushes and root moves, entering every position through its table mark.
fn load_history_marked<D: Detector, T: Table>(
    detector: &mut D,
    tt: &mut T,
    line: &mut Line,
    positions: &[Position],
    moves: &[Move],
    search_capacity: usize,
) {
    assert_eq!(
        moves.len() + 1,
        positions.len(),
        "one move between each two positions"
    );
    let capacity = positions.len() + search_capacity;
    line.reset(&positions[0], capacity);
    detector.clear(capacity);
    tt.update_mark(positions[0].key(), |mark| {
        detector.enter_marked(line, &positions[0], mark)
    });
    for (i, &m) in moves.iter().enumerate() {
        line.push(&positions[i], m, &positions[i + 1]);
        line.set_root();
        let next = &positions[i + 1];
        tt.update_mark(next.key(), |mark| detector.enter_marked(line, next, mark));
    }
}
