import CSQLite
import NormalizedCache

/// The database behind one ``SQLiteNormalizedCache``: the connection and the layout's
/// ``RecordFormat``, and all of the store's SQL. Not thread-safe: the cache keeps it behind a lock.
struct RecordStore {
  let connection: Connection
  var format: any RecordFormat

  /// Opens the database, sets its journal mode, synchronous level, memory map and page cache,
  /// and creates the layout's tables unless they exist.
  /// - Throws: ``SQLiteError`` when SQLite fails, or the file holds the other layout.
  init(path: String, options: SQLiteNormalizedCache.Options) throws(SQLiteError) {
    let connection = try Connection(path: path)
    self.connection = connection
    var format = options.layout.makeFormat()

    try connection.configure(options)

    let schema = format.schema
    try connection.inTransaction { () throws(SQLiteError) in
      switch try SQLiteNormalizedCache.Layout.existing(in: connection) {
      case nil:
        try connection.execute(schema)
      case let layout? where layout != options.layout:
        throw SQLiteError(
          resultCode: SQLITE_ERROR,
          message: "\(path) holds a cache of the \(layout) layout, which cannot be opened as the \(options.layout) layout")
      default:
        break
      }
    }
    try format.load(from: connection)
    self.format = format
  }

  // MARK: Removing (the statements the limit table shares: ``Connection/removeRecord(for:)``)

  // Where a large record was ever stored split, its rows go with its marker, in one transaction.

  func removeRecord(for key: CacheKey) throws(SQLiteError) {
    guard try hasSplitTables() else { return try connection.removeRecord(for: key) }
    try connection.inTransaction { () throws(SQLiteError) in
      try connection.removeRecord(for: key)
      try removeSplitRows(of: key)
    }
  }

  func removeRecords(matching pattern: String) throws(SQLiteError) {
    guard try hasSplitTables() else { return try connection.removeRecords(matching: pattern) }
    try connection.inTransaction { () throws(SQLiteError) in
      try connection.removeRecords(matching: pattern)
      try connection.removeRecords(matching: pattern, table: "record_chunks")
      try connection.removeRecords(matching: pattern, table: "record_fields")
    }
  }

  /// Deletes every record. The compact layout keeps its field names: a number must keep meaning
  /// one name for other connections to the file.
  func clear() throws(SQLiteError) {
    guard try hasSplitTables() else { return try connection.removeAllRecords() }
    try connection.inTransaction { () throws(SQLiteError) in
      try connection.removeAllRecords()
      try connection.cachedStatement("DELETE FROM record_chunks").execute()
      try connection.cachedStatement("DELETE FROM record_fields").execute()
    }
  }

  /// Runs `body` in a writing transaction and tells the format whether it committed.
  mutating func inWriteTransaction<Result>(_ body: (inout RecordStore) throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
    format.willBeginTransaction()
    do {
      return try connection.inTransaction { () throws(SQLiteError) in try body(&self) }
    } catch {
      format.didRollBack()
      throw error
    }
  }

  // MARK: Statistics

  func statistics() throws(SQLiteError) -> SQLiteNormalizedCache.Statistics {
    var statistics = try connection.recordStatistics(dataColumn: format.dataColumn)
    if try hasSplitTables() {
      // A split record's payload: its key and data in each of its chunks.
      let statement = try connection.cachedStatement(
        "SELECT total(length(CAST(key AS BLOB)) + length(data)) FROM record_chunks")
      defer { statement.reset() }
      if try statement.step() { statistics.payloadBytes += Int(statement.double(at: 0)) }
    }
    return statistics
  }

  func checkpoint() throws(SQLiteError) { try connection.checkpoint() }
}
