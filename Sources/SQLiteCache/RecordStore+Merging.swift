#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NormalizedCache

extension RecordStore {
  /// Merges records field by field (SPEC §2) in one transaction, rolled back if anything fails.
  ///
  /// 1. The records of the incoming keys that exist are loaded (``load(_:_:)``, 500 keys a statement).
  /// 2. The incoming records merge into them with ``RecordCodec/merge(existing:new:)``, field by
  ///    field, exactly as ``InMemoryNormalizedCache`` does, and the changed keys are noted.
  /// 3. Only new and changed records are written, sorted by key: rows then arrive in the order of
  ///    the B-tree, which touches each page once and leaves pages full.
  /// A record of the compact layout with more than ``splitFieldCount`` fields is stored a field
  /// per row, and a merge into it writes only its changed fields (see ``loadSplit(_:)``).
  /// - Returns: the changed keys `recordKey.fieldKey`.
  /// - Throws: ``SQLiteError``; the database and the format's memory are then as before.
  mutating func merge(_ incoming: RecordSet) throws(SQLiteError) -> ChangedKeys {
    guard !incoming.isEmpty else { return ChangedKeys() }
    return try inWriteTransaction { store throws(SQLiteError) in try store.mergeInTransaction(incoming) }
  }

  private mutating func mergeInTransaction(_ incoming: RecordSet) throws(SQLiteError) -> ChangedKeys {
    var existing: [CacheKey: [UInt8]] = [:]
    var split: [CacheKey: Int] = [:]
    try load(incoming.keys, split: { _, key, fieldCount in split[key] = fieldCount }) {
      _, key, fields throws(SQLiteError) in existing[key] = fields
    }

    // Field by field, as InMemoryNormalizedCache does: the same ChangedKeys, no copies for the unchanged.
    var changed = ChangedKeys()
    var inserts: [Record] = []
    var updates: [Record] = []
    inserts.reserveCapacity(incoming.count - existing.count)
    for record in incoming {
      // (A lookup hashes its key even in an empty dictionary.)
      if !split.isEmpty, let fieldCount = split[record.key] {
        let fields = try mergeIntoSplit(record, fieldCount: fieldCount)
        if !fields.isEmpty { changed.insert(fields: fields, of: record.key) }
      } else if let stored = existing[record.key] {
        guard let (merged, fields) = RecordCodec.merge(existing: stored, new: record.encodedFields) else { continue }
        let mergedRecord = Record(key: record.key, uncheckedEncodedFields: merged)
        if shouldSplit(merged) {
          try writeSplit(mergedRecord, replacing: true)
        } else {
          updates.append(mergedRecord)
        }
        changed.insert(fields: fields, of: record.key)
      } else {
        if shouldSplit(record.encodedFields) {
          try writeSplit(record, replacing: false)
        } else {
          inserts.append(record)
        }
        changed.insertAllFields(of: record)
      }
    }

    let column = format.dataColumn
    if !inserts.isEmpty {
      try insert(Self.keyOrder(of: inserts).lazy.map { inserts[$0.index] })
    }
    if !updates.isEmpty {
      let update = try connection.cachedStatement("UPDATE records SET \(column) = ? WHERE key = ?")
      for entry in Self.keyOrder(of: updates) {
        let record = updates[entry.index]
        try write(record, to: update, keyAt: 2, dataAt: 1)
      }
    }
    return changed
  }

  /// Rows a multi-row `INSERT` writes: one statement run per this many new records, not one per
  /// record (each run of a statement costs its setup and its halt: the calendar's 2,162 new records
  /// took 4.9 M fewer instructions, some 2,300 a record).
  static let insertBatch = 32

  /// Inserts records, in this order, ``insertBatch`` at a time through one
  /// `INSERT ... VALUES (?, ?), (?, ?), ...`, the last few by powers of two (a statement for every
  /// count would prepare up to 31 statements, each kept in the connection's cache): keys and
  /// encoded records are copied into one buffer and bound from it without copies.
  private mutating func insert(_ records: some Collection<Record>) throws(SQLiteError) {
    let storesText = format.storesText
    var buffer: [UInt8] = []
    var spans: [(key: Range<Int>, data: Range<Int>)] = []
    spans.reserveCapacity(Self.insertBatch)
    var rest = records[...]
    // Prepared once a merge for full batches (a statement's text is hashed to find it).
    var full: Statement?
    while !rest.isEmpty {
      // 32 rows a run, the rest in runs of 16, 8, 4, 2 and 1: six statements a connection at most.
      let rows = rest.count >= Self.insertBatch ? Self.insertBatch : 1 << (Int.bitWidth - 1 - rest.count.leadingZeroBitCount)
      let statement: Statement
      if rows == Self.insertBatch, let full {
        statement = full
      } else {
        let values = Array(repeating: "(?, ?)", count: rows).joined(separator: ", ")
        // OR FAIL: a failing row leaves the rows before it, which the merge's transaction rolls
        // back; ABORT would make SQLite journal every page the statement touches, to undo it alone.
        statement = try connection.cachedStatement(
          "INSERT OR FAIL INTO records(key, \(format.dataColumn)) VALUES \(values)")
        if rows == Self.insertBatch { full = statement }
      }
      buffer.removeAll(keepingCapacity: true)
      spans.removeAll(keepingCapacity: true)
      for record in rest.prefix(rows) {
        let keyStart = buffer.count
        buffer.append(contentsOf: record.key.utf8)
        let dataStart = buffer.count
        try record.encodedFields.withUnsafeBytes { fields in
          Result { () throws(SQLiteError) in
            try format.encode(fields, connection: connection) { data throws(SQLiteError) in buffer.append(contentsOf: data) }
          }
        }.get()
        spans.append((keyStart..<dataStart, dataStart..<buffer.count))
      }
      rest = rest.dropFirst(rows)
      try buffer.withUnsafeBytes { buffer in
        Result { () throws(SQLiteError) in
          defer {
            statement.reset()
            statement.clearBindings()
          }
          for (row, span) in spans.enumerated() {
            let keyIndex = Int32(2 * row + 1)
            try statement.bindTextNoCopy(UnsafeRawBufferPointer(rebasing: buffer[span.key]), at: keyIndex)
            let data = UnsafeRawBufferPointer(rebasing: buffer[span.data])
            if storesText {
              try statement.bindTextNoCopy(data, at: keyIndex + 1)
            } else {
              try statement.bindBlobNoCopy(data, at: keyIndex + 1)
            }
          }
          try statement.step()
        }
      }.get()
    }
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

  /// The indices of the records in the order of their keys' UTF-8 bytes: SQLite's BINARY
  /// collation, the order of the table's B-tree.
  ///
  /// The keys are copied into one buffer and sorted as byte ranges: `sort` on the records compared
  /// keys with String's `<` (by Unicode canonical equivalence: another order for some non-ASCII
  /// keys) and retained and released each record per comparison: the calendar's merge of 5,928
  /// records ran 30.1 M instructions that way, 28.1 M this way.
  static func keyOrder(of records: [Record]) -> [(start: Int, count: Int, index: Int)] {
    guard records.count > 1 else { return records.indices.map { (0, 0, $0) } }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(records.count * 32)
    var entries: [(start: Int, count: Int, index: Int)] = []
    entries.reserveCapacity(records.count)
    for (index, record) in records.enumerated() {
      let start = bytes.count
      bytes.append(contentsOf: record.key.utf8)
      entries.append((start, bytes.count - start, index))
    }
    bytes.withUnsafeBufferPointer { bytes in
      let base = bytes.baseAddress!
      entries.sort { a, b in
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : memcmp(base + a.start, base + b.start, common)
        return order != 0 ? order < 0 : a.count < b.count
      }
    }
    return entries
  }
}
