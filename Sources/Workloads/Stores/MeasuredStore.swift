import NormalizedCache
import SQLiteCache

/// A store the workbench can measure: any ``NormalizedCache``, with what it can tell of its own
/// size. Both stores of this package adopt it, and so can yours (see ``StoreKinds``):
///
/// ```swift
/// final class DictionaryStore: NormalizedCache, MeasuredStore { ... }   // the defaults suffice
/// ```
/// - ``footprint(liveBytes:)``: by default nil, and the workbench counts the records it wrote
///   that the store still holds (loading them by key), their keys' and fields' bytes as the
///   payload, and jemalloc's live bytes since the store was made as the store's bytes.
/// - ``settledBytes()``: by default nil (a store with no steady state to bring itself to).
/// A store that also adopts ``BoundedNormalizedCache`` gets the traffic's eviction and byte rows.
public protocol MeasuredStore: NormalizedCache {
  /// What the store holds now, after the writes; `liveBytes` is what jemalloc counts as live
  /// since the store was made. Nil to let the workbench count (see above).
  func footprint(liveBytes: Int) throws -> Footprint?

  /// Brings the store to its steady state and returns its bytes then (SQLite: a checkpoint that
  /// empties the WAL into the database file); nil for a store that has no such state.
  func settledBytes() throws -> Int?
}

extension MeasuredStore {
  public func footprint(liveBytes: Int) throws -> Footprint? { nil }
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
  /// ``MeasuredStore/settledBytes()``, measured after the reads.
  public var settledBytes: Int?

  public init(recordCount: Int, payloadBytes: Int, storeBytes: Int, details: [(metric: String, bytes: Int)], settledBytes: Int? = nil) {
    self.recordCount = recordCount
    self.payloadBytes = payloadBytes
    self.storeBytes = storeBytes
    self.details = details
    self.settledBytes = settledBytes
  }
}

extension InMemoryNormalizedCache: MeasuredStore {
  public func footprint(liveBytes: Int) -> Footprint? {
    let statistics = statistics()
    return Footprint(
      recordCount: statistics.recordCount, payloadBytes: statistics.payloadBytes, storeBytes: liveBytes,
      details: [("live_bytes", liveBytes)])
  }
}

/// A SQLite database's footprint: ``SQLiteNormalizedCache`` and the limit table report alike.
protocol SQLiteFootprint: MeasuredStore {
  func statistics() throws(SQLiteError) -> SQLiteNormalizedCache.Statistics
  func checkpoint() throws(SQLiteError)
}

extension SQLiteFootprint {
  /// `db_bytes` is `page_count × page_size` plus the WAL file (docs/metrics.md). In WAL mode
  /// `page_count` already counts the pages still in the WAL, so this is the disk in use, not the
  /// data.
  public func footprint(liveBytes _: Int) throws -> Footprint? {
    let statistics = try statistics()
    let databaseBytes = statistics.databaseBytes + statistics.walBytes
    return Footprint(
      recordCount: statistics.recordCount, payloadBytes: statistics.payloadBytes, storeBytes: databaseBytes,
      details: [
        ("db_bytes", databaseBytes), ("wal_bytes", statistics.walBytes), ("sqlite_heap_bytes", statistics.heapBytes),
      ])
  }

  public func settledBytes() throws -> Int? {
    try checkpoint()
    let statistics = try statistics()
    return statistics.databaseBytes + statistics.walBytes
  }
}

extension SQLiteNormalizedCache: SQLiteFootprint {}

extension PlainRecordTable: SQLiteFootprint {}

extension ChainedNormalizedCache: MeasuredStore {
  /// The back's footprint (the records the chain holds), and what the front holds besides
  /// (`front_accounted_bytes`: its copies, as its budget counts them).
  public func footprint(liveBytes: Int) throws -> Footprint? {
    var footprint =
      try (back as? any MeasuredStore)?.footprint(liveBytes: liveBytes)
      ?? Footprint(recordCount: 0, payloadBytes: 0, storeBytes: liveBytes, details: [("live_bytes", liveBytes)])
    footprint.details.append(("front_accounted_bytes", front.accountedBytes()))
    return footprint
  }

  public func settledBytes() throws -> Int? { try (back as? any MeasuredStore)?.settledBytes() }
}

/// A store on database pages, whose file the workbench measures after evictions and clears
/// (phase `disk`): SQLite, and a chain in front of it.
public protocol PagedStore: MeasuredStore {
  /// The file's bytes in use and free, with the WAL checkpointed into it first.
  func settledPages() throws -> (bytes: Int, freeBytes: Int)
  /// Whether the file gives free pages back through ``incrementalVacuum()`` (`auto_vacuum` incremental).
  func vacuumsIncrementally() throws -> Bool
  func incrementalVacuum() throws
  func vacuum() throws
}

extension SQLiteNormalizedCache: PagedStore {
  public func settledPages() throws -> (bytes: Int, freeBytes: Int) {
    try checkpoint()
    let pages = try pages()
    return (pages.bytes, pages.freeBytes)
  }

  public func vacuumsIncrementally() throws -> Bool {
    try autoVacuumMode() == 2
  }
}

extension ChainedNormalizedCache: PagedStore {
  private var pagedBack: any PagedStore {
    get throws {
      guard let back = back as? any PagedStore else { throw PagedStoreError() }
      return back
    }
  }

  public func settledPages() throws -> (bytes: Int, freeBytes: Int) { try pagedBack.settledPages() }
  public func vacuumsIncrementally() throws -> Bool { try (back as? any PagedStore)?.vacuumsIncrementally() ?? false }
  public func incrementalVacuum() throws { try pagedBack.incrementalVacuum() }
  public func vacuum() throws { try pagedBack.vacuum() }
}

/// A chain whose back has no pages was asked for them.
struct PagedStoreError: Error, CustomStringConvertible {
  var description: String { "the chain's back store has no database pages" }
}
