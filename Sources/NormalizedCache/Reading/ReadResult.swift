import GraphQLLanguage

/// The outcome of a read: the data, or what was missing.
public struct ReadResult: Sendable {
  public enum Outcome: Sendable, Equatable {
    case hit(JSONObject)
    /// A permissive read with a clock: every field there, some expired (Apollo's
    /// `Source.cache(containsStaleFields: true)`).
    case stale(JSONObject)
    case miss(CacheMiss)
  }

  public let outcome: Outcome
  public let statistics: ReadStatistics
  /// Every `recordKey.fieldKey` the read looked at, up to a miss.
  public let dependentKeys: DependentKeys
  /// A read with a clock: the response paths (list indexes included) of every selected field
  /// that expired, and of every field or object the cache lacks, each sorted by its dotted
  /// spelling (``ReadResult/spelled(_:)``). Empty without a clock.
  public var expired: [[String]] = []
  public var missing: [[String]] = []
  /// A read with a clock: the earliest time (seconds) at which a field it selected and found fresh
  /// expires, the first `now` at which the same read would find it expired; nil without a clock,
  /// or when no fresh field it selected has a `maxAge` that ends. A field of `maxAge` 0 is expired
  /// at every time, and sets none. What a watcher's refresh timer waits for (ADR 0004,
  /// docs/ttl.md#watchers-under-ttl).
  public var expiresAt: Int?

  init(outcome: Outcome, statistics: ReadStatistics, dependentKeys: DependentKeys) {
    self.outcome = outcome
    self.statistics = statistics
    self.dependentKeys = dependentKeys
  }

  /// The data of a hit or of a stale read.
  public var data: JSONObject? {
    switch outcome {
    case .hit(let data), .stale(let data): data
    case .miss: nil
    }
  }

  /// A path as `books.0.author.name`.
  public static func spelled(_ path: [String]) -> String { path.joined(separator: ".") }

  public var miss: CacheMiss? {
    if case .miss(let miss) = outcome { return miss }
    return nil
  }
}
