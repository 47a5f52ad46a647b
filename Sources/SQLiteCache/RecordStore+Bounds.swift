import NormalizedCache

/// A bounded SQLite store: the ``EvictionLedger`` both stores drive, kept in memory and written
/// down in a table of its own, so that a store opened again keeps its order.
///
/// ```sql
/// CREATE TABLE record_usage(key TEXT PRIMARY KEY NOT NULL, uses INTEGER NOT NULL,
///   last_use INTEGER NOT NULL, last_write INTEGER NOT NULL, written_step INTEGER NOT NULL) WITHOUT ROWID;
/// ```
/// - A record counts its stored bytes (key and data column; a split record's chunks), its layout's
///   ``SQLiteNormalizedCache/Layout/recordOverheadBytes``, and its usage row: its key again and
///   ``SQLiteNormalizedCache/usageRowOverheadBytes``.
/// - Reads touch the ledger in memory only: no write per read. The usage rows of every record
///   used or written since the last flush are written in a merge's transaction every
///   ``usageFlushInterval`` merges, in one batch (``flushUsage()``), and when the cache is
///   released. The order on disk serves only a store opened again on the file: eviction follows
///   the ledger in memory, so a crash loses at most the order of the last few merges, never a
///   record.
/// - A merge that ends past the budget deletes the ledger's victims in its own transaction: their
///   rows, chunks and usage rows. If the transaction rolls back, the ledger is read again from
///   the file.
/// - A record a read finds expired is not handed out, and its rows go in the next merge.
extension RecordStore {
  struct Bounds {
    var ledger: EvictionLedger
    /// Records reads found expired, whose rows the next merge deletes.
    var pendingExpired: [CacheKey] = []
    var evictionNanoseconds: UInt64 = 0
    /// Merges since the usage rows were last written.
    var mergesSinceFlush = 0

    init(budget: CacheBudget) {
      ledger = EvictionLedger(budget: budget)
      ledger.tracksChanges = true
    }
  }

  static let usageTableSQL = """
    CREATE TABLE IF NOT EXISTS record_usage(key TEXT PRIMARY KEY NOT NULL, uses INTEGER NOT NULL,
      last_use INTEGER NOT NULL, last_write INTEGER NOT NULL, written_step INTEGER NOT NULL) WITHOUT ROWID;
    """

  /// A bounded record's bytes as the budget counts them: its stored bytes and the layout's overhead,
  /// and its row in `record_usage` (its key again and ``SQLiteNormalizedCache/usageRowOverheadBytes``).
  func accounted(storedBytes: Int, key: CacheKey) -> Int {
    storedBytes + recordOverhead + key.utf8.count + SQLiteNormalizedCache.usageRowOverheadBytes
  }

  /// The stored bytes of a record the budget counts as `accounted`.
  func storedBytes(ofAccounted accounted: Int, key: CacheKey) -> Int {
    accounted - recordOverhead - key.utf8.count - SQLiteNormalizedCache.usageRowOverheadBytes
  }

  /// Reads the ledger from the file: every record with its stored bytes, and its usage row where
  /// it has one (a record without one, written by an unbounded store, is the least recent).
  mutating func loadLedger() throws(SQLiteError) {
    guard bounds != nil else { return }
    var usages: [CacheKey: EvictionLedger.Usage] = [:]
    let records = try connection.cachedStatement(
      """
      SELECT r.key, length(CAST(r.key AS BLOB)) + length(CAST(r.\(format.dataColumn) AS BLOB)),
        u.uses, u.last_use, u.last_write, u.written_step
      FROM records r LEFT JOIN record_usage u ON u.key = r.key
      """)
    defer { records.reset() }
    while try records.step() {
      let key = try records.text(at: 0)
      usages[key] = EvictionLedger.Usage(
        key: key, bytes: Int(records.int64(at: 1)), uses: Int(records.int64(at: 2)),
        lastUse: UInt64(records.int64(at: 3)), lastWrite: UInt64(records.int64(at: 4)), writtenStep: Int(records.int64(at: 5)))
    }
    records.reset()
    if try hasSplitTables() {
      let chunks = try connection.cachedStatement("SELECT key, total(length(data)) FROM record_chunks GROUP BY key")
      defer { chunks.reset() }
      while try chunks.step() {
        let key = try chunks.text(at: 0)
        usages[key]?.bytes += Int(chunks.double(at: 1))
      }
    }
    bounds!.ledger.restore(usages.values.map { usage in
      var usage = usage
      usage.bytes = accounted(storedBytes: usage.bytes, key: usage.key)
      return usage
    })
    _ = bounds!.ledger.takeChanged()
    bounds!.pendingExpired = []
  }

  /// After a rolled-back transaction, the ledger is read from the file again: the transaction had
  /// changed it in memory. The records and their bytes are then exactly the file's; the order is
  /// the one last written down (up to ``usageFlushInterval`` merges old), not the one in memory.
  mutating func reloadLedgerAfterRollback() throws(SQLiteError) {
    guard bounds != nil else { return }
    let report = bounds!.ledger.takeReport()
    try loadLedger()
    // Evictions the rolled-back merge reported did not happen.
    _ = report
  }

  /// The record was written (merged, new or unchanged) and now takes `storedBytes`.
  /// - Throws: ``CacheBudgetError`` when the record alone is larger than the budget.
  mutating func noteWritten(_ key: CacheKey, storedBytes: Int) throws(CacheBudgetError) {
    guard bounds != nil else { return }
    let bytes = accounted(storedBytes: storedBytes, key: key)
    try bounds!.ledger.checkFits(key, bytes: bytes)
    bounds!.ledger.write(key, bytes: bytes)
  }

  /// The records a load found, through the ledger: each one used; one that expired is not handed
  /// out, and its rows wait for the next merge.
  mutating func admit(_ key: CacheKey) -> Bool {
    guard bounds != nil else { return true }
    switch bounds!.ledger.read(key) {
    case .held: return true
    case .expired:
      bounds!.pendingExpired.append(key)
      return false
    case .absent: return false
    }
  }

  /// Deletes the rows of records reads found expired (in the merge's transaction).
  mutating func deletePendingExpired() throws(SQLiteError) {
    guard let pending = bounds?.pendingExpired, !pending.isEmpty else { return }
    for key in pending where !(bounds!.ledger.contains(key)) { _ = try deleteRows(of: key) }
    bounds!.pendingExpired = []
  }

  /// A record the merge is about to write that has expired: gone first, so that the new one does
  /// not merge into it. Returns whether it was.
  mutating func expireIfDue(_ key: CacheKey) throws(SQLiteError) -> Bool {
    guard bounds != nil, bounds!.ledger.isExpired(key) else { return false }
    bounds!.ledger.expire(key)
    _ = try deleteRows(of: key)
    return true
  }

  /// Merges between two writes of the usage rows. Written at every merge, the rows of everything
  /// reads had touched cost 28 us a record merged in budget-sweep.json at 100% under typePolicy,
  /// five times the merge itself: a session that mostly hits touches popular records again and
  /// again, and every merge wrote them again. Every 16 merges, each is written once a period.
  static let usageFlushInterval = 16

  /// Evicts the ledger's victims (deleting their rows), then, every ``usageFlushInterval`` merges,
  /// writes the usage of every record used or written since: the end of a bounded merge, in its transaction.
  /// - Throws: ``CacheBudgetError`` when the roots alone outgrow the budget.
  mutating func evictAndFlush() throws -> Void {
    guard bounds != nil else { return }
    if bounds!.ledger.isOverBudget {
      let start = ContinuousClock.now
      try evictOverBudget()
      let elapsed = (ContinuousClock.now - start).components
      bounds!.evictionNanoseconds += UInt64(elapsed.seconds) * 1_000_000_000 + UInt64(elapsed.attoseconds / 1_000_000_000)
    }
    bounds!.mergesSinceFlush += 1
    if bounds!.mergesSinceFlush >= Self.usageFlushInterval { try flushUsage() }
  }

  /// Writes the usage rows still pending, in a transaction of their own (the cache being released).
  mutating func flushPendingUsage() throws(SQLiteError) {
    guard bounds != nil, bounds!.mergesSinceFlush > 0 || bounds!.ledger.hasChanges else { return }
    try inWriteTransaction { store throws(SQLiteError) in try store.flushUsage() }
  }

  /// Deletes the ledger's victims, in key order and 32 keys to a statement in each table: their
  /// rows, usage rows and (where any record was ever split) chunks and field positions. The
  /// ledger knows what each victim stored (its accounted bytes less the overhead), so no
  /// `RETURNING` is needed. One `DELETE ... RETURNING` per victim, and a query of `sqlite_master`
  /// per victim for the split tables, cost 4.5 times an insert per record (callgrind; see the
  /// README's "Bounded caches").
  mutating func evictOverBudget() throws {
    let victims = try bounds!.ledger.evictWithBytes()
    guard !victims.isEmpty else { return }
    let keys = Self.keyOrder(ofKeys: victims.lazy.map(\.key)).map { victims[$0.index].key }
    var tables = ["records", "record_usage"]
    if try hasSplitTables() { tables += ["record_chunks", "record_fields"] }
    for table in tables { try deleteRows(of: keys, from: table) }
    accounting.records -= victims.count
    accounting.storedBytes -= victims.reduce(0) { $0 + storedBytes(ofAccounted: $1.bytes, key: $1.key) }
  }

  /// Keys a batched `DELETE` names (``evictOverBudget()``).
  static let deleteBatch = 32

  /// `DELETE FROM table WHERE key IN (?, ...)`, ``deleteBatch`` keys a run, the rest by powers of two.
  mutating func deleteRows(of keys: [CacheKey], from table: String) throws(SQLiteError) {
    var rest = keys[...]
    var full: Statement?
    while !rest.isEmpty {
      let count = rest.count >= Self.deleteBatch ? Self.deleteBatch : 1 << (Int.bitWidth - 1 - rest.count.leadingZeroBitCount)
      let statement: Statement
      if count == Self.deleteBatch, let full {
        statement = full
      } else {
        let parameters = Array(repeating: "?", count: count).joined(separator: ", ")
        statement = try connection.cachedStatement("DELETE FROM \(table) WHERE key IN (\(parameters))")
        if count == Self.deleteBatch { full = statement }
      }
      for (index, key) in rest.prefix(count).enumerated() { try statement.bind(key, at: Int32(index + 1)) }
      try statement.execute()
      rest = rest.dropFirst(count)
    }
  }

  /// Usage rows a flush writes per statement run, as the merge's inserts do (``insertBatch``).
  static let usageBatch = 32

  /// The usage of every record used or written since the last flush, in key order (the table's
  /// pages fill in order), ``usageBatch`` rows to an `INSERT OR REPLACE`, the rest by powers of
  /// two. One statement run per record cost 8,000 instructions a record of the calendar's merge,
  /// more than inserting the records themselves.
  mutating func flushUsage() throws(SQLiteError) {
    bounds!.mergesSinceFlush = 0
    let changed = bounds!.ledger.takeChanged()
    guard !changed.isEmpty else { return }
    var rest = Self.keyOrder(ofKeys: changed.map(\.key))[...]
    var full: Statement?
    while !rest.isEmpty {
      let rows = rest.count >= Self.usageBatch ? Self.usageBatch : 1 << (Int.bitWidth - 1 - rest.count.leadingZeroBitCount)
      let statement: Statement
      if rows == Self.usageBatch, let full {
        statement = full
      } else {
        let values = Array(repeating: "(?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
        statement = try connection.cachedStatement(
          "INSERT OR REPLACE INTO record_usage(key, uses, last_use, last_write, written_step) VALUES \(values)")
        if rows == Self.usageBatch { full = statement }
      }
      for (row, entry) in rest.prefix(rows).enumerated() {
        let usage = changed[entry.index]
        let base = Int32(5 * row)
        try statement.bind(usage.key, at: base + 1)
        try statement.bind(Int64(usage.uses), at: base + 2)
        try statement.bind(Int64(bitPattern: usage.lastUse), at: base + 3)
        try statement.bind(Int64(bitPattern: usage.lastWrite), at: base + 4)
        try statement.bind(Int64(usage.writtenStep), at: base + 5)
      }
      try statement.execute()
      rest = rest.dropFirst(rows)
    }
  }

  func deleteUsage(of key: CacheKey) throws(SQLiteError) {
    let statement = try connection.cachedStatement("DELETE FROM record_usage WHERE key = ?")
    try statement.bind(key, at: 1)
    try statement.execute()
  }
}
