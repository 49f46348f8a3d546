//! The deadwood solver's speed on random hands: `cargo bench -p gin-rules --bench deadwood`.
//!
//! Each iteration solves the next of 4,096 hands dealt from seeded decks, so a figure is the
//! time per hand averaged over typical hands (most hold no three of a kind; some hold several).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gin_cards::{CardSet, Deck, random};
use gin_rules::{Meld, Solver};

const COUNT: usize = 4096;

/// `COUNT` deals of `hands` hands of `size` cards each, from seeded shuffled decks.
fn deals(seed: u64, hands: usize, size: usize) -> Vec<Vec<CardSet>> {
    let mut rng = random::seeded_rng(seed);
    (0..COUNT)
        .map(|_| {
            let mut deck = Deck::shuffled(&mut rng);
            (0..hands).map(|_| deck.deal(size).expect("enough cards")).collect()
        })
        .collect()
}

/// Benchmarks `solve` as `group/id`, each iteration on the next of `inputs`.
fn cycle<T, R>(c: &mut Criterion, group: &str, id: &str, inputs: &[T], mut solve: impl FnMut(&T) -> R) {
    // A mask, not a division, picks the next input: the loop should cost next to nothing.
    assert!(inputs.len().is_power_of_two());
    let mask = inputs.len() - 1;
    let mut i = 0;
    c.benchmark_group(group).bench_function(id, |b| {
        b.iter(|| {
            i = (i + 1) & mask;
            solve(black_box(&inputs[i]))
        })
    });
}

fn deadwood(c: &mut Criterion) {
    let solver = Solver::ACE_LOW;
    let ten: Vec<CardSet> = deals(2026, 1, 10).into_iter().map(|d| d[0]).collect();
    let eleven: Vec<CardSet> = deals(2027, 1, 11).into_iter().map(|d| d[0]).collect();
    // The knocker shows a best arrangement of its ten cards; the defender holds ten others.
    let knocks: Vec<(Vec<Meld>, CardSet)> =
        deals(7, 2, 10).into_iter().map(|d| (solver.best_arrangement(d[0]).melds().to_vec(), d[1])).collect();

    cycle(c, "min_deadwood", "10", &ten, |&hand| solver.min_deadwood(hand));
    cycle(c, "best_discard", "11", &eleven, |&hand| solver.best_discards(hand));
    cycle(c, "best_arrangement", "10", &ten, |&hand| solver.best_arrangement(hand));
    cycle(c, "defend", "10", &knocks, |(shown, defender)| solver.defend(shown, *defender));
}

criterion_group!(benches, deadwood);
criterion_main!(benches);
