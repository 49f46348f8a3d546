//! Seeded randomness that never changes under a `rand` upgrade.
//!
//! Everything random in gin (the deck, each agent) owns one [`GinRng`], a PCG generator built from a
//! `u64` seed by [`seeded_rng`]. Bounded draws and shuffles are this module's own code on top of the
//! generator's `next_u64`, so the same seed gives the same deal on every machine and every version.

use rand_core::Rng;

/// The generator every random owner in gin uses: PCG XSL 128/64 (`rand_pcg::Pcg64`).
pub type GinRng = rand_pcg::Pcg64;

/// SplitMix64: spreads a seed's bits (a bijection on `u64`).
const fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A generator for this seed: the PCG state and stream come from the seed through SplitMix64, so
/// nearby seeds give unrelated sequences.
pub fn seeded_rng(seed: u64) -> GinRng {
    let a = splitmix64(seed);
    let b = splitmix64(a);
    let c = splitmix64(b);
    let d = splitmix64(c);
    GinRng::new(u128::from(a) << 64 | u128::from(b), u128::from(c) << 64 | u128::from(d))
}

/// A seed for stream `stream` of `seed`: the seed of a game's hand, of a match's game, of an agent.
/// Different streams of one seed, and one stream of different seeds, give unrelated seeds.
pub const fn derive_seed(seed: u64, stream: u64) -> u64 {
    splitmix64(splitmix64(seed) ^ splitmix64(stream.wrapping_add(0x5851_f42d_4c95_7f2d)))
}

/// A uniform draw from `0..bound`, without bias (Lemire's multiply-and-reject).
///
/// # Panics
/// If `bound` is 0.
pub fn below<R: Rng + ?Sized>(rng: &mut R, bound: u64) -> u64 {
    assert!(bound > 0, "below(0) has no value to draw");
    let mut product = u128::from(rng.next_u64()) * u128::from(bound);
    if (product as u64) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (product as u64) < threshold {
            product = u128::from(rng.next_u64()) * u128::from(bound);
        }
    }
    (product >> 64) as u64
}

/// A uniform index into a slice of `len` elements (`len` > 0).
///
/// # Panics
/// If `len` is 0.
pub fn index<R: Rng + ?Sized>(rng: &mut R, len: usize) -> usize {
    below(rng, len as u64) as usize
}

/// Shuffles `items` uniformly (Fisher–Yates, from the last position down).
pub fn shuffle<T, R: Rng + ?Sized>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = index(rng, i + 1);
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_sequence() {
        let mut a = seeded_rng(7);
        let mut b = seeded_rng(7);
        let mut c = seeded_rng(8);
        let xs: Vec<u64> = (0..4).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..4).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..4).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
    }

    #[test]
    fn derived_seeds_differ() {
        let seeds = [derive_seed(1, 0), derive_seed(1, 1), derive_seed(2, 0), derive_seed(0, 1), derive_seed(0, 0)];
        for (i, a) in seeds.iter().enumerate() {
            for b in &seeds[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(derive_seed(7, 3), derive_seed(7, 3));
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = seeded_rng(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let x = below(&mut rng, 7) as usize;
            seen[x] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert_eq!(below(&mut rng, 1), 0);
        let huge = below(&mut rng, u64::MAX);
        assert!(huge < u64::MAX);
    }
}
