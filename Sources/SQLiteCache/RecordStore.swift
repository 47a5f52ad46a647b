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

  func removeRecord(for key: CacheKey) throws(SQLiteError) { try connection.removeRecord(for: key) }

  func removeRecords(matching pattern: String) throws(SQLiteError) { try connection.removeRecords(matching: pattern) }

  /// Deletes every record. The compact layout keeps its field names: a number must keep meaning
  /// one name for other connections to the file.
  func clear() throws(SQLiteError) { try connection.removeAllRecords() }

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
    try connection.recordStatistics(dataColumn: format.dataColumn)
  }

  func checkpoint() throws(SQLiteError) { try connection.checkpoint() }
}
