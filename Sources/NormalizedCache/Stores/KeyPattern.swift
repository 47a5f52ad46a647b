/// The matching rule of ``NormalizedCache/removeRecords(matching:)``, shared so every store
/// agrees: a key matches when it contains the pattern, ignoring ASCII case; every character is
/// plain (`%` and `_` are not wildcards).
///
/// ```swift
/// KeyPattern.matches("User_12", "user_")          // true
/// let users = KeyPattern("User_")                 // the pattern folded once, for many keys
/// users.matches("Other_3")                         // false
/// ```
public struct KeyPattern: Sendable {
  /// The pattern's bytes, ASCII letters in lower case.
  private let needle: [UInt8]

  public init(_ pattern: String) {
    needle = pattern.utf8.map(Self.lowercased)
  }

  /// Whether `key` contains `pattern`, ignoring ASCII case.
  public static func matches(_ key: CacheKey, _ pattern: String) -> Bool {
    KeyPattern(pattern).matches(key)
  }

  /// Whether `key` contains the pattern, ignoring ASCII case; reads the key's bytes in place. An
  /// empty pattern matches no key: a removal by it removes nothing, as in Apollo's stores.
  /// - Complexity: O(k · p) for a key of k bytes and a pattern of p.
  public func matches(_ key: CacheKey) -> Bool {
    if needle.isEmpty { return false }
    if let found = key.utf8.withContiguousStorageIfAvailable({ contains($0) }) { return found }
    return Array(key.utf8).withUnsafeBufferPointer { contains($0) }
  }

  private func contains(_ haystack: UnsafeBufferPointer<UInt8>) -> Bool {
    needle.withUnsafeBufferPointer { needle in
      guard haystack.count >= needle.count else { return false }
      let first = needle[0]
      outer: for start in 0...(haystack.count - needle.count) where Self.lowercased(haystack[start]) == first {
        for offset in 1..<needle.count where Self.lowercased(haystack[start + offset]) != needle[offset] {
          continue outer
        }
        return true
      }
      return false
    }
  }

  @inline(__always)
  static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }
}
