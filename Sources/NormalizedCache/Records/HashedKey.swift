/// A cache key with its hash computed once, eight bytes at a time (``hash(_:seed:)``, which the
/// record set's index and the in-memory store use too): a dictionary keyed by it hashes only
/// that word, where a `String` key would run the whole key through the hasher each time.
struct HashedKey: Hashable {
  let key: CacheKey
  let hash: UInt64

  @inline(__always)
  init(_ key: CacheKey) {
    self.key = key
    hash = Self.hash(key)
  }

  /// The hash of a key's UTF-8, read in place (a copy of the string to call `withUTF8` on would
  /// cost a retain and a release, atomic both).
  @inline(__always)
  static func hash(_ key: CacheKey, seed: UInt64 = 0) -> UInt64 {
    key.withUTF8InPlace { hash($0, seed: seed) }
  }

  static func == (lhs: HashedKey, rhs: HashedKey) -> Bool { lhs.hash == rhs.hash && lhs.key == rhs.key }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  /// A multiply-and-fold hash of the bytes: not for adversaries (the Hasher's per-process seed,
  /// applied to this word, keeps the table's layout unpredictable), good enough to spread keys.
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64 = 0) -> UInt64 {
    var hash: UInt64 = (0x9E37_79B9_7F4A_7C15 ^ seed) ^ UInt64(truncatingIfNeeded: bytes.count)
    guard let base = bytes.baseAddress else { return hash }
    var offset = 0
    let count = bytes.count
    while offset + 8 <= count {
      hash = mix(hash ^ UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
      offset += 8
    }
    if offset < count {
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while offset < count {
        tail |= UInt64(base[offset]) &<< shift
        shift &+= 8
        offset += 1
      }
      hash = mix(hash ^ tail)
    }
    return mix(hash)
  }

  @inline(__always)
  private static func mix(_ value: UInt64) -> UInt64 {
    let multiplied = (value ^ (value >> 31)) &* 0xFF51_AFD7_ED55_8CCD
    return multiplied ^ (multiplied >> 29)
  }
}
