//! Result counts: games (trinomial) and game pairs (pentanomial).

use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

/// The result of one game from the point of view of the tested player (player A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// Player A lost.
    Loss,
    /// The game was drawn.
    Draw,
    /// Player A won.
    Win,
}

impl GameResult {
    /// Player A's score for this game: 0, ½ or 1.
    pub fn score(self) -> f64 {
        match self {
            GameResult::Loss => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Win => 1.0,
        }
    }
}

/// Counts of games by result, from player A's point of view (cutechess's and fishtest's
/// "trinomial" counts `[L, D, W]`, with scores 0, ½, 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Trinomial {
    /// Games player A lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games player A won.
    pub wins: u64,
}

impl Trinomial {
    /// Counts from wins, draws and losses (the order match runners print: `W D L`).
    pub fn from_wdl(wins: u64, draws: u64, losses: u64) -> Self {
        Trinomial {
            losses,
            draws,
            wins,
        }
    }

    /// Adds one game.
    pub fn add_game(&mut self, result: GameResult) {
        match result {
            GameResult::Loss => self.losses += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Win => self.wins += 1,
        }
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.losses + self.draws + self.wins
    }
}

impl Add for Trinomial {
    type Output = Trinomial;
    fn add(mut self, other: Trinomial) -> Trinomial {
        self += other;
        self
    }
}

impl AddAssign for Trinomial {
    fn add_assign(&mut self, other: Trinomial) {
        self.losses += other.losses;
        self.draws += other.draws;
        self.wins += other.wins;
    }
}

/// Counts of game pairs (one opening played twice, colours swapped) by the pair's total
/// score for player A: 0 (LL), ½ (LD), 1 (WL or DD), 1½ (WD), 2 (WW).
///
/// WL and DD are kept apart because fastchess reports six counts
/// (LL, LD, WL, DD, WD, WW); the statistics use their sum, as fishtest's five-count
/// "ptnml" `[LL, LD, WL+DD, WD, WW]` does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pairs player A lost twice.
    pub ll: u64,
    /// Pairs with one loss and one draw.
    pub ld: u64,
    /// Pairs with one win and one loss.
    pub wl: u64,
    /// Pairs with two draws.
    pub dd: u64,
    /// Pairs with one win and one draw.
    pub wd: u64,
    /// Pairs player A won twice.
    pub ww: u64,
}

impl Pentanomial {
    /// Counts in fastchess's order (LL, LD, WL, DD, WD, WW).
    pub fn from_fastchess(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Self {
        Pentanomial {
            ll,
            ld,
            wl,
            dd,
            wd,
            ww,
        }
    }

    /// Counts from fishtest's five-count ptnml `[LL, LD, WL+DD, WD, WW]`; the middle count
    /// is stored as DD (fishtest does not tell WL from DD, and the statistics only use the sum).
    pub fn from_ptnml(ptnml: [u64; 5]) -> Self {
        let [ll, ld, middle, wd, ww] = ptnml;
        Pentanomial {
            ll,
            ld,
            wl: 0,
            dd: middle,
            wd,
            ww,
        }
    }

    /// Adds the pair made of two games of one opening (either order).
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        use GameResult::{Draw, Loss, Win};
        match (first, second) {
            (Loss, Loss) => self.ll += 1,
            (Loss, Draw) | (Draw, Loss) => self.ld += 1,
            (Win, Loss) | (Loss, Win) => self.wl += 1,
            (Draw, Draw) => self.dd += 1,
            (Win, Draw) | (Draw, Win) => self.wd += 1,
            (Win, Win) => self.ww += 1,
        }
    }

    /// The pentanomial of a single pair.
    pub fn of_pair(first: GameResult, second: GameResult) -> Self {
        let mut counts = Pentanomial::default();
        counts.add_pair(first, second);
        counts
    }

    /// Number of game pairs.
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// Number of games (two per pair).
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// fishtest's five counts `[LL, LD, WL+DD, WD, WW]`, in increasing score order.
    pub fn ptnml(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// The games of these pairs counted one by one.
    pub fn trinomial(&self) -> Trinomial {
        Trinomial {
            losses: 2 * self.ll + self.ld + self.wl,
            draws: self.ld + 2 * self.dd + self.wd,
            wins: self.wl + self.wd + 2 * self.ww,
        }
    }
}

impl Add for Pentanomial {
    type Output = Pentanomial;
    fn add(mut self, other: Pentanomial) -> Pentanomial {
        self += other;
        self
    }
}

impl AddAssign for Pentanomial {
    fn add_assign(&mut self, other: Pentanomial) {
        self.ll += other.ll;
        self.ld += other.ld;
        self.wl += other.wl;
        self.dd += other.dd;
        self.wd += other.wd;
        self.ww += other.ww;
    }
}

/// Result counts the statistics accept: the number of samples in each score class, in
/// increasing score order, where a sample is one game (trinomial) or one game pair
/// (pentanomial). The scores of the classes are spread evenly over [0, 1]: `i / (k − 1)`
/// (fishtest's `results_to_pdf`).
pub trait ResultCounts {
    /// Samples per score class, lowest score first (`[L, D, W]` or `[LL, LD, WL+DD, WD, WW]`).
    fn classes(&self) -> Vec<u64>;
    /// Games in one sample: 1 for games, 2 for pairs.
    fn games_per_sample(&self) -> u64;
    /// The games counted one by one (the input of the BayesElo model).
    fn games_trinomial(&self) -> Trinomial;
}

impl ResultCounts for Trinomial {
    fn classes(&self) -> Vec<u64> {
        vec![self.losses, self.draws, self.wins]
    }
    fn games_per_sample(&self) -> u64 {
        1
    }
    fn games_trinomial(&self) -> Trinomial {
        *self
    }
}

impl ResultCounts for Pentanomial {
    fn classes(&self) -> Vec<u64> {
        self.ptnml().to_vec()
    }
    fn games_per_sample(&self) -> u64 {
        2
    }
    fn games_trinomial(&self) -> Trinomial {
        self.trinomial()
    }
}
