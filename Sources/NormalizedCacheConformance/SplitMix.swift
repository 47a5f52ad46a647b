/// SplitMix64 (Steele, Lea and Flood, 2014), the one source of every random choice of the model
/// checks here, so that a failing seed fails again. (The library depends on the cache alone, not
/// on the generator's `SplitMix64`, which draws the same numbers.) The package's tests and its
/// crash test draw from it too.
package struct SplitMix {
  package var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// True with probability `percent` in 100.
  package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
