import Support

/// Hashes that are the same in every process (Swift's `Hasher` is seeded per process), to derive
/// seeds from names and positions.
enum StableHash {
  /// FNV-1a over the UTF-8 bytes.
  static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    return hash
  }

  /// A well-scattered combination of two values; order matters.
  @inline(__always)
  static func combine(_ first: UInt64, _ second: UInt64) -> UInt64 {
    SplitMix64.mix(first ^ SplitMix64.mix(second &+ 0x9E37_79B9_7F4A_7C15))
  }

  @inline(__always)
  static func combine(_ first: UInt64, _ second: UInt64, _ third: UInt64) -> UInt64 {
    combine(combine(first, second), third)
  }
}
