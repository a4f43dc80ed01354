//! A small UCI engine for testing the conformance suite: exact draw rules on
//! [`replab_board`], a plain alpha-beta search over material, and one realistic draw-rule bug
//! injectable at a time ([`Bug`], the `Bug` option or `--bug NAME`).
//!
//! The clean engine follows the Laws: a third occurrence of a position (FIDE identity: placement,
//! side to move, castling rights, an en-passant capture only when one is legal) or a repetition
//! of a position after the root is a draw, the fifty-move rule (mate on the hundredth half-move
//! takes precedence), dead positions (bare kings, a lone minor piece, same-coloured bishops),
//! stalemate, and a PV that ends where the game ends. `Reverse` (or `--reverse`) reverses the
//! move generator's order, so a test can tell a caught bug from a lucky tie-break.
//!
//! Its evaluation is material only and it has no hash table: it is a test instrument, not a
//! player.

use std::io::{BufRead, Write};

use replab_board::{Color, Move, MoveList, Position, Role, Square, zobrist};

/// A mate score (mate at the root); mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;

/// The deepest search (plies of the PV table).
const MAX_PLY: usize = 96;

/// Declares [`Bug`] with each variant's name, what goes wrong and the real engine it comes from.
macro_rules! bugs {
    ($($(#[$doc:meta])* $variant:ident = ($name:literal, $what:literal, $source:literal),)*) => {
        /// A draw-rule bug real engines shipped, injectable into the test engine.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Bug {
            $($(#[$doc])* $variant,)*
        }

        impl Bug {
            /// Every bug, in table order.
            pub const ALL: &[Bug] = &[$(Bug::$variant,)*];

            /// The option value naming it.
            pub fn name(self) -> &'static str {
                match self { $(Bug::$variant => $name,)* }
            }

            /// What the engine gets wrong, in words.
            pub fn what(self) -> &'static str {
                match self { $(Bug::$variant => $what,)* }
            }

            /// Where the bug was seen in the wild.
            pub fn source(self) -> &'static str {
                match self { $(Bug::$variant => $source,)* }
            }
        }
    };
}

bugs! {
    /// No repetition detection at all.
    NoRepetition = ("no-repetition", "repetitions are never scored as draws",
        "engines without repetition detection"),
    /// Only a third occurrence counts, even for a repetition inside the search.
    SearchThirdOnly = ("search-third-only",
        "inside the search only a third occurrence is a draw (no repetition of a position after the root)",
        "a strict threefold search rule"),
    /// The en-passant square is in the identity although no capture is legal.
    EpAlways = ("ep-always",
        "the en-passant square after a double step is part of the position even when no en-passant capture is legal",
        "Stockfish #6138/#6563, Stormphrax #210, Minic #26, cutechess #817"),
    /// A twofold search that keys the en-passant square after every double step.
    EpKeyedTwofold = ("ep-keyed-twofold",
        "a twofold engine (every repetition a draw) keys the en-passant square after every double step, even when no pawn can capture",
        "weiss before PR #252"),
    /// The en-passant right is left out of the identity.
    EpIgnored = ("ep-ignored", "a legal en-passant capture is left out of the position's identity",
        "hashes without an en-passant key"),
    /// Castling rights are left out of the identity.
    CastlingIgnored = ("castling-ignored", "castling rights are left out of the position's identity",
        "hashes without castling keys"),
    /// The side to move is left out of the identity.
    SideIgnored = ("side-ignored", "the side to move is left out of the position's identity",
        "hashes without a side-to-move key"),
    /// A draw at 99 half-moves.
    FiftyEarly = ("fifty-early", "the fifty-move draw comes one half-move early (clock 99)",
        "off-by-one halfmove clocks (Bit-Genie #208)"),
    /// Mate on the hundredth half-move scored as a draw.
    MateOnHundredth = ("mate-on-hundredth",
        "a checkmate delivered on the hundredth half-move scores as a fifty-move draw",
        "Koivisto #201, blunder #14"),
    /// The FEN's halfmove clock is read as 0.
    FenClockIgnored = ("fen-clock-ignored", "the halfmove clock of the FEN is ignored (read as 0)",
        "Glaurung 2.2 (Debian)"),
    /// Captures do not restart the clock.
    CaptureKeepsClock = ("capture-keeps-clock", "a capture does not restart the halfmove clock",
        "halfmove-clock bugs producing false draws (Bit-Genie #208)"),
    /// Every check at ply 1 exempted from the fifty-move rule, not only mate.
    FiftyCheckExempt = ("fifty-check-exempt",
        "a check on the hundredth half-move is exempted from the fifty-move draw even when it does not mate",
        "blunder 9ac44a9 (its fix of #14)"),
    /// The fifty-move rule only at exactly 100 half-moves.
    FiftyOnlyAtHundred = ("fifty-only-at-100",
        "the fifty-move draw is tested with == 100, so a game played on past it (to the seventy-five-move rule) is not a draw",
        "lc0 stopping at fifty while the arbiter plays to seventy-five (LeelaQueenOdds #1)"),
    /// `bestmove 0000` when every move draws.
    NullBestmove = ("null-bestmove", "answers bestmove 0000 when every legal move draws",
        "rudim #35"),
    /// `bestmove a1a1` when the game has already ended at the root by a draw rule.
    NullBestmoveDrawnRoot = ("null-bestmove-drawn-root",
        "answers bestmove a1a1 (a null move) when the game has already ended in a draw at the root",
        "Sirius 7ca5989 and c981188 (measured by replab)"),
    /// The PV runs on past a drawn position.
    PvPastDraw = ("pv-past-draw",
        "the PV is padded with the engine's replies past a position where the game ended",
        "byte-knight #188, littlewing #112, RubiChess #489 (fastchess: PV continues after threefold)"),
    /// Dead positions are not draws.
    InsufficientMaterial = ("insufficient-material",
        "a dead position (insufficient material) is scored by material, not as a draw",
        "engines scoring material only"),
    /// Stalemate scored as a loss.
    StalemateLoss = ("stalemate-loss", "stalemate is scored as a loss for the side to move",
        "a mate test that forgets the check"),
}

impl Bug {
    /// The bug named `name`.
    pub fn parse(name: &str) -> Option<Bug> {
        Bug::ALL.iter().copied().find(|b| b.name() == name)
    }
}

/// How the engine is set up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// The injected bug, if any.
    pub bug: Option<Bug>,
    /// Generate moves in reverse order.
    pub reverse: bool,
    /// Search no deeper than this (0: as deep as `go depth` asks).
    pub max_depth: u32,
}

impl Settings {
    fn has(&self, bug: Bug) -> bool {
        self.bug == Some(bug)
    }
}

/// A position of the game or the search line, as the (possibly buggy) engine sees it.
#[derive(Clone, Copy)]
struct Node {
    pos: Position,
    /// The identity compared for repetitions.
    key: u64,
    /// The halfmove clock.
    clock: u32,
}

/// Material values by role index (pawn, knight, bishop, rook, queen, king).
const VALUE: [i32; 6] = [100, 300, 300, 500, 900, 0];

fn role_at(pos: &Position, sq: Square) -> Option<Role> {
    pos.piece_at(sq).map(|p| p.role)
}

impl Settings {
    /// The identity of `pos`; `raw_ep` is the square a double step just passed over (whether
    /// or not a capture onto it is legal).
    fn identity(&self, pos: &Position, raw_ep: Option<Square>) -> u64 {
        let mut key = pos.key();
        if self.has(Bug::EpIgnored)
            && let Some(ep) = pos.ep_square()
        {
            key ^= zobrist::ep_key(ep.file());
        }
        if (self.has(Bug::EpAlways) || self.has(Bug::EpKeyedTwofold))
            && pos.ep_square().is_none()
            && let Some(ep) = raw_ep
        {
            key ^= zobrist::ep_key(ep.file());
        }
        if self.has(Bug::CastlingIgnored) {
            key ^= zobrist::castling_key(pos.castling());
        }
        if self.has(Bug::SideIgnored) && pos.side_to_move() == Color::Black {
            key ^= zobrist::SIDE_KEY;
        }
        key
    }

    /// The node after `m` from `parent`.
    fn child(&self, parent: &Node, m: Move) -> Node {
        let pos = parent.pos.play(m);
        let pawn = role_at(&parent.pos, m.from()) == Some(Role::Pawn);
        let raw_ep = (pawn && m.from().rank().abs_diff(m.to().rank()) == 2)
            .then(|| Square::new((m.from().to_u8() + m.to().to_u8()) / 2));
        let resets = pawn || (m.is_capture() && !self.has(Bug::CaptureKeepsClock));
        Node {
            pos,
            key: self.identity(&pos, raw_ep),
            clock: if resets { 0 } else { parent.clock + 1 },
        }
    }

    /// The legal moves of `pos` in search order: captures (most valuable victim first) and
    /// promotions, then the rest, each group in generator order (reversed with `reverse`).
    fn ordered(&self, pos: &Position) -> Vec<Move> {
        let mut out = Vec::new();
        self.ordered_into(pos, &mut Scratch::default(), &mut out);
        out
    }

    /// [`Settings::ordered`] into `out`, with `scratch`'s buffers: no allocation once the
    /// buffers have grown (the search orders the moves of every node).
    fn ordered_into(&self, pos: &Position, scratch: &mut Scratch, out: &mut Vec<Move>) {
        pos.legal_moves_into(&mut scratch.legal);
        if self.reverse {
            scratch.legal.as_mut_slice().reverse();
        }
        let gain = |m: &Move| {
            let victim = if m.is_en_passant() {
                VALUE[0]
            } else {
                role_at(pos, m.to()).map_or(0, |r| VALUE[r.index()])
            };
            victim + m.promotion().map_or(0, |r| VALUE[r.index()])
        };
        // A stable sort by falling gain, each gain computed once: gains are never negative,
        // so the moves that gain something, sorted stably, go before the rest in their order.
        let gained = &mut scratch.gained;
        gained.clear();
        out.clear();
        for &m in scratch.legal.iter() {
            match gain(&m) {
                0 => out.push(m),
                g => gained.push((g, m)),
            }
        }
        gained.sort_by_key(|&(g, _)| std::cmp::Reverse(g));
        out.splice(0..0, gained.iter().map(|&(_, m)| m));
    }
}

/// The buffers [`Settings::ordered_into`] reuses: the generated moves and their gains.
#[derive(Default)]
struct Scratch {
    legal: MoveList,
    gained: Vec<(i32, Move)>,
}

/// Material from the side to move's point of view.
fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let mut score = 0;
    for role in Role::ALL {
        let v = VALUE[role.index()];
        score += v * pos.pieces(us, role).len() as i32;
        score -= v * pos.pieces(us.flip(), role).len() as i32;
    }
    score
}

/// A dead position by material alone: bare kings, a lone knight or bishop, or bishops of one
/// square colour only.
fn dead(pos: &Position) -> bool {
    let occ = pos.occupied();
    let kings = pos.by_role(Role::King);
    let minors = occ & !kings;
    if minors.is_empty() {
        return true;
    }
    if (minors & !(pos.by_role(Role::Knight) | pos.by_role(Role::Bishop))).is_not_empty() {
        return false;
    }
    if minors.len() == 1 {
        return true;
    }
    let bishops = pos.by_role(Role::Bishop);
    if bishops != minors {
        return false;
    }
    let light = bishops
        .into_iter()
        .filter(|s| (s.file() + s.rank()) % 2 == 1)
        .count() as u32;
    light == 0 || light == bishops.len()
}

/// One search: the game and the line searched, the root's index, the PV table, and the move
/// buffers it reuses (one per ply, and [`Scratch`]).
struct Search<'a> {
    s: &'a Settings,
    line: Vec<Node>,
    root: usize,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    nodes: u64,
    moves: Vec<Vec<Move>>,
    scratch: Scratch,
}

impl Search<'_> {
    /// The draw score of the line's last position if a rule ends the game there.
    fn rule_draw(&self) -> Option<i32> {
        let node = self.line.last().expect("non-empty line");
        let s = self.s;
        let fifty = if s.has(Bug::FiftyOnlyAtHundred) {
            node.clock == 100
        } else if s.has(Bug::FiftyEarly) {
            node.clock >= 99
        } else {
            node.clock >= 100
        };
        if fifty && !self.mate_exempts(node) {
            return Some(0);
        }
        if !s.has(Bug::NoRepetition) {
            let last = self.line.len() - 1;
            let (mut total, mut in_tree) = (0, 0);
            for (i, n) in self.line[..last].iter().enumerate() {
                if n.key == node.key {
                    total += 1;
                    in_tree += usize::from(i > self.root);
                }
            }
            let search_rule = !s.has(Bug::SearchThirdOnly) && in_tree > 0;
            let twofold = s.has(Bug::EpKeyedTwofold) && total >= 1;
            if total >= 2 || search_rule || twofold {
                return Some(0);
            }
        }
        if !s.has(Bug::InsufficientMaterial) && dead(&node.pos) {
            return Some(0);
        }
        None
    }

    /// Whether the fifty-move rule gives way at `node` (the line's last position): a mate,
    /// or with `fifty-check-exempt` any check one ply after the root.
    fn mate_exempts(&self, node: &Node) -> bool {
        if self.s.has(Bug::MateOnHundredth) || !node.pos.is_check() {
            return false;
        }
        let first_ply = self.line.len() == self.root + 2;
        !node.pos.has_legal_move() || (self.s.has(Bug::FiftyCheckExempt) && first_ply)
    }

    /// The score of a position without legal moves.
    fn no_moves(&self, pos: &Position, ply: usize) -> i32 {
        if pos.is_check() || self.s.has(Bug::StalemateLoss) {
            -MATE + ply as i32
        } else {
            0
        }
    }

    /// The moves of `pos` in search order, in ply `ply`'s buffer, taken until
    /// [`Search::give_back`] returns it.
    fn take_moves(&mut self, ply: usize, pos: &Position) -> Vec<Move> {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.s.ordered_into(pos, &mut self.scratch, &mut moves);
        moves
    }

    /// Returns ply `ply`'s buffer, so that the next node at that ply reuses it.
    fn give_back(&mut self, ply: usize, moves: Vec<Move>) {
        self.moves[ply] = moves;
    }

    fn push(&mut self, m: Move) {
        let child = self.s.child(self.line.last().expect("non-empty"), m);
        self.line.push(child);
    }

    fn negamax(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = ply;
        if ply > 0
            && let Some(draw) = self.rule_draw()
        {
            return draw;
        }
        let pos = self.line.last().expect("non-empty").pos;
        let moves = self.take_moves(ply, &pos);
        let score = if moves.is_empty() {
            self.no_moves(&pos, ply)
        } else if depth <= 0 || ply + 1 >= MAX_PLY {
            self.quiesce(alpha, beta, ply, &moves)
        } else {
            self.search_moves(depth, alpha, beta, ply, &moves)
        };
        self.give_back(ply, moves);
        score
    }

    /// The full-width part of [`Search::negamax`]: every move of `moves` searched a ply
    /// shallower.
    fn search_moves(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        moves: &[Move],
    ) -> i32 {
        for &m in moves {
            self.push(m);
            let score = -self.negamax(depth - 1, -beta, -alpha, ply + 1);
            self.line.pop();
            if score > alpha {
                alpha = score;
                self.pv[ply][ply] = m;
                for i in ply + 1..self.pv_len[ply + 1] {
                    self.pv[ply][i] = self.pv[ply + 1][i];
                }
                self.pv_len[ply] = self.pv_len[ply + 1].max(ply + 1);
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }

    /// Captures and promotions only, from a position whose `moves` are given.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, moves: &[Move]) -> i32 {
        let pos = self.line.last().expect("non-empty").pos;
        let stand = evaluate(&pos);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        for &m in moves {
            if !m.is_capture() && m.promotion().is_none() {
                continue;
            }
            if ply + 1 >= MAX_PLY {
                break;
            }
            self.push(m);
            self.nodes += 1;
            self.pv_len[ply + 1] = ply + 1;
            let score = match self.rule_draw() {
                Some(d) => -d,
                None => {
                    let child = self.line.last().expect("non-empty").pos;
                    let replies = self.take_moves(ply + 1, &child);
                    let score = if replies.is_empty() {
                        -self.no_moves(&child, ply + 1)
                    } else {
                        -self.quiesce(-beta, -alpha, ply + 1, &replies)
                    };
                    self.give_back(ply + 1, replies);
                    score
                }
            };
            self.line.pop();
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}

/// The UCI score of `score`.
fn uci_score(score: i32) -> String {
    if score.abs() >= MATE - MAX_PLY as i32 {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

/// The engine between commands.
struct Engine {
    settings: Settings,
    game: Vec<Node>,
}

impl Engine {
    fn position(&mut self, words: &[&str]) -> Result<(), String> {
        let (fen, rest) = match words.first() {
            Some(&"startpos") => (Position::START_FEN.to_string(), &words[1..]),
            Some(&"fen") => {
                let end = words
                    .iter()
                    .position(|w| *w == "moves")
                    .unwrap_or(words.len());
                (words[1..end].join(" "), &words[end..])
            }
            _ => return Err("position needs startpos or fen".into()),
        };
        let pos = Position::from_fen(&fen).map_err(|e| format!("bad fen: {e}"))?;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let raw_ep = fields.get(3).and_then(|f| Square::parse(f));
        let clock = if self.settings.has(Bug::FenClockIgnored) {
            0
        } else {
            u32::from(pos.halfmove_clock())
        };
        let mut game = vec![Node {
            pos,
            key: self.settings.identity(&pos, raw_ep),
            clock,
        }];
        for text in rest.iter().skip(1) {
            let last = game.last().expect("non-empty");
            let m = last
                .pos
                .parse_uci(text)
                .map_err(|_| format!("illegal move {text}"))?;
            game.push(self.settings.child(last, m));
        }
        self.game = game;
        Ok(())
    }

    fn go(&self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        let mut depth = 5;
        if let Some(i) = words.iter().position(|w| *w == "depth") {
            depth = words
                .get(i + 1)
                .and_then(|d| d.parse().ok())
                .unwrap_or(depth);
        }
        if self.settings.max_depth > 0 {
            depth = depth.min(self.settings.max_depth);
        }
        let depth = depth.clamp(1, MAX_PLY as u32 - 8) as i32;
        let s = &self.settings;
        let mut search = Search {
            s,
            line: self.game.clone(),
            root: self.game.len() - 1,
            pv: vec![[Move::NULL; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            nodes: 0,
            moves: vec![Vec::new(); MAX_PLY],
            scratch: Scratch::default(),
        };
        let root = search.line[search.root];
        let moves = s.ordered(&root.pos);
        if moves.is_empty() {
            writeln!(
                out,
                "info depth 0 score {}",
                uci_score(search.no_moves(&root.pos, 0))
            )?;
            return writeln!(out, "bestmove 0000");
        }
        if s.has(Bug::NullBestmoveDrawnRoot) && search.rule_draw().is_some() {
            writeln!(out, "info depth 1 score cp 0")?;
            return writeln!(out, "bestmove a1a1");
        }
        let mut best = (moves[0], Vec::new());
        for d in 1..=depth {
            let score = search.negamax(d, -MATE - 1, MATE + 1, 0);
            let mut pv: Vec<Move> = search.pv[0][..search.pv_len[0]].to_vec();
            if s.has(Bug::PvPastDraw) {
                pad(s, &self.game, &mut pv, d as usize);
            }
            let text: Vec<String> = pv.iter().map(|m| m.uci().to_string()).collect();
            writeln!(
                out,
                "info depth {d} score {} nodes {} pv {}",
                uci_score(score),
                search.nodes,
                text.join(" ")
            )?;
            if let Some(&m) = pv.first() {
                best = (m, pv);
            }
        }
        if s.has(Bug::NullBestmove) {
            let every_move_draws = moves.iter().all(|&m| {
                search.push(m);
                let draw = search.rule_draw().is_some();
                search.line.pop();
                draw
            });
            if every_move_draws {
                return writeln!(out, "bestmove 0000");
            }
        }
        out.flush()?;
        writeln!(out, "bestmove {}", best.0.uci())
    }
}

/// Pads `pv` to `len` moves with the first move in search order of each position reached,
/// through positions where the game has ended (the `pv-past-draw` bug).
fn pad(s: &Settings, game: &[Node], pv: &mut Vec<Move>, len: usize) {
    let mut node = *game.last().expect("non-empty");
    for &m in pv.iter() {
        node = s.child(&node, m);
    }
    while pv.len() < len {
        let Some(&m) = s.ordered(&node.pos).first() else {
            break;
        };
        pv.push(m);
        node = s.child(&node, m);
    }
}

/// The `option` lines of `uci`.
fn options() -> String {
    let bugs: Vec<String> = Bug::ALL
        .iter()
        .map(|b| format!(" var {}", b.name()))
        .collect();
    format!(
        "option name Bug type combo default none var none{}\n\
         option name Reverse type check default false\n\
         option name MaxDepth type spin default 0 min 0 max 64\n\
         option name Hash type spin default 1 min 1 max 1024",
        bugs.concat()
    )
}

/// Runs the UCI loop on `input` until `quit` or its end.
pub fn run(input: impl BufRead, mut out: impl Write, settings: Settings) {
    let mut engine = Engine {
        settings,
        game: Vec::new(),
    };
    let _ = engine.position(&["startpos"]);
    for line in input.lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let result = match words.first().copied() {
            Some("uci") => {
                let name = settings.bug.map_or("clean", Bug::name);
                writeln!(out, "id name replab-mutant ({name})")
                    .and_then(|()| writeln!(out, "id author replab"))
                    .and_then(|()| writeln!(out, "{}", options()))
                    .and_then(|()| writeln!(out, "uciok"))
            }
            Some("isready") => writeln!(out, "readyok"),
            Some("setoption") => {
                let text = line.trim_start_matches("setoption").trim();
                let (name, value) = match text.split_once(" value ") {
                    Some((n, v)) => (n.trim_start_matches("name").trim(), v.trim()),
                    None => (text.trim_start_matches("name").trim(), ""),
                };
                let answer = match name {
                    "Bug" if value == "none" => {
                        engine.settings.bug = None;
                        Ok(())
                    }
                    "Bug" => Bug::parse(value)
                        .map(|b| engine.settings.bug = Some(b))
                        .ok_or(format!("invalid Bug {value}")),
                    "Reverse" => {
                        engine.settings.reverse = value == "true";
                        Ok(())
                    }
                    "MaxDepth" => value
                        .parse()
                        .map(|d| engine.settings.max_depth = d)
                        .map_err(|_| format!("invalid MaxDepth {value}")),
                    "Hash" => Ok(()),
                    _ => Err(format!("unknown option {name}")),
                };
                match answer {
                    Ok(()) => Ok(()),
                    Err(e) => writeln!(out, "info string {e}"),
                }
            }
            Some("position") => match engine.position(&words[1..]) {
                Ok(()) => Ok(()),
                Err(e) => writeln!(out, "info string {e}"),
            },
            Some("go") => engine.go(&words[1..], &mut out),
            Some("quit") => break,
            _ => Ok(()),
        };
        if result.and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(settings: Settings, commands: &str) -> String {
        let mut out = Vec::new();
        run(commands.as_bytes(), &mut out, settings);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn bugs_have_unique_names() {
        for (i, b) in Bug::ALL.iter().enumerate() {
            assert_eq!(Bug::parse(b.name()), Some(*b));
            assert!(!Bug::ALL[..i].iter().any(|c| c.name() == b.name()));
        }
        assert!(Bug::ALL.len() >= 15);
    }

    #[test]
    fn mates_and_stalemates() {
        let out = answer(
            Settings::default(),
            "position fen 7k/Q7/6K1/8/8/8/8/8 w - - 0 1\ngo depth 2\n",
        );
        assert!(out.contains("score mate 1"), "{out}");
        // Qa7-g7 and Qa7-b8 both mate.
        assert!(
            out.ends_with("bestmove a7g7\n") || out.ends_with("bestmove a7b8\n"),
            "{out}"
        );
        let out = answer(
            Settings::default(),
            "position fen 7k/8/6QK/8/8/8/8/8 b - - 0 1\ngo depth 2\n",
        );
        assert!(
            out.contains("score cp 0") && out.ends_with("bestmove 0000\n"),
            "{out}"
        );
    }

    #[test]
    fn dead_positions() {
        for (fen, is_dead) in [
            ("7k/8/8/8/8/8/8/K7 w - - 0 1", true),
            ("7k/8/8/8/8/8/8/KN6 w - - 0 1", true),
            ("7k/8/8/8/8/8/8/KB3b2 w - - 0 1", true),
            ("7k/8/8/8/8/8/8/KB2b3 w - - 0 1", false),
            ("7k/8/8/8/8/8/8/KR6 w - - 0 1", false),
        ] {
            assert_eq!(dead(&Position::from_fen(fen).unwrap()), is_dead, "{fen}");
        }
    }

    #[test]
    fn moves_are_ordered_as_a_stable_sort_by_falling_gain() {
        // Captures of every value, an en-passant capture, promotions with and without a
        // capture, and quiet moves, in both generation orders.
        let fens = [
            "r1bqk2r/pP1p1ppp/2n2n2/1B2p3/3PP3/2N2N2/P1P2PPP/R1BQK2R w KQkq - 0 1",
            "4k3/8/5n2/3pP3/8/8/8/4K3 w - d6 0 1",
            "1n2k3/P1P5/8/8/8/8/5p1p/K5N1 b - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            for reverse in [false, true] {
                let settings = Settings {
                    reverse,
                    ..Settings::default()
                };
                let mut expected: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if reverse {
                    expected.reverse();
                }
                let gain = |m: &Move| {
                    let victim = if m.is_en_passant() {
                        VALUE[0]
                    } else {
                        role_at(&pos, m.to()).map_or(0, |r| VALUE[r.index()])
                    };
                    victim + m.promotion().map_or(0, |r| VALUE[r.index()])
                };
                expected.sort_by_key(|m| -gain(m));
                let ordered = settings.ordered(&pos);
                assert_eq!(ordered, expected, "{fen} reverse {reverse}");
                assert!(ordered.iter().filter(|m| gain(m) > 0).count() >= 2, "{fen}");
            }
        }
    }
}
