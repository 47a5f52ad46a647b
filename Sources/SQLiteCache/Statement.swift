import CSQLite

/// A prepared statement: owns the `sqlite3_stmt*` and finalizes it when released (GRDB's
/// `Statement`). Binds parameters, steps through rows, reads columns; every SQLite call that can
/// fail is checked and reported as ``SQLiteError`` with the statement's SQL.
///
/// ```swift
/// let statement = try connection.cachedStatement("SELECT data FROM records WHERE key = ?")
/// try statement.bind("Item:1", at: 1)
/// while try statement.step() {
///   statement.withBytes(at: 0) { print($0.count) }
/// }
/// ```
/// Parameter and column indexes follow SQLite: parameters count from 1, columns from 0.
/// See [Prepared Statement Objects](https://www.sqlite.org/c3ref/stmt.html).
final class Statement {
  let handle: OpaquePointer
  let sql: String
  /// The connection's handle, for error messages. The connection outlives its statements: it
  /// owns the cache that holds them and empties it before closing.
  private let connection: OpaquePointer

  /// Prepares one statement.
  /// - Parameter persistent: a hint that the statement is kept and reused (`SQLITE_PREPARE_PERSISTENT`).
  /// - Throws: ``SQLiteError`` when SQLite cannot compile `sql`.
  /// - Precondition: `sql` holds exactly one statement.
  convenience init(sql: String, connection: Connection, persistent: Bool) throws(SQLiteError) {
    var tail = ""
    try self.init(sql: sql, connection: connection, persistent: persistent, tail: &tail)
    precondition(
      tail.allSatisfy { $0.isWhitespace || $0 == ";" }, "more than one statement in `\(sql)`")
  }

  /// The first statement of `sql`, its text after that statement in `tail` (``Connection/execute(_:)``).
  init(sql: String, connection: Connection, persistent: Bool, tail: inout String) throws(SQLiteError) {
    var handle: OpaquePointer?
    var remainder = ""
    let code = sql.withCString { text in
      var end: UnsafePointer<CChar>?
      let code = sqlite3_prepare_v3(
        connection.handle, text, -1, persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0, &handle, &end)
      if let end { remainder = String(cString: end) }
      return code
    }
    guard code == SQLITE_OK else {
      throw SQLiteError(code: code, connection: connection.handle, sql: sql.trimmingSemicolonsAndSpaces)
    }
    guard let handle else {
      // Only whitespace or comments: SQLite prepares nothing.
      throw SQLiteError(resultCode: SQLITE_MISUSE, message: "no statement to prepare", sql: sql)
    }
    self.handle = handle
    self.sql = String(cString: sqlite3_sql(handle))
    self.connection = connection.handle
    tail = remainder
  }

  deinit {
    // sqlite3_finalize returns the error of the most recent step, which step() already reported.
    sqlite3_finalize(handle)
  }

  private func error(_ code: Int32) -> SQLiteError {
    SQLiteError(code: code, connection: connection, sql: sql)
  }

  @inline(__always)
  private func check(_ code: Int32) throws(SQLiteError) {
    if code != SQLITE_OK { throw error(code) }
  }

  // MARK: Binding

  /// SQLite copies the bound bytes (`SQLITE_TRANSIENT`): the caller's buffer may go right after.
  private static var transient: sqlite3_destructor_type {
    unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
  }

  func bind(_ text: String, at index: Int32) throws(SQLiteError) {
    var text = text
    try check(text.withUTF8 { bindTextCode(UnsafeRawBufferPointer($0), at: index) })
  }

  /// Binds UTF-8 bytes as TEXT (an empty buffer binds an empty text, not NULL).
  func bindText(_ utf8: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
    try check(bindTextCode(utf8, at: index))
  }

  /// Binds UTF-8 bytes as TEXT without copying them (`SQLITE_STATIC`).
  ///
  /// The bytes must stay where they are until the statement is reset and its bindings cleared.
  @inline(__always)
  func bindTextNoCopy(_ utf8: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
    try check(bindTextCode(utf8, at: index, destructor: nil))
  }

  @inline(__always)
  private func bindTextCode(
    _ utf8: UnsafeRawBufferPointer, at index: Int32, destructor: sqlite3_destructor_type? = Statement.transient
  ) -> Int32 {
    if let base = utf8.baseAddress, !utf8.isEmpty {
      sqlite3_bind_text64(
        handle, index, base.assumingMemoryBound(to: CChar.self), UInt64(utf8.count), destructor, UInt8(SQLITE_UTF8))
    } else {
      sqlite3_bind_text64(handle, index, "", 0, nil, UInt8(SQLITE_UTF8))
    }
  }

  /// Binds bytes as a BLOB without copying them (`SQLITE_STATIC`).
  ///
  /// The bytes must stay where they are until the statement is reset and its bindings cleared.
  func bindBlobNoCopy(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
    let code =
      if let base = bytes.baseAddress, !bytes.isEmpty {
        sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), nil)
      } else {
        sqlite3_bind_zeroblob(handle, index, 0)
      }
    try check(code)
  }

  func bind(_ int: Int64, at index: Int32) throws(SQLiteError) {
    try check(sqlite3_bind_int64(handle, index, int))
  }

  func bind(double: Double, at index: Int32) throws(SQLiteError) {
    try check(sqlite3_bind_double(handle, index, double))
  }

  func bindNull(at index: Int32) throws(SQLiteError) {
    try check(sqlite3_bind_null(handle, index))
  }

  /// Sets every parameter back to NULL. (`sqlite3_clear_bindings` always returns `SQLITE_OK`.)
  func clearBindings() {
    sqlite3_clear_bindings(handle)
  }

  // MARK: Stepping

  /// Advances to the next row.
  /// - Returns: true when a row is ready, false when the statement has finished.
  /// - Throws: ``SQLiteError`` when the step fails.
  @discardableResult
  func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code: throw error(code)
    }
  }

  /// Runs the statement to its end, ignoring rows, then resets it.
  func execute() throws(SQLiteError) {
    defer { reset() }
    while try step() {}
  }

  /// Makes the statement ready to run again; the bindings stay.
  ///
  /// `sqlite3_reset` returns the error of the most recent step, which ``step()`` already threw:
  /// it carries nothing new, so it is not reported twice.
  func reset() {
    sqlite3_reset(handle)
  }

  // MARK: Columns

  func int64(at column: Int32) -> Int64 {
    sqlite3_column_int64(handle, column)
  }

  func double(at column: Int32) -> Double {
    sqlite3_column_double(handle, column)
  }

  /// The column as text (NULL as the empty string).
  func text(at column: Int32) throws(SQLiteError) -> String {
    try withBytes(at: column, asText: true) { String(decoding: $0, as: UTF8.self) }
  }

  /// Lends the column's bytes, valid only inside `body` (SQLite owns them until the next step).
  /// - Parameter asText: read the value as TEXT (`sqlite3_column_text`), else as a BLOB.
  /// - Throws: ``SQLiteError`` `SQLITE_NOMEM` when SQLite cannot convert the value; else what `body` throws.
  @inline(__always)
  func withBytes<Result>(
    at column: Int32, asText: Bool = false, _ body: (UnsafeRawBufferPointer) throws(SQLiteError) -> Result
  ) throws(SQLiteError) -> Result {
    // Pointer first, then the size: the order the SQLite documentation asks for.
    let pointer =
      asText
      ? sqlite3_column_text(handle, column).map { UnsafeRawPointer($0) }
      : sqlite3_column_blob(handle, column)
    let count = Int(sqlite3_column_bytes(handle, column))
    guard pointer != nil || count == 0 else { throw error(SQLITE_NOMEM) }
    return try body(UnsafeRawBufferPointer(start: count == 0 ? nil : pointer, count: count))
  }
}

extension String {
  var trimmingSemicolonsAndSpaces: String {
    var text = Substring(self)
    while let last = text.last, last.isWhitespace || last == ";" { text.removeLast() }
    while let first = text.first, first.isWhitespace { text.removeFirst() }
    return String(text)
  }
}
