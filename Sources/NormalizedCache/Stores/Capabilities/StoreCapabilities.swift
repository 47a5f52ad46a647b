/// What a store can do beyond the ``NormalizedCache`` contract, declared once by the store
/// (``NormalizedCache/capabilities``): the workbench's phases read it instead of asking the store
/// what it is (docs/stores.md#capabilities).
///
/// ```swift
/// final class DictionaryStore: KeyEnumerableCache {
///   var capabilities: StoreCapabilities { StoreCapabilities(keyListing: self) }   // garbage collection
///   ...
/// }
/// ```
/// Each is the part of the store that does it (the store itself, usually), or nil: what a phase
/// needs and the store lacks is not measured (docs/metrics.md says which rows need which).
public struct StoreCapabilities: Sendable {
  /// It keeps to a ``CacheBudget`` and accounts its bytes (with or without one): the traffic's
  /// eviction, expiry and byte rows, `footprint/accounted_bytes`, budgets given as a share.
  public var bounded: (any BoundedNormalizedCache)?
  /// It lists its keys: garbage collection (phase `gc`).
  public var keyListing: (any KeyListing)?
  /// Its records live on database pages: the file after evictions, clears and vacuums (phase `disk`).
  public var pages: (any PagedStore)?
  /// It has two tiers, and says where reads were served (the traffic's `front_*` rows).
  public var tiers: (any TieredCache)?
  /// It says how long calls waited for its locks (the concurrency phase's `*_lock_wait` rows).
  public var lockWaits: (any LockWaitReporting)?
  /// It measures what it holds (the write phase's footprint rows); without it the workbench counts
  /// the records it wrote that the store still holds, and jemalloc's live bytes.
  public var footprint: (any FootprintReporting)?

  public init(
    bounded: (any BoundedNormalizedCache)? = nil, keyListing: (any KeyListing)? = nil, pages: (any PagedStore)? = nil,
    tiers: (any TieredCache)? = nil, lockWaits: (any LockWaitReporting)? = nil, footprint: (any FootprintReporting)? = nil
  ) {
    self.bounded = bounded
    self.keyListing = keyListing
    self.pages = pages
    self.tiers = tiers
    self.lockWaits = lockWaits
    self.footprint = footprint
  }
}

/// The keys a store holds, which garbage collection needs besides the store's loads and removals.
public protocol KeyListing: AnyObject, Sendable {
  /// Every key the store holds, in no particular order.
  func allKeys() throws -> [CacheKey]
}

/// A store on database pages, whose file the workbench measures after evictions and clears
/// (phase `disk`): SQLite, and a chain in front of it.
public protocol PagedStore: AnyObject, Sendable {
  /// The file's bytes in use and free, with the WAL checkpointed into it first.
  func settledPages() throws -> (bytes: Int, freeBytes: Int)
  /// Whether the file gives free pages back through ``incrementalVacuum()`` (`auto_vacuum` incremental).
  func vacuumsIncrementally() throws -> Bool
  func incrementalVacuum() throws
  func vacuum() throws
}

/// A store that measures what it holds (docs/metrics.md, footprint).
public protocol FootprintReporting: AnyObject, Sendable {
  /// What the store holds now, after the writes; `liveBytes` is what jemalloc counts as live
  /// since the store was made.
  func footprint(liveBytes: Int) throws -> Footprint

  /// Brings the store to its steady state and returns its bytes then (SQLite: a checkpoint that
  /// empties the WAL into the database file); nil for a store that has no such state (the default).
  func settledBytes() throws -> Int?
}

extension FootprintReporting {
  public func settledBytes() throws -> Int? { nil }
}

/// What a store held after the writes (docs/metrics.md, footprint).
public struct Footprint: Sendable {
  public var recordCount: Int
  /// Keys and encoded fields: the payload, before any overhead of the store.
  public var payloadBytes: Int
  /// The bytes `bytes_per_record` divides: live bytes in memory, the database and WAL for SQLite.
  public var storeBytes: Int
  /// The store's own footprint rows, in order, by metric name: `live_bytes`; or `db_bytes`,
  /// `wal_bytes`, `sqlite_heap_bytes`.
  public var details: [(metric: String, bytes: Int)]
  /// ``FootprintReporting/settledBytes()``, measured after the reads.
  public var settledBytes: Int?

  public init(recordCount: Int, payloadBytes: Int, storeBytes: Int, details: [(metric: String, bytes: Int)], settledBytes: Int? = nil) {
    self.recordCount = recordCount
    self.payloadBytes = payloadBytes
    self.storeBytes = storeBytes
    self.details = details
    self.settledBytes = settledBytes
  }
}
