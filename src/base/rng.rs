//! splitmix64: the small deterministic generator behind `check`'s random inputs and the
//! differential tests. Not cryptographic; chosen because every run with the same seed draws
//! the same inputs, on every machine, with no dependency.

/// A splitmix64 stream.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// A stream of its own for a name (FNV-1a of the name as the seed).
    pub fn from_name(name: &str) -> SplitMix64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in name.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        SplitMix64(h)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A draw in `0..n` (`n > 0`; the modulo bias is irrelevant for test inputs).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_determinism() {
        // Reference values of splitmix64 from seed 0 (Vigna's reference implementation).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        let (mut a, mut b) = (SplitMix64::from_name("x.py"), SplitMix64::from_name("x.py"));
        assert_eq!(a.next_u64(), b.next_u64());
        assert_ne!(
            SplitMix64::from_name("x.py").next_u64(),
            SplitMix64::from_name("y.py").next_u64()
        );
        assert!((0..1000).all(|_| a.below(7) < 7));
    }
}
