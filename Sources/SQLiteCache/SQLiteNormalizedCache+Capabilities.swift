import NormalizedCache

/// What the SQLite store can do (``StoreCapabilities``): a budget (and its bytes, bounded or not),
/// its keys, its lock waits, its footprint, and the file's pages.
extension SQLiteNormalizedCache: SQLiteFootprint, PagedStore {
  public var capabilities: StoreCapabilities {
    StoreCapabilities(bounded: self, keyListing: self, pages: self, lockWaits: self, footprint: self)
  }

  public func settledPages() throws -> (bytes: Int, freeBytes: Int) {
    try checkpoint()
    let pages = try pages()
    return (pages.bytes, pages.freeBytes)
  }

  public func vacuumsIncrementally() throws -> Bool {
    try autoVacuumMode() == 2
  }
}

/// The limit table measures its file as the SQLite store does.
extension SQLiteLimitStore: SQLiteFootprint {
  public var capabilities: StoreCapabilities { StoreCapabilities(footprint: self) }
}

/// A SQLite database's footprint: ``SQLiteNormalizedCache`` and the limit table report alike.
protocol SQLiteFootprint: FootprintReporting {
  func statistics() throws(SQLiteError) -> SQLiteNormalizedCache.Statistics
  func checkpoint() throws(SQLiteError)
}

extension SQLiteFootprint {
  /// `db_bytes` is `page_count × page_size` plus the WAL file (docs/metrics.md). In WAL mode
  /// `page_count` already counts the pages still in the WAL, so this is the disk in use, not the
  /// data.
  public func footprint(liveBytes _: Int) throws -> Footprint {
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
