import NormalizedCache

/// The end of a bounded merge, in its transaction: the ledger's victims deleted, the usage rows
/// written down every ``usageFlushInterval`` merges.
extension BoundedRecordStore {
  /// Merges between two writes of the usage rows. Written at every merge, the rows of everything
  /// reads had touched cost a record merged in budget-sweep.json at 100% under typePolicy several
  /// times the merge itself: a session that mostly hits touches popular records again and
  /// again, and every merge wrote them again. Every 16 merges, each is written once a period.
  static var usageFlushInterval: Int { 16 }

  /// Evicts the ledger's victims (deleting their rows), then, every ``usageFlushInterval`` merges,
  /// writes the usage of every record used or written since.
  /// - Throws: ``MergeError/budget(_:)`` when the roots alone outgrow the budget.
  mutating func evictAndFlush() throws(MergeError) {
    if ledger.isOverBudget {
      let start = ContinuousClock.now
      try evictOverBudget()
      let elapsed = (ContinuousClock.now - start).components
      evictionNanoseconds += UInt64(elapsed.seconds) * 1_000_000_000 + UInt64(elapsed.attoseconds / 1_000_000_000)
    }
    mergesSinceFlush += 1
    if mergesSinceFlush >= Self.usageFlushInterval {
      do { try flushUsage() } catch { throw .sqlite(error) }
    }
  }

  /// Deletes the ledger's victims, in key order: their rows (``LayoutStore/deleteEvicted(_:)``)
  /// and their usage rows, 32 keys to a statement. The ledger knows what each victim stored (its
  /// accounted bytes less the overhead).
  private mutating func evictOverBudget() throws(MergeError) {
    let victims: [(key: CacheKey, bytes: Int)]
    do { victims = try ledger.evictWithBytes() } catch { throw .budget(error) }
    guard !victims.isEmpty else { return }
    let keys = RecordRowStore.keyOrder(ofKeys: victims.lazy.map(\.key)).map { victims[$0.index].key }
    do throws(SQLiteError) {
      try layoutStore.deleteEvicted(keys)
      try layoutStore.connection.deleteRows(of: keys, from: "record_usage", keyColumn: "key")
    } catch {
      throw .sqlite(error)
    }
    layoutStore.accounting.records -= victims.count
    layoutStore.accounting.storedBytes -= victims.reduce(0) { $0 + storedBytes(ofAccounted: $1.bytes, key: $1.key) }
  }

  /// Writes the usage rows still pending, in a transaction of their own (the cache being released).
  mutating func flushPendingUsage() throws(SQLiteError) {
    guard mergesSinceFlush > 0 || ledger.hasChanges else { return }
    try inWriteTransaction(lifting: { $0 }) { store throws(SQLiteError) in try store.flushUsage() }
  }

  /// The usage of every record used or written since the last flush, in key order (the table's
  /// pages fill in order), in batches of an `INSERT OR REPLACE` (``Connection/inBatches(_:sql:_:)``).
  /// One statement run per record cost the calendar's merge more than inserting the records
  /// themselves.
  mutating func flushUsage() throws(SQLiteError) {
    mergesSinceFlush = 0
    let changed = ledger.takeChanged()
    guard !changed.isEmpty else { return }
    let sql = { (rows: Int) in
      "INSERT OR REPLACE INTO record_usage(key, uses, last_use, last_write, written_step) VALUES "
        + Connection.placeholders(rows, "(?, ?, ?, ?, ?)")
    }
    try layoutStore.connection.inBatches(RecordRowStore.keyOrder(ofKeys: changed.map(\.key)), sql: sql) {
      statement, batch throws(SQLiteError) in
      for (row, entry) in batch.enumerated() {
        let usage = changed[entry.index]
        let base = Int32(5 * row)
        try statement.bind(usage.key, at: base + 1)
        try statement.bind(Int64(usage.uses), at: base + 2)
        try statement.bind(Int64(bitPattern: usage.lastUse), at: base + 3)
        try statement.bind(Int64(bitPattern: usage.lastWrite), at: base + 4)
        try statement.bind(Int64(usage.writtenStep), at: base + 5)
      }
      try statement.execute()
    }
  }

  func deleteUsage(of key: CacheKey) throws(SQLiteError) {
    let statement = try layoutStore.connection.cachedStatement("DELETE FROM record_usage WHERE key = ?")
    try statement.bind(key, at: 1)
    try statement.execute()
  }

  // MARK: The clock and the report

  mutating func advanceClock(to step: Int) { ledger.advance(to: step) }

  /// What the ledger evicted or expired since the last call, with the time deleting them took.
  mutating func takeEvictions() -> EvictionReport {
    var report = ledger.takeReport()
    report.nanoseconds = evictionNanoseconds
    evictionNanoseconds = 0
    return report
  }
}
