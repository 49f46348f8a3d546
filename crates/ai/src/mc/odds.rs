//! The chance of winning the game from a score: how the search weighs a hand's points.
//!
//! Ten points are worth more at 95–80 than at 0–0. The search values the end of a hand by the
//! chance of winning the game from the score it leaves, under a plain model of later hands: each
//! player wins half of them, with a knock's, an undercut's or a gin's points (the bonuses from
//! the rules). The table is built once per ruleset by dynamic programming from the target down.
//!
//! The model's shares are rough: between agents as strong as `mc-fast` hands end otherwise. A
//! table built from how they do end played no better (docs/research/code-notes.md): the searches
//! compare candidates at one score, and the table's shape seems to barely move their order.

use gin_rules::Ruleset;

/// Above this target the table would be large; the value of points is then taken as linear.
const MAX_TARGET: u32 = 400;

/// The chance of winning the game from each score below the target.
#[derive(Clone, Debug)]
pub(crate) struct WinOdds {
    target: u32,
    /// `table[mine * target + theirs]`, for scores below the target; empty when linear.
    table: Vec<f64>,
}

impl WinOdds {
    /// The table for these rules.
    pub(super) fn new(rules: &Ruleset) -> WinOdds {
        let target = rules.target.max(1);
        if target > MAX_TARGET {
            return WinOdds { target, table: Vec::new() };
        }
        // The points of a won hand: (points, probability).
        let mut points: Vec<(u32, f64)> = Vec::new();
        points.extend((1..=12).map(|p| (p, 0.5 / 12.0)));
        points.extend((0..=8).map(|p| (rules.undercut_bonus + p, 0.3 / 9.0)));
        points.extend((0..=24).map(|p| (rules.gin_bonus + p, 0.2 / 25.0)));
        let t = target as usize;
        let mut table = vec![0.0; t * t];
        for mine in (0..t).rev() {
            for theirs in (0..t).rev() {
                let mut win = 0.0;
                for &(p, chance) in &points {
                    let p = p as usize;
                    let if_mine = if mine + p >= t { 1.0 } else { table[(mine + p) * t + theirs] };
                    let if_theirs = if theirs + p >= t { 0.0 } else { table[mine * t + theirs + p] };
                    win += chance * 0.5 * (if_mine + if_theirs);
                }
                table[mine * t + theirs] = win;
            }
        }
        WinOdds { target, table }
    }

    /// The chance of winning from `mine` to `theirs` once a hand scores `points` (positive: to
    /// this player, negative: to the opponent).
    pub(super) fn after(&self, mine: u32, theirs: u32, points: i32) -> f64 {
        let (mine, theirs) = if points >= 0 {
            (mine.saturating_add(points as u32), theirs)
        } else {
            (mine, theirs.saturating_add(points.unsigned_abs()))
        };
        if mine >= self.target {
            return 1.0;
        }
        if theirs >= self.target {
            return 0.0;
        }
        if self.table.is_empty() {
            // Linear: half a game per target's worth of lead.
            return 0.5 + 0.5 * (f64::from(mine) - f64::from(theirs)) / f64::from(self.target);
        }
        let t = self.target as usize;
        self.table[mine as usize * t + theirs as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odds_are_even_at_the_start_and_grow_with_the_lead() {
        let odds = WinOdds::new(&Ruleset::eaai());
        assert!((odds.after(0, 0, 0) - 0.5).abs() < 1e-9);
        assert!((odds.after(40, 40, 0) - 0.5).abs() < 1e-9);
        assert!(odds.after(0, 0, 10) > odds.after(0, 0, 5));
        assert!(odds.after(0, 0, -10) < odds.after(0, 0, -5));
        assert_eq!(odds.after(95, 0, 5), 1.0);
        assert_eq!(odds.after(0, 95, -5), 0.0);
        // Points are worth more near the end than at the start: at 90-90, 8 points leave the
        // opponent needing a big hand, while at 0-0 they are a twelfth of the way. (Behind at
        // 80-90 they are not: the opponent still needs only 10, as it did.)
        let late = odds.after(90, 90, 8) - odds.after(90, 90, 0);
        let early = odds.after(0, 0, 8) - odds.after(0, 0, 0);
        assert!(late > 2.0 * early, "{late} vs {early}");
        assert!(early > 0.0);
        // Symmetry: my chance is one less the opponent's.
        assert!((odds.after(30, 70, 0) + odds.after(70, 30, 0) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn large_targets_value_points_linearly() {
        let rules = Ruleset { target: 5000, ..Ruleset::eaai() };
        let odds = WinOdds::new(&rules);
        assert!((odds.after(0, 0, 0) - 0.5).abs() < 1e-9);
        assert!(odds.after(100, 0, 0) > odds.after(50, 0, 0));
    }
}
