import CSQLite

/// How a transaction begins ([BEGIN](https://www.sqlite.org/lang_transaction.html#deferred_immediate_and_exclusive_transactions)).
enum TransactionKind {
  case deferred, immediate

  var beginStatement: String {
    switch self {
    case .deferred: "BEGIN DEFERRED"
    case .immediate: "BEGIN IMMEDIATE"
    }
  }
}

extension Connection {
  /// Runs `body` in a transaction: commits when it returns, rolls back when it throws and
  /// rethrows its error (GRDB's `inTransaction`).
  ///
  /// ```swift
  /// try connection.inTransaction {
  ///   try connection.execute("DELETE FROM records")
  /// }
  /// ```
  /// A writing transaction should begin `IMMEDIATE` (the default): it takes the write lock up
  /// front, so a second connection to the same file waits (`busy_timeout`) at `BEGIN` instead of
  /// failing at its first write. A reading one begins `DEFERRED`: it takes a read snapshot only.
  /// See [Transactions](https://www.sqlite.org/lang_transaction.html).
  /// - Parameter kind: how the transaction begins.
  /// - Throws: the error of `body`, or ``SQLiteError`` when `BEGIN` or `COMMIT` fails (a failed
  ///   `COMMIT` is rolled back too).
  func inTransaction<Result>(
    _ kind: TransactionKind = .immediate, _ body: () throws(SQLiteError) -> Result
  ) throws(SQLiteError) -> Result {
    try inTransaction(kind, lifting: { $0 }, body)
  }

  /// ``inTransaction(_:_:)`` for a body that throws errors of its own beside SQLite's: `lifting`
  /// makes SQLite's errors (of `BEGIN` and `COMMIT`) into the body's type, so that a store's
  /// error stays what it is (a bounded merge's ``CacheBudgetError``, a read's miss) on its way out.
  func inTransaction<Result, Failure: Error>(
    _ kind: TransactionKind = .immediate, lifting: (SQLiteError) -> Failure, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    precondition(!isInTransaction, "nested transaction")
    do { try cachedStatement(kind.beginStatement).execute() } catch { throw lifting(error) }
    let result: Result
    do {
      result = try body()
    } catch {
      rollback()
      throw error
    }
    do {
      try cachedStatement("COMMIT").execute()
    } catch {
      rollback()
      throw lifting(error)
    }
    return result
  }

  /// Rolls back the open transaction, if SQLite has not already done so.
  private func rollback() {
    // Some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY, SQLITE_NOMEM) roll the transaction
    // back by themselves; a ROLLBACK then would fail with "no transaction is active".
    guard isInTransaction else { return }
    do {
      try cachedStatement("ROLLBACK").execute()
    } catch {
      // The error being rethrown matters more. After a failed ROLLBACK SQLite still rolls the
      // transaction back, at the latest when the connection closes; the next BEGIN reports
      // whatever is wrong with the connection.
    }
  }
}
