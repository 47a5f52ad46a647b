import NormalizedCache

extension RecordStore {
  /// Merges records field by field (SPEC §2) in one transaction, rolled back if anything fails.
  ///
  /// 1. The records of the incoming keys that exist are loaded (``load(_:_:)``, 500 keys a statement).
  /// 2. The incoming records merge into them through ``RecordSet/merge(records:)``, which applies
  ///    ``RecordCodec/merge(existing:new:)`` field by field, exactly as ``InMemoryNormalizedCache``
  ///    does, and reports the changed keys.
  /// 3. Only new and changed records are written, sorted by key: rows then arrive in the order of
  ///    the B-tree, which touches each page once and leaves pages full.
  /// - Returns: the changed keys `recordKey.fieldKey`.
  /// - Throws: ``SQLiteError``; the database and the format's memory are then as before.
  mutating func merge(_ incoming: RecordSet) throws(SQLiteError) -> ChangedKeys {
    guard !incoming.isEmpty else { return ChangedKeys() }
    return try inWriteTransaction { store throws(SQLiteError) in try store.mergeInTransaction(incoming) }
  }

  private mutating func mergeInTransaction(_ incoming: RecordSet) throws(SQLiteError) -> ChangedKeys {
    var existing: [CacheKey: [UInt8]] = [:]
    try load(incoming.keys) { key, fields throws(SQLiteError) in existing[key] = fields }

    var merged = RecordSet()
    for (key, fields) in existing { merged.merge(record: Record(key: key, encodedFields: fields)) }
    let changed = merged.merge(records: incoming)

    var inserts: [Record] = []
    var updates: [Record] = []
    inserts.reserveCapacity(incoming.count - existing.count)
    for record in merged {
      if let stored = existing[record.key] {
        // An unchanged record still shares the buffer it was loaded into: == is then immediate.
        if record.encodedFields != stored { updates.append(record) }
      } else {
        inserts.append(record)
      }
    }
    inserts.sort { $0.key < $1.key }
    updates.sort { $0.key < $1.key }

    let column = format.dataColumn
    if !inserts.isEmpty {
      let insert = try connection.cachedStatement("INSERT INTO records(key, \(column)) VALUES (?, ?)")
      for record in inserts {
        try write(record, to: insert, keyAt: 1, dataAt: 2)
      }
    }
    if !updates.isEmpty {
      let update = try connection.cachedStatement("UPDATE records SET \(column) = ? WHERE key = ?")
      for record in updates {
        try write(record, to: update, keyAt: 2, dataAt: 1)
      }
    }
    return changed
  }

  /// Encodes a record in the layout's format, binds it and its key, and runs the statement.
  ///
  /// Both are bound without copies (`SQLITE_STATIC`): they stay in place until the statement has
  /// run and its bindings are cleared.
  private mutating func write(_ record: Record, to statement: Statement, keyAt keyIndex: Int32, dataAt dataIndex: Int32)
    throws(SQLiteError)
  {
    let storesText = format.storesText
    var key = record.key
    try key.withUTF8 { key in
      record.encodedFields.withUnsafeBytes { fields in
        Result { () throws(SQLiteError) in
          try format.encode(fields, connection: connection) { data throws(SQLiteError) in
            defer {
              statement.reset()
              statement.clearBindings()
            }
            try statement.bindTextNoCopy(UnsafeRawBufferPointer(key), at: keyIndex)
            if storesText {
              try statement.bindTextNoCopy(data, at: dataIndex)
            } else {
              try statement.bindBlobNoCopy(data, at: dataIndex)
            }
            try statement.step()
          }
        }
      }
    }.get()
  }
}
