//! The deadwood solver's speed on random hands: `cargo bench -p gin-rules --bench deadwood`.
//!
//! Each iteration solves the next of 4,096 hands dealt from seeded decks, so a figure is the
//! time per hand averaged over typical hands (most hold no three of a kind; some hold several).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gin_cards::{CardSet, Deck, random};
use gin_rules::{Meld, Solver};

/// `count` hands of `size` cards, each the top of a seeded shuffled deck.
fn hands(size: usize, count: usize) -> Vec<CardSet> {
    let mut rng = random::seeded_rng(2026);
    (0..count).map(|_| Deck::shuffled(&mut rng).deal(size).expect("52 cards")).collect()
}

fn deadwood(c: &mut Criterion) {
    let solver = Solver::ACE_LOW;
    let ten = hands(10, 4096);
    let eleven = hands(11, 4096);

    let mut group = c.benchmark_group("min_deadwood");
    let mut i = 0;
    group.bench_function("10", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            solver.min_deadwood(black_box(ten[i]))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("best_discard");
    let mut i = 0;
    group.bench_function("11", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            solver.best_discards(black_box(eleven[i]))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("best_arrangement");
    let mut i = 0;
    group.bench_function("10", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            solver.best_arrangement(black_box(ten[i]))
        })
    });
    group.finish();

    // Two hands from one deck: the knocker shows a best arrangement of its ten cards.
    let mut rng = random::seeded_rng(7);
    let knocks: Vec<(Vec<Meld>, CardSet)> = (0..4096)
        .map(|_| {
            let mut deck = Deck::shuffled(&mut rng);
            let knocker = deck.deal(10).expect("52 cards");
            let defender = deck.deal(10).expect("42 cards");
            (solver.best_arrangement(knocker).melds().to_vec(), defender)
        })
        .collect();
    let mut group = c.benchmark_group("defend");
    let mut i = 0;
    group.bench_function("10", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            let (shown, defender) = &knocks[i];
            solver.defend(black_box(shown), black_box(*defender))
        })
    });
    group.finish();
}

criterion_group!(benches, deadwood);
criterion_main!(benches);
