import CSQLite

/// An error reported by SQLite, or found by this module in a database, with what a user needs to
/// act on it: the result code, SQLite's message, and the statement that failed.
///
/// Prints as GRDB's `DatabaseError` does:
/// ```
/// SQLite error 19: UNIQUE constraint failed: records.key - while executing `INSERT INTO records ...`
/// ```
/// See [Result and Error Codes](https://www.sqlite.org/rescode.html).
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The primary result code, such as 19 (`SQLITE_CONSTRAINT`).
  public let resultCode: Int32
  /// The extended result code, such as 2067 (`SQLITE_CONSTRAINT_UNIQUE`); equal to
  /// ``resultCode`` when SQLite gives no detail.
  public let extendedResultCode: Int32
  /// SQLite's message (`sqlite3_errmsg`), or this module's when it found the problem itself.
  public let message: String
  /// The statement that failed, when there is one.
  public let sql: String?

  public init(resultCode: Int32, extendedResultCode: Int32? = nil, message: String, sql: String? = nil) {
    self.resultCode = resultCode & 0xFF
    self.extendedResultCode = extendedResultCode ?? resultCode
    self.message = message
    self.sql = sql
  }

  /// The error SQLite holds on a connection after a call returned `code`.
  init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
    let message: String
    if let connection, let text = sqlite3_errmsg(connection) {
      message = String(cString: text)
    } else {
      message = String(cString: sqlite3_errstr(code))
    }
    let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
    // sqlite3_errmsg and the extended code describe the most recent failure, which is `code` unless
    // a later call overwrote them: keep the code the caller saw.
    self.init(
      resultCode: code, extendedResultCode: extended & 0xFF == code & 0xFF ? extended : code,
      message: message, sql: sql)
  }

  public var description: String {
    var text = "SQLite error \(resultCode): \(message)"
    if let sql { text += " - while executing `\(sql)`" }
    return text
  }
}
