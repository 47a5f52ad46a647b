import NormalizedCache

/// A SQLite store with a budget: a layout's store (``LayoutStore``), and around it the ``EvictionLedger`` both
/// stores drive, kept in memory and written down in a table of its own, so that a store opened
/// again keeps its order.
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
/// - A merge is the record store's (``RecordRowStore/mergeInTransaction(_:log:)``), which returns
///   what it wrote; the ledger takes those writes, and a merge that ends past the budget deletes
///   the ledger's victims in its own transaction: their rows, chunks and usage rows. If the
///   transaction rolls back, the ledger is read again from the file.
/// - A record a read finds expired is not handed out, and its rows go in the next merge.
struct BoundedRecordStore<Table: LayoutStore> {
  var layoutStore: Table
  var ledger: EvictionLedger
  /// Records reads found expired, whose rows the next merge deletes.
  var pendingExpired: [CacheKey] = []
  var evictionNanoseconds: UInt64 = 0
  /// Merges since the usage rows were last written.
  var mergesSinceFlush = 0

  /// Keeps a budget over a layout's store, opened with the usage table
  /// (``LayoutDescriptor/openStore(path:options:)``), and reads the ledger from it.
  /// - Throws: ``SQLiteError`` when SQLite fails.
  init(layoutStore: Table, budget: CacheBudget) throws(SQLiteError) {
    self.layoutStore = layoutStore
    ledger = EvictionLedger(budget: budget)
    ledger.tracksChanges = true
    try loadLedger()
  }

  // MARK: What the budget counts

  /// A record's bytes as the budget counts them: its stored bytes and the layout's overhead, and
  /// its row in `record_usage` (its key again and ``SQLiteNormalizedCache/usageRowOverheadBytes``).
  func accounted(storedBytes: Int, key: CacheKey) -> Int {
    storedBytes + layoutStore.recordOverhead + key.utf8.count + SQLiteNormalizedCache.usageRowOverheadBytes
  }

  /// The stored bytes of a record the budget counts as `accounted`.
  func storedBytes(ofAccounted accounted: Int, key: CacheKey) -> Int {
    accounted - layoutStore.recordOverhead - key.utf8.count - SQLiteNormalizedCache.usageRowOverheadBytes
  }

  /// Reads the ledger from the file: every record with its stored bytes, and its usage row where
  /// it has one (a record without one, written by an unbounded store, is the least recent).
  mutating func loadLedger() throws(SQLiteError) {
    var usages: [CacheKey: EvictionLedger.Usage] = [:]
    for (key, bytes) in try layoutStore.storedBytesByKey() {
      usages[key] = EvictionLedger.Usage(key: key, bytes: bytes, uses: 0, lastUse: 0, lastWrite: 0, writtenStep: 0)
    }
    let rows = try layoutStore.connection.cachedStatement(
      "SELECT key, uses, last_use, last_write, written_step FROM record_usage")
    defer { rows.reset() }
    while try rows.step() {
      let key = try rows.text(at: 0)
      guard usages[key] != nil else { continue }
      usages[key]?.uses = Int(rows.int64(at: 1))
      usages[key]?.lastUse = UInt64(rows.int64(at: 2))
      usages[key]?.lastWrite = UInt64(rows.int64(at: 3))
      usages[key]?.writtenStep = Int(rows.int64(at: 4))
    }
    ledger.restore(
      usages.values.map { usage in
        var usage = usage
        usage.bytes = accounted(storedBytes: usage.bytes, key: usage.key)
        return usage
      })
    _ = ledger.takeChanged()
    pendingExpired = []
  }

  /// Every record's accounted bytes, the roots' included.
  var accountedBytes: Int { ledger.bytes }
  /// The ledger is kept exact: its removals read back what went.
  mutating func settleAccounting() throws(SQLiteError) {}

  // MARK: Loading

  /// The records of these keys in their order, admitted through the ledger: each one found is
  /// used; one that expired is not handed out, and its rows wait for the next merge.
  mutating func loadInOrder(_ keys: [CacheKey], projection: FieldProjection?) throws(SQLiteError) -> [Record?] {
    var found = try layoutStore.loadInOrder(keys, projection: projection)
    for position in found.indices where found[position] != nil {
      switch ledger.read(keys[position]) {
      case .held: continue
      case .expired: pendingExpired.append(keys[position])
      case .absent: break
      }
      found[position] = nil
    }
    return found
  }

  // MARK: Merging

  /// Merges records field by field in one transaction, as ``LayoutStore/merge(_:)``, then keeps
  /// the budget in it:
  ///
  /// 1. the records reads found expired, and the incoming ones that have expired, go first: a
  ///    merge must not merge into them;
  /// 2. the record store merges, and says what it wrote;
  /// 3. the ledger notes each record written (an unchanged one too: a write is a use), in the
  ///    order the records came, as the in-memory store writes them;
  /// 4. the ledger's victims are deleted, and every ``usageFlushInterval`` merges the usage rows
  ///    are written (``evictAndFlush()``).
  /// - Throws: ``MergeError``: SQLite's, or the budget's for a record larger than the whole
  ///   budget (or roots that outgrew it); the database, the format's memory and the ledger are
  ///   then as before.
  mutating func merge(_ incoming: RecordSet) throws(MergeError) -> ChangedKeys {
    guard !incoming.isEmpty else { return ChangedKeys() }
    return try inWriteTransaction(lifting: MergeError.sqlite) { store throws(MergeError) in
      var written = WrittenBytes()
      let changed: ChangedKeys
      do throws(SQLiteError) {
        try store.deleteExpired(among: incoming)
        changed = try store.layoutStore.mergeInTransaction(incoming, log: &written)
      } catch {
        throw .sqlite(error)
      }
      do throws(CacheBudgetError) {
        for record in incoming { try store.noteWritten(record.key, written) }
      } catch {
        throw .budget(error)
      }
      try store.evictAndFlush()
      return changed
    }
  }

  /// What a merge wrote, as ``LayoutStore/mergeInTransaction(_:log:)`` reports it: each record's
  /// stored bytes, and apart (so that the common case keeps a dictionary of plain Ints, and this
  /// one stays empty) each split record's growth.
  struct WrittenBytes: MergeLog {
    var stored: [CacheKey: Int] = [:]
    var grown: [CacheKey: Int] = [:]

    static var countsBytes: Bool { true }

    mutating func wrote(_ key: CacheKey, storedBytes: Int) { stored[key] = storedBytes }
    mutating func grew(_ key: CacheKey, by delta: Int) { grown[key] = delta }
  }

  /// The record was written (merged, new or unchanged): the ledger counts its bytes now. A split
  /// record's growth adds to the bytes the ledger had for it.
  /// - Throws: ``CacheBudgetError`` when the record alone is larger than the budget.
  private mutating func noteWritten(_ key: CacheKey, _ written: WrittenBytes) throws(CacheBudgetError) {
    let stored: Int
    if let bytes = written.stored[key] {
      stored = bytes
    } else if !written.grown.isEmpty, let delta = written.grown[key], let old = ledger.bytes(of: key) {
      // (A lookup hashes its key even in an empty dictionary.)
      stored = storedBytes(ofAccounted: old, key: key) + delta
    } else {
      return
    }
    let bytes = accounted(storedBytes: stored, key: key)
    try ledger.checkFits(key, bytes: bytes)
    ledger.write(key, bytes: bytes)
  }

  /// Deletes the rows of the records reads found expired, and of the incoming records that have
  /// expired (in the merge's transaction).
  private mutating func deleteExpired(among incoming: RecordSet) throws(SQLiteError) {
    for key in pendingExpired where !ledger.contains(key) { try deleteRecordAndUsage(key) }
    pendingExpired = []
    for record in incoming where ledger.isExpired(record.key) {
      ledger.expire(record.key)
      try deleteRecordAndUsage(record.key)
    }
  }

  private mutating func deleteRecordAndUsage(_ key: CacheKey) throws(SQLiteError) {
    if try layoutStore.deleteRows(of: key) != nil { try deleteUsage(of: key) }
  }

  // MARK: Removing

  /// Deletes the rows of these keys in one transaction, and forgets them.
  mutating func removeRecords(forKeys keys: [CacheKey]) throws(SQLiteError) {
    try inWriteTransaction(lifting: { $0 }) { store throws(SQLiteError) in try store.delete(keys) }
  }

  /// Deletes the records whose keys contain `pattern` (``LayoutStore/deleteRows(matching:deleted:)``), in one transaction.
  mutating func removeRecords(matching pattern: String) throws(SQLiteError) {
    try inWriteTransaction(lifting: { $0 }) { store throws(SQLiteError) in
      var deleted: [CacheKey] = []
      try store.layoutStore.deleteRows(matching: pattern) { deleted.append($0) }
      try store.forget(deleted)
    }
  }

  /// Deletes the rows of these keys and their usage rows, and forgets them; in the caller's transaction.
  private mutating func delete(_ keys: [CacheKey]) throws(SQLiteError) {
    var deleted: [CacheKey] = []
    try layoutStore.deleteRows(of: keys) { deleted.append($0) }
    try forget(deleted)
  }

  /// Deletes the usage rows of records just deleted, and forgets them; in the caller's transaction.
  private mutating func forget(_ deleted: [CacheKey]) throws(SQLiteError) {
    for key in deleted {
      try deleteUsage(of: key)
      _ = ledger.remove(key)
    }
  }

  /// Deletes every record and usage row.
  mutating func clear() throws(SQLiteError) {
    try inWriteTransaction(lifting: { $0 }) { store throws(SQLiteError) in
      try store.layoutStore.deleteAllRows()
      try store.layoutStore.connection.cachedStatement("DELETE FROM record_usage").execute()
    }
    ledger.removeAll()
    pendingExpired = []
  }

  // MARK: Transactions

  /// Runs `body` in a writing transaction (``RecordRowStore/willWrite()``). When it rolls back, the
  /// records' memory goes back, and the ledger is read again from the file: the transaction had
  /// changed it in memory. The records and their bytes are then exactly the file's; the order is
  /// the one last written down (up to ``usageFlushInterval`` merges old), not the one in memory,
  /// and evictions the rolled-back merge reported did not happen.
  mutating func inWriteTransaction<Result, Failure: Error>(
    lifting: (SQLiteError) -> Failure, _ body: (inout BoundedRecordStore) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let saved = layoutStore.willWrite()
    do {
      return try layoutStore.connection.inTransaction(lifting: lifting) { () throws(Failure) in try body(&self) }
    } catch {
      layoutStore.didRollBack(to: saved)
      _ = ledger.takeReport()
      do { try loadLedger() } catch let reload { throw lifting(reload) }
      throw error
    }
  }
}

/// The table of a bounded store's usage rows (docs/stores.md).
let usageTableSQL = """
  CREATE TABLE IF NOT EXISTS record_usage(key TEXT PRIMARY KEY NOT NULL, uses INTEGER NOT NULL,
    last_use INTEGER NOT NULL, last_write INTEGER NOT NULL, written_step INTEGER NOT NULL) WITHOUT ROWID;
  """

/// Why a merge into a bounded SQLite store failed: SQLite's error, or a record the budget cannot
/// hold. ``SQLiteNormalizedCache/merge(records:)`` throws the one it holds.
enum MergeError: Error {
  case sqlite(SQLiteError)
  case budget(CacheBudgetError)
}
