/// The key of a record in a normalized cache: `QUERY_ROOT`, `QUERY_ROOT.favoriteBook`, `Book:bk123`.
///
/// A plain string, as in Apollo iOS; docs/keys.md fixes the formats.
public typealias CacheKey = String

/// The keys of the three operation roots.
public enum RootKey {
  public static let query: CacheKey = "QUERY_ROOT"
  public static let mutation: CacheKey = "MUTATION_ROOT"
  public static let subscription: CacheKey = "SUBSCRIPTION_ROOT"

  public static let all: Set<CacheKey> = [query, mutation, subscription]

  /// Whether `key` is one of the roots: by its length first, then its bytes (`all.contains` hashes
  /// the whole key with SipHash, which a bounded store paid on every write).
  @inline(__always)
  public static func isRoot(_ key: CacheKey) -> Bool {
    switch key.utf8.count {
    case 10: key == query
    case 13: key == mutation
    case 17: key == subscription
    default: false
    }
  }
}

/// A reference from one record's field to another record.
///
/// Listed by Apollo's documentation as `"-> #QUERY_ROOT.favoriteBook"`, and written in JSON as
/// `{"$reference": "QUERY_ROOT.favoriteBook"}`.
public struct CacheReference: Sendable, Hashable, CustomStringConvertible {
  public let key: CacheKey

  public init(_ key: CacheKey) {
    self.key = key
  }

  public var description: String { "-> #\(key)" }
}
