import Foundation
import NormalizedCache
import Testing

@testable import SQLiteCache

/// Errors carry SQLite's code, its message and the statement, and print the way GRDB's do.
@Suite("SQLite errors")
struct SQLiteErrorTests {
  @Test("a constraint violation names the code, the constraint and the statement")
  func uniqueConstraint() throws {
    let connection = try Connection(path: ":memory:")
    try connection.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
    try connection.execute("INSERT INTO t(id, name) VALUES (1, 'a')")
    let error = try #require(throws: SQLiteError.self) {
      try connection.execute("INSERT INTO t(id, name) VALUES (2, 'a')")
    }
    #expect(
      error.description == "SQLite error 19: UNIQUE constraint failed: t.name - while executing `INSERT INTO t(id, name) VALUES (2, 'a')`")
    #expect(error.resultCode == 19)
    #expect(error.extendedResultCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
    #expect(error.sql == "INSERT INTO t(id, name) VALUES (2, 'a')")
  }

  @Test("a statement that does not compile reports the syntax error and its SQL")
  func syntaxError() throws {
    let connection = try Connection(path: ":memory:")
    let error = try #require(throws: SQLiteError.self) { try connection.execute("SELEC 1;") }
    #expect(error.description == #"SQLite error 1: near "SELEC": syntax error - while executing `SELEC 1`"#)
  }

  @Test("a bound statement that fails reports its SQL with the placeholders")
  func boundStatement() throws {
    let connection = try Connection(path: ":memory:")
    try connection.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    let statement = try connection.cachedStatement("INSERT INTO t(id, name) VALUES (?, ?)")
    try statement.bind(1, at: 1)
    try statement.bindNull(at: 2)
    let error = try #require(throws: SQLiteError.self) { try statement.execute() }
    #expect(
      error.description == "SQLite error 19: NOT NULL constraint failed: t.name - while executing `INSERT INTO t(id, name) VALUES (?, ?)`")
    #expect(error.extendedResultCode == 1299)  // SQLITE_CONSTRAINT_NOTNULL
  }

  @Test("an error without a statement prints the message alone")
  func withoutStatement() {
    let error = SQLiteError(resultCode: 14, message: "unable to open database file")
    #expect(error.description == "SQLite error 14: unable to open database file")
    #expect(error.extendedResultCode == 14)
  }

  @Test("a file that cannot be opened says which")
  func cannotOpen() throws {
    let error = try #require(throws: SQLiteError.self) {
      try SQLiteNormalizedCache(path: "/nonexistent-directory/cache.sqlite")
    }
    #expect(error.description == "SQLite error 14: unable to open database file (opening /nonexistent-directory/cache.sqlite)")
  }

  @Test("a file that is not a database fails when the store sets it up")
  func notADatabase() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("text.sqlite")
    try String(repeating: "not a database, ", count: 100).write(toFile: path, atomically: true, encoding: .utf8)
    let error = try #require(throws: SQLiteError.self) { try SQLiteNormalizedCache(path: path) }
    #expect(error.description == "SQLite error 26: file is not a database - while executing `PRAGMA journal_mode = WAL`")
  }
}
