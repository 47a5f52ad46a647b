/// Which records a bounded store evicts first when it is over its budget.
public enum EvictionPolicy: String, Sendable, Hashable, CaseIterable {
  /// Least recently used: every read and every write of a record makes it the most recent.
  case lru
  /// First in, first out, by the last write: reads do not count (least recently written).
  case fifo
  /// Least frequently used: the record read and written the fewest times since it was stored;
  /// among equals, the least recently used.
  case lfu
}

/// A bounded store's limits, as Apollo iOS's caching RFC (`sizeLimit`, `autoEvictionSize`) and
/// Apollo Kotlin's memory cache (`maxSizeBytes`, `expireAfter...`) describe them.
///
/// ```swift
/// let cache = InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: 8 << 20, evictTo: 0.9, policy: .lru))
/// ```
/// - Sizes are the store's accounted bytes (``BoundedNormalizedCache/accountedBytes()``): each
///   record's key and stored bytes plus a fixed overhead per record that the store measured.
/// - The root records (`QUERY_ROOT`, `MUTATION_ROOT`, `SUBSCRIPTION_ROOT`) are never evicted:
///   every read starts there, and without them nothing else is reachable. They count toward
///   the budget.
/// - Expiry counts steps of a clock the caller moves (``BoundedNormalizedCache/advanceClock(to:)``),
///   not seconds, so that a run's evictions are the same every time.
public struct CacheBudget: Sendable, Hashable {
  /// The most bytes the store holds after any merge; nil for no size limit (expiry only).
  public var maxSizeBytes: Int?
  /// When a merge takes the store past ``maxSizeBytes``, it evicts until it holds at most this
  /// fraction of it (the RFC's `autoEvictionSize`): 1 evicts just enough, every time; less evicts
  /// more at once, and less often.
  public var evictTo: Double
  public var policy: EvictionPolicy
  /// A record written at step s is gone at step s + this (Apollo Kotlin's `expireAfterWrite`); nil
  /// for never.
  public var expireAfterSteps: Int?
  /// Keep the keys of evicted records for ``BoundedNormalizedCache/takeEvictions()``; off by
  /// default, so that a store nobody asks does not collect them.
  public var reportsEvictedKeys: Bool

  public init(
    maxSizeBytes: Int? = nil, evictTo: Double = 0.9, policy: EvictionPolicy = .lru, expireAfterSteps: Int? = nil,
    reportsEvictedKeys: Bool = false
  ) {
    precondition(evictTo > 0 && evictTo <= 1, "evictTo must be in (0, 1]")
    precondition(maxSizeBytes.map { $0 > 0 } ?? true, "maxSizeBytes must be positive")
    precondition(expireAfterSteps.map { $0 > 0 } ?? true, "expireAfterSteps must be positive")
    self.maxSizeBytes = maxSizeBytes
    self.evictTo = evictTo
    self.policy = policy
    self.expireAfterSteps = expireAfterSteps
    self.reportsEvictedKeys = reportsEvictedKeys
  }

  /// The bytes an eviction brings the store down to.
  public var targetBytes: Int? { maxSizeBytes.map { Int((Double($0) * evictTo).rounded(.down)) } }
}

/// A record that cannot be kept within a budget: larger than the whole budget by itself (or the
/// root records together, which are never evicted, grew past it).
public struct CacheBudgetError: Error, Sendable, Hashable, CustomStringConvertible {
  public let key: CacheKey
  /// The record's accounted bytes (for the roots: theirs together).
  public let bytes: Int
  public let maxSizeBytes: Int

  public init(key: CacheKey, bytes: Int, maxSizeBytes: Int) {
    self.key = key
    self.bytes = bytes
    self.maxSizeBytes = maxSizeBytes
  }

  public var description: String {
    RootKey.isRoot(key)
      ? "the root records take \(bytes) bytes, more than the budget of \(maxSizeBytes) bytes (roots are never evicted)"
      : "record \"\(key)\" takes \(bytes) bytes, more than the whole budget of \(maxSizeBytes) bytes"
  }
}

/// What a bounded store removed on its own since it was last asked.
public struct EvictionReport: Sendable, Hashable {
  /// Records evicted to stay within the size budget.
  public var evicted = 0
  /// Records removed because they expired (``CacheBudget/expireAfterSteps``).
  public var expired = 0
  /// The accounted bytes of both.
  public var bytes = 0
  /// Their keys, in the order they went, when the budget ``CacheBudget/reportsEvictedKeys``.
  public var keys: [CacheKey] = []
  /// Time the store spent removing them (deleting rows, for SQLite), in nanoseconds; choosing
  /// the victims is counted too.
  public var nanoseconds: UInt64 = 0

  public init() {}

  public var isEmpty: Bool { evicted == 0 && expired == 0 }

  /// Adds another report's counts after this one's.
  public mutating func formUnion(_ other: EvictionReport) {
    evicted += other.evicted
    expired += other.expired
    bytes += other.bytes
    keys += other.keys
    nanoseconds += other.nanoseconds
  }
}

/// A store that keeps itself within a ``CacheBudget``: both stores of this package when given
/// one, and the chained store.
///
/// After every merge the store holds at most ``CacheBudget/maxSizeBytes`` accounted bytes; a read
/// never returns a record that was evicted or has expired.
public protocol BoundedNormalizedCache: NormalizedCache {
  /// The limits the store keeps to; nil when it has none (it still accounts its bytes).
  var budget: CacheBudget? { get }

  /// Moves the store's clock to `step` (expiry counts these steps); steps only move forward.
  func advanceClock(to step: Int) throws

  /// What the store evicted or expired since the last call.
  func takeEvictions() throws -> EvictionReport

  /// The bytes the budget counts: every record's key and stored bytes, plus the store's fixed
  /// overhead per record.
  func accountedBytes() throws -> Int
}
