import CSQLite
import NormalizedCache

/// The store of the `rows`, `rows-rowid` and `rows-ordered` layouts, one row a field (``RecordRowStore`` keeps one
/// row a record): Apollo iOS 3.0's table (ADR 0006 on apollo-ios-dev, branch
/// `cache-rewrite/phase-1-plan`; Apollo's code on `cache-rewrite/phase-1a-record-projection`,
/// compared in docs/stores.md#the-rows-layout-against-apollos-code), one row per field and per
/// list element, written and read as
/// its plan's §7.2 says (docs/stores.md#the-rows-layout has the rows byte by byte):
///
/// ```sql
/// CREATE TABLE records(cache_key TEXT NOT NULL, field_name TEXT NOT NULL, position INTEGER NOT NULL DEFAULT -1,
///   int_value INTEGER, string_value TEXT, float_value REAL, bool_value INTEGER, child_key_value TEXT,
///   custom_scalar_value TEXT, written_at INTEGER NOT NULL,
///   PRIMARY KEY (cache_key, field_name, position)) WITHOUT ROWID;
/// ```
/// - A field is a row at `position` -1, its value in the column of its type (null: the text
///   `null` in `custom_scalar_value`, as Apollo's implementation stores it); a list is a row per
///   element at 0..N-1, an empty list one marker row at -2 with no value; a list in a list is a
///   row whose `child_key_value` names a synthetic sub-record (`Book:1.tags.$[3]`, field `$`)
///   holding its elements as a list, as Apollo's implementation names them. `written_at` is the
///   field's date (docs/records.md#dates), 0 for a record without dates.
/// - In our variant (`rows-ordered`, ``RowFormat/ordered``), a record whose field rows cannot say
///   all it holds also has a *record row*, `field_name`
///   empty (no field has an empty name), `position` -1: its field count, whether it has dates,
///   and the order of its fields where it is not the order of their names. So a record without
///   fields exists, fields come back in the order they were first written, and a record dated 0
///   keeps its dates. The others (their fields in the order of their names, dates not all 0, or
///   none) have none, as in Apollo's table: a record is there when a row of a field is.
/// - A load is one statement for up to 500 keys, every row of each record in the order of the
///   primary key; a merge loads the records it merges into, and writes only the rows of fields
///   whose value or date changed: a field's row upserted, a list's rows replaced, in the merge's
///   transaction, 32 rows a statement.
/// - A field named `$` cannot be stored: it names the rows of nested lists' sub-records, which
///   may share a key with a record.
/// - The layouts `rows` and `rows-rowid` write the table as Apollo's code does
///   (``RowFormat/apollo``): no record row, a nested list's row its sub-record's key alone.
struct FieldRowStore {
  let connection: Connection
  /// Whether the table is `WITHOUT ROWID` (the layouts `rows` and `rows-ordered`) or a rowid table
  /// (`rows-rowid`).
  let withoutRowid: Bool
  /// Which rows a record becomes: ours or Apollo's (``RowFormat``).
  let format: RowFormat
  /// The statements whose text depends on ``format``, made once.
  let sql: RowSQL
  var accounting = StoreAccounting()
  let recordOverhead: Int
  /// Reused from load to load: where rows become a record's ``RecordCodec`` bytes.
  var decoder: RowDecoder
  /// Reused from merge to merge: the rows a merge writes.
  var batch: RowBatch
  /// Reused from merge to merge: whether each record a merge loaded has its record row.
  var loadedRecordRows: [Bool] = []
  /// Reused from merge to merge: for each row of a 32-row upsert, the value columns its last
  /// row set (``writeBatch()``).
  var boundColumns = [UInt8](repeating: 0, count: Connection.batchRows)
  /// Whether the file held nested lists' sub-records when it was opened: with those this
  /// connection wrote since (``RowBatch/hasWrittenSubRecords``), whether a pattern delete must
  /// look for sub-records to cascade to.
  var hadSubRecords = false

  /// The table's columns, in order: how an existing file is known to be of this layout.
  static let columns = [
    "cache_key", "field_name", "position", "int_value", "string_value", "float_value", "bool_value", "child_key_value",
    "custom_scalar_value", "written_at",
  ]

  /// The table, `WITHOUT ROWID` or a rowid table with the primary key in an index of its own.
  static func schema(withoutRowid: Bool) -> String {
    """
    CREATE TABLE records(cache_key TEXT NOT NULL, field_name TEXT NOT NULL, position INTEGER NOT NULL DEFAULT -1,
      int_value INTEGER, string_value TEXT, float_value REAL, bool_value INTEGER, child_key_value TEXT,
      custom_scalar_value TEXT, written_at INTEGER NOT NULL,
      PRIMARY KEY (cache_key, field_name, position))\(withoutRowid ? " WITHOUT ROWID" : "");
    """
  }

  /// What a record costs a budget beyond its rows' stored bytes (each row's counts
  /// ``RowBytes/rowOverhead`` already): the pages' free space at SQLite's fill, measured as the other
  /// layouts' (docs/stores.md#the-rows-layout).
  static let recordOverheadBytes = 24

  /// The version Apollo's code stamps in `schema_metadata` (`SQLiteSchema.currentVersion` on
  /// `cache-rewrite/phase-1a-record-projection`), which tells a file of ``RowFormat/apollo`` rows.
  static let apolloSchemaVersion = "3.0"

  /// Apollo's `schema_metadata` table and its version row (`ApolloSQLiteDatabase.swift` 124-137,
  /// 170-190 on `cache-rewrite/phase-1a-record-projection`).
  static let apolloMetadataSchema = """
    CREATE TABLE schema_metadata(key TEXT PRIMARY KEY, value TEXT);
    INSERT INTO schema_metadata(key, value) VALUES ('version', '\(apolloSchemaVersion)');
    """

  /// A writer: opens the file, creates the layout's tables where it has none, and counts what it holds.
  init(
    path: String, options: SQLiteNormalizedCache.Options, withoutRowid: Bool, format: RowFormat, extraSchema: String? = nil
  ) throws(SQLiteError) {
    self.init(connection: try Connection(path: path, mutex: options.mutex), withoutRowid: withoutRowid, format: format)
    let schema = Self.schema(withoutRowid: withoutRowid) + (format == .apollo ? "\n" + Self.apolloMetadataSchema : "")
    try connection.openRecords(options, schema: schema, extraSchema: extraSchema)
    accounting = try countStoredBytes()
    // Finalized after use, as the count: a statement kept in the cache holds SQLite's heap.
    let subRecords = try Statement(
      sql: "SELECT EXISTS (SELECT 1 FROM records WHERE field_name = '\(Self.syntheticField)')", connection: connection,
      persistent: false)
    hadSubRecords = try subRecords.step() && subRecords.int64(at: 0) != 0
  }

  /// A read connection to a database a writer has set up (``ReaderPool``).
  init(readerAt path: String, options: SQLiteNormalizedCache.Options, withoutRowid: Bool, format: RowFormat) throws(SQLiteError) {
    self.init(connection: try Connection(path: path, mutex: options.mutex), withoutRowid: withoutRowid, format: format)
    try connection.openReader(options)
  }

  /// What every connection of the layout holds, made of its format once.
  private init(connection: Connection, withoutRowid: Bool, format: RowFormat) {
    self.connection = connection
    self.withoutRowid = withoutRowid
    self.format = format
    sql = RowSQL(format)
    decoder = RowDecoder(format: format)
    batch = RowBatch(format: format)
    recordOverhead = Self.recordOverheadBytes
  }

  // MARK: What the rows hold

  /// The stored bytes of the rows of `records`, one row's in SQL, as ``RowBytes`` counts them in
  /// Swift: its key and field name, its value (text bytes, 8 for an Int or a Double, 1 for a
  /// Boolean) and ``RowBytes/rowOverhead``.
  static let rowBytesSQL = """
    length(CAST(cache_key AS BLOB)) + length(CAST(field_name AS BLOB)) + ifnull(length(CAST(string_value AS BLOB)), 0)
      + ifnull(length(CAST(child_key_value AS BLOB)), 0) + ifnull(length(CAST(custom_scalar_value AS BLOB)), 0)
      + 8 * (int_value IS NOT NULL) + 8 * (float_value IS NOT NULL) + (bool_value IS NOT NULL) + \(RowBytes.rowOverhead)
    """

  /// Where a row is a record's own row (``FieldRowStore``): its field name empty, at -1.
  static let recordRowSQL = "field_name = '' AND position = -1"

  /// How many records the table holds: the keys of rows that are not a sub-record's (field `$`),
  /// each once (in the primary key's order: no sort), a record row or not.
  static let recordCountSQL = "(SELECT count(*) FROM (SELECT 1 FROM records WHERE field_name <> '$' GROUP BY cache_key))"

  /// The rows of a nested list's sub-record: field `$` (Apollo's `syntheticFieldName`).
  static let syntheticField = "$"

  /// Records and their stored bytes: every row's (a nested list's sub-record's count for the
  /// record holding it). Finalized after use, as the other layouts' count.
  func countStoredBytes() throws(SQLiteError) -> StoreAccounting {
    let statement = try Statement(
      sql: "SELECT \(Self.recordCountSQL), total(\(Self.rowBytesSQL)) FROM records", connection: connection, persistent: false)
    guard try statement.step() else { return StoreAccounting() }
    return StoreAccounting(records: Int(statement.double(at: 0)), storedBytes: Int(statement.double(at: 1)))
  }

  func statistics() throws(SQLiteError) -> SQLiteNormalizedCache.Statistics {
    try connection.recordStatistics(countAndPayloadSQL: "SELECT \(Self.recordCountSQL), total(\(Self.rowBytesSQL)) FROM records")
  }

  // MARK: Keys

  /// Every record's key: the keys of rows that are not a sub-record's, each once.
  func allKeys() throws(SQLiteError) -> [CacheKey] {
    try connection.texts("SELECT cache_key FROM records WHERE field_name <> '$' GROUP BY cache_key")
  }

  /// Every record's stored bytes: its rows', and its nested lists' sub-records'.
  func storedBytesByKey() throws(SQLiteError) -> [CacheKey: Int] {
    var own: [CacheKey: Int] = [:]
    var synthetic: [CacheKey: Int] = [:]
    let groups = try connection.cachedStatement(
      "SELECT cache_key, field_name = '$', total(\(Self.rowBytesSQL)) FROM records GROUP BY cache_key, field_name = '$'")
    defer { groups.reset() }
    while try groups.step() {
      let key = try groups.text(at: 0)
      if groups.int64(at: 1) != 0 { synthetic[key] = Int(groups.double(at: 2)) } else { own[key] = Int(groups.double(at: 2)) }
    }
    groups.reset()
    var records: [CacheKey: Int] = [:]
    for key in try allKeys() { records[key] = own[key] ?? 0 }
    guard !synthetic.isEmpty else { return records }
    // Each sub-record's bytes to the record that holds it, up the chain of nested lists.
    var holder: [CacheKey: CacheKey] = [:]
    let pointers = try connection.cachedStatement(sql.selectPointers)
    defer { pointers.reset() }
    while try pointers.step() { holder[try pointers.text(at: 1)] = try pointers.text(at: 0) }
    for (key, bytes) in synthetic {
      var top = key
      while let up = holder[top], records[top] == nil { top = up }
      records[top]? += bytes
    }
    return records
  }

  // MARK: Removing

  /// Deletes one record's rows, and its nested lists' sub-records; returns its stored bytes, nil
  /// when it had none. A sub-record that shares the key (field `$`) is not the record's.
  mutating func deleteRows(of key: CacheKey) throws(SQLiteError) -> Int? {
    let statement = try connection.cachedStatement(sql.deleteRecord)
    defer { statement.reset() }
    try statement.bind(key, at: 1)
    var bytes = 0
    var found = false
    var nested: [CacheKey] = []
    while try statement.step() {
      bytes += Int(statement.int64(at: 0))
      found = true
      if let child = try statement.optionalText(at: 1) { nested.append(child) }
    }
    statement.reset()
    bytes += try deleteSubRecords(nested)
    guard found else { return nil }
    accounting.records -= 1
    accounting.storedBytes -= bytes
    return bytes
  }

  /// Deletes the rows of every record whose key contains `pattern` (`LIKE` with `%`, `_` and `\`
  /// escaped, as ``KeyPattern`` matches), in one `DELETE ... LIKE ... RETURNING`, then their
  /// nested lists' sub-records; calls `deleted` with each record's key, once. A sub-record
  /// (field `$`) whose key alone matches is not a record, and stays.
  mutating func deleteRows(matching pattern: String, deleted: (CacheKey) -> Void) throws(SQLiteError) {
    let statement = try connection.cachedStatement(sql.deleteMatchingReturning)
    defer { statement.reset() }
    try statement.bind(Connection.like(containing: pattern), at: 1)
    var bytes = 0
    var records = 0
    var nested: [CacheKey] = []
    // A record's rows come one after the other (the primary key's order); the set only guards
    // against an order SQLite does not promise.
    var last: [UInt8] = []
    var seen: Set<CacheKey> = []
    while try statement.step() {
      bytes += Int(statement.int64(at: 1))
      let same = try statement.withBytes(at: 0, asText: true) { key in key.elementsEqual(last) }
      if !same {
        let key = try statement.text(at: 0)
        last = Array(key.utf8)
        if seen.insert(key).inserted {
          records += 1
          deleted(key)
        }
      }
      if let child = try statement.optionalText(at: 2) { nested.append(child) }
    }
    statement.reset()
    bytes += try deleteSubRecords(nested)
    accounting.records -= records
    accounting.storedBytes -= bytes
  }

  /// Deletes nested lists' sub-records, and theirs; returns their stored bytes.
  func deleteSubRecords(_ keys: [CacheKey]) throws(SQLiteError) -> Int {
    var pending = keys
    var bytes = 0
    let statement = try connection.cachedStatement(sql.deleteSubRecord)
    while let key = pending.popLast() {
      defer { statement.reset() }
      try statement.bind(key, at: 1)
      while try statement.step() {
        bytes += Int(statement.int64(at: 0))
        if let child = try statement.optionalText(at: 1) { pending.append(child) }
      }
    }
    return bytes
  }

  /// Deletes a budget's victims, 32 keys to a statement, and their sub-records; the caller keeps
  /// the accounting.
  mutating func deleteEvicted(_ keys: [CacheKey]) throws(SQLiteError) {
    var nested: [CacheKey] = []
    let pointer = sql.pointer
    let sql = { (rows: Int) in
      "DELETE FROM records WHERE cache_key IN (\(Connection.placeholders(rows))) AND field_name <> '$' RETURNING \(pointer)"
    }
    try connection.inBatches(keys, sql: sql) { statement, batch throws(SQLiteError) in
      defer { statement.reset() }
      for (index, key) in batch.enumerated() { try statement.bind(key, at: Int32(index + 1)) }
      while try statement.step() { if let child = try statement.optionalText(at: 0) { nested.append(child) } }
    }
    _ = try deleteSubRecords(nested)
  }

  /// Deletes the rows of every record whose key contains `pattern` with one plain `DELETE ...
  /// LIKE`, reading nothing back, as Apollo's row store does (`deleteRecords(matchingKey:)` on
  /// `phase-1a-record-projection`, which deletes matching sub-records' rows too and cascades to
  /// none); first, where the store may hold nested lists, the sub-records of the records that go,
  /// found by a `SELECT` of their pointers (the cascade that `phase-1a-cascade-delete` does with a
  /// recursive CTE). A sub-record (field `$`) whose key alone matches stays. The accounting is
  /// counted again when next asked.
  mutating func deleteRows(matching pattern: String) throws(SQLiteError) {
    let like = Connection.like(containing: pattern)
    var nested: [CacheKey] = []
    if hadSubRecords || batch.hasWrittenSubRecords {
      let pointers = try connection.cachedStatement(sql.selectMatchingPointers)
      defer { pointers.reset() }
      try pointers.bind(like, at: 1)
      while try pointers.step() { nested.append(try pointers.text(at: 0)) }
    }
    let statement = try connection.cachedStatement(Self.deleteMatchingSQL)
    try statement.bind(like, at: 1)
    try statement.execute()
    _ = try deleteSubRecords(nested)
    accounting.isStale = true
  }

  /// The plain pattern delete: the rows of records (not of sub-records) whose key is `LIKE` `?1`.
  static let deleteMatchingSQL = "DELETE FROM records WHERE cache_key LIKE ? ESCAPE '\\' AND field_name <> '$'"

  /// Deletes every row.
  mutating func deleteAllRows() throws(SQLiteError) {
    try connection.removeAllRecords()
    accounting = StoreAccounting()
  }

  // MARK: Transactions

  /// Nothing but the accounting is kept in memory.
  mutating func willWrite() -> StoreAccounting { accounting }
  mutating func didRollBack(to saved: StoreAccounting) { accounting = saved }
}

/// Which rows a record becomes in Apollo iOS 3.0's table (docs/stores.md#the-rows-layout-against-apollos-code).
enum RowFormat: Sendable {
  /// Ours (the layout `rows-ordered`): a record row where a record's field rows cannot
  /// say all it holds (its fields' order, no field, dates all 0), and a nested list's row with its
  /// sub-record's key and element count (`child_key_value`, `int_value`).
  case ordered
  /// Apollo's code (`rows`, `rows-rowid`; `ApolloSQLiteDatabase.swift` on
  /// `cache-rewrite/phase-1a-record-projection`): a record is its field rows alone, its fields in
  /// the order of their names, a record without fields not stored, dates all 0 no dates; a nested
  /// list's row holds its sub-record's key alone, known by its `.$[N]` ending, so no key (of a
  /// record or a reference) may hold `.$[` (Apollo's reserved-key audit, 330-341).
  case apollo

  /// Whether a record row is ever written.
  var writesRecordRows: Bool { self == .ordered }
}

/// The statements of ``FieldRowStore`` that find nested lists' pointer rows, which the two
/// ``RowFormat``s tell apart differently: made once, so that no call builds their text.
struct RowSQL: Sendable {
  /// A row's `child_key_value` where the row points at a nested list's sub-record, else NULL.
  let pointer: String
  let selectPointers: String
  let selectMatchingPointers: String
  let deleteRecord: String
  let deleteMatchingReturning: String
  let deleteSubRecord: String
  let deleteField: String

  init(_ format: RowFormat) {
    let isPointer =
      switch format {
      case .ordered: "int_value IS NOT NULL AND child_key_value IS NOT NULL"
      case .apollo: "instr(child_key_value, '.$[') > 0"
      }
    // Ours as it was before the formats were two: a NULL `child_key_value` gives NULL anyway.
    pointer = "CASE WHEN \(format == .ordered ? "int_value IS NOT NULL" : isPointer) THEN child_key_value END"
    selectPointers = "SELECT cache_key, child_key_value FROM records WHERE \(isPointer)"
    selectMatchingPointers =
      "SELECT child_key_value FROM records WHERE cache_key LIKE ? ESCAPE '\\' AND field_name <> '$' AND \(isPointer)"
    deleteRecord = "DELETE FROM records WHERE cache_key = ? AND field_name <> '$' RETURNING \(FieldRowStore.rowBytesSQL), \(pointer)"
    deleteMatchingReturning =
      "DELETE FROM records WHERE cache_key LIKE ? ESCAPE '\\' AND field_name <> '$' RETURNING cache_key, "
      + "\(FieldRowStore.rowBytesSQL), \(pointer)"
    deleteSubRecord = "DELETE FROM records WHERE cache_key = ? AND field_name = '$' RETURNING \(FieldRowStore.rowBytesSQL), \(pointer)"
    deleteField = "DELETE FROM records WHERE cache_key = ?1 AND field_name = ?2 RETURNING \(pointer)"
  }
}

extension Statement {
  /// The column as text, nil when it is NULL.
  func optionalText(at column: Int32) throws(SQLiteError) -> String? {
    guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
    return try text(at: column)
  }

  /// Whether the column is NULL.
  @inline(__always)
  func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  /// The column's storage class (`SQLITE_INTEGER`, `SQLITE_TEXT`, ..., `SQLITE_NULL`).
  @inline(__always)
  func type(at column: Int32) -> Int32 { sqlite3_column_type(handle, column) }
}
