import NormalizedCache
import SQLiteCache

/// A store whose footprint the workbench can report (SPEC §5, footprint). Both stores adopt it
/// here, in extensions: the cache protocol itself holds cache operations only.
protocol StoreFootprint: NormalizedCache {
  /// What the store holds now, after the writes; `liveBytes` is what jemalloc counts as live since
  /// the store was made (what the in-memory store's footprint is).
  func footprint(liveBytes: Int) throws -> Footprint

  /// Brings the store to its steady state and returns its bytes then (SQLite: a checkpoint that
  /// empties the WAL into the database file); nil for a store that has no such state.
  func settledBytes() throws -> Int?
}

/// What a store held after the writes.
struct Footprint {
  var recordCount: Int
  /// Keys and encoded fields: the payload, before any overhead of the store.
  var payloadBytes: Int
  /// The bytes `bytes_per_record` divides: live bytes in memory, the database and WAL for SQLite.
  var storeBytes: Int
  /// The store's own rows, in order: `live_bytes`; or `db_bytes`, `wal_bytes`, `sqlite_heap_bytes`.
  var details: [(metric: String, bytes: Int)]
  /// ``StoreFootprint/settledBytes()``, measured after the reads.
  var settledBytes: Int?

  /// The footprint rows (SPEC §5): the store's own, then bytes per record (after the checkpoint
  /// too, where there is one) and the payload.
  var rows: [(metric: String, value: Double)] {
    var rows = details.map { ($0.metric, Double($0.bytes)) }
    if let settledBytes {
      rows.append(("db_bytes_checkpointed", Double(settledBytes)))
      rows.append(("bytes_per_record_checkpointed", MetricSink.ratio(settledBytes, recordCount)))
    }
    rows.append(("bytes_per_record", MetricSink.ratio(storeBytes, recordCount)))
    rows.append(("payload_bytes", Double(payloadBytes)))
    return rows
  }
}

extension InMemoryNormalizedCache: StoreFootprint {
  func footprint(liveBytes: Int) -> Footprint {
    let statistics = statistics()
    return Footprint(
      recordCount: statistics.recordCount, payloadBytes: statistics.payloadBytes, storeBytes: liveBytes,
      details: [("live_bytes", liveBytes)])
  }

  func settledBytes() -> Int? { nil }
}

/// A SQLite database's footprint: ``SQLiteNormalizedCache`` and the limit table report alike.
protocol SQLiteFootprint: StoreFootprint {
  func statistics() throws(SQLiteError) -> SQLiteNormalizedCache.Statistics
  func checkpoint() throws(SQLiteError)
}

extension SQLiteFootprint {
  /// `db_bytes` is `page_count × page_size` plus the WAL file (SPEC §5). In WAL mode `page_count`
  /// already counts the pages still in the WAL, so this is the disk in use, not the data.
  func footprint(liveBytes _: Int) throws -> Footprint {
    let statistics = try statistics()
    let databaseBytes = statistics.databaseBytes + statistics.walBytes
    return Footprint(
      recordCount: statistics.recordCount, payloadBytes: statistics.payloadBytes, storeBytes: databaseBytes,
      details: [
        ("db_bytes", databaseBytes), ("wal_bytes", statistics.walBytes), ("sqlite_heap_bytes", statistics.heapBytes),
      ])
  }

  func settledBytes() throws -> Int? {
    try checkpoint()
    let statistics = try statistics()
    return statistics.databaseBytes + statistics.walBytes
  }
}

extension SQLiteNormalizedCache: SQLiteFootprint {}

extension PlainRecordTable: SQLiteFootprint {}

extension MetricSink {
  /// The footprint rows of one store (see ``Footprint/rows``).
  mutating func add(_ scope: Scope, _ footprint: Footprint) {
    for row in footprint.rows { add(scope, .footprint(row.metric), value: row.value) }
  }
}
