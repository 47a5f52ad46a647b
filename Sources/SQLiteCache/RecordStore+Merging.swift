#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite
@_spi(RecordBytes) import NormalizedCache

extension RecordStore {
  /// Merges records field by field (docs/records.md) in one transaction, rolled back if anything
  /// fails.
  ///
  /// 1. The records of the incoming keys that exist are loaded (``load(_:_:_:)``, 500 keys a statement).
  /// 2. The incoming records merge into them with ``RecordCodec/merge(existing:new:)``, field by
  ///    field, exactly as ``InMemoryNormalizedCache`` does, and the changed keys are noted.
  /// 3. Only new and changed records are written, sorted by key: rows then arrive in the order of
  ///    the B-tree, which touches each page once and leaves pages full.
  /// 4. A bounded store evicts its ledger's victims and writes down its usage (`RecordStore+Bounds.swift`).
  /// A record of the compact layout with more than ``splitFieldCount`` fields is stored in chunks
  /// of ``chunkFieldCount`` fields, and a merge into it rewrites only the chunks whose fields
  /// changed (see ``mergeIntoSplit(_:fieldCount:)``).
  /// - Returns: the changed keys `recordKey.fieldKey`.
  /// - Throws: ``SQLiteError``, or ``CacheBudgetError`` for a record larger than the whole budget;
  ///   the database, the format's memory and the ledger are then as before.
  mutating func merge(_ incoming: RecordSet) throws -> ChangedKeys {
    guard !incoming.isEmpty else { return ChangedKeys() }
    let before = accounting
    var budgetError: CacheBudgetError?
    do {
      return try inWriteTransaction { store throws(SQLiteError) in
        do {
          return try store.mergeInTransaction(incoming)
        } catch let error as CacheBudgetError {
          budgetError = error
          throw SQLiteError(resultCode: SQLITE_ABORT, message: "\(error)")
        } catch let error as SQLiteError {
          throw error
        } catch {
          preconditionFailure("a merge threw \(error)")
        }
      }
    } catch {
      accounting = before
      try reloadLedgerAfterRollback()
      if let budgetError { throw budgetError }
      throw error
    }
  }

  private mutating func mergeInTransaction(_ incoming: RecordSet) throws -> ChangedKeys {
    // Records reads found expired go first: a merge must not load them as existing.
    if bounds != nil { try deletePendingExpired() }
    var existing: [CacheKey: (fields: [UInt8], stored: Int)] = [:]
    var split: [CacheKey: Int] = [:]
    try load(incoming.keys, split: { _, key, fieldCount in split[key] = fieldCount }) {
      _, key, fields, stored throws(SQLiteError) in existing[key] = (fields, stored)
    }

    // Field by field, as InMemoryNormalizedCache does: the same ChangedKeys, no copies for the unchanged.
    var changed = ChangedKeys()
    var inserts: [Record] = []
    var updates: [(record: Record, stored: Int)] = []
    /// A bounded store's records written by this merge: their stored bytes, for the ledger.
    var written: [CacheKey: Int] = [:]
    inserts.reserveCapacity(incoming.count - existing.count)
    for record in incoming {
      if bounds != nil, (existing[record.key] != nil || split[record.key] != nil), try expireIfDue(record.key) {
        existing[record.key] = nil
        split[record.key] = nil
      }
      // (A lookup hashes its key even in an empty dictionary.)
      if !split.isEmpty, let fieldCount = split[record.key] {
        let (fields, delta) = try mergeIntoSplit(record, fieldCount: fieldCount)
        accounting.storedBytes += delta
        if let bounds, let old = bounds.ledger.bytes(of: record.key) {
          written[record.key] = storedBytes(ofAccounted: old, key: record.key) + delta
        }
        if !fields.isEmpty { changed.insert(fields: fields, of: record.key) }
      } else if let stored = existing[record.key] {
        guard let (merged, fields) = RecordCodec.merge(existing: stored.fields, new: record.encodedFields) else {
          if bounds != nil { written[record.key] = stored.stored }
          continue
        }
        let mergedRecord = Record(key: record.key, uncheckedEncodedFields: merged)
        if shouldSplit(merged) {
          let bytes = try writeSplit(mergedRecord, replacing: true)
          accounting.storedBytes += bytes - stored.stored
          if bounds != nil { written[record.key] = bytes }
        } else {
          updates.append((mergedRecord, stored.stored))
        }
        changed.insert(fields: fields, of: record.key)
      } else {
        if shouldSplit(record.encodedFields) {
          let bytes = try writeSplit(record, replacing: false)
          accounting.records += 1
          accounting.storedBytes += bytes
          if bounds != nil { written[record.key] = bytes }
        } else {
          inserts.append(record)
        }
        changed.insertAllFields(of: record)
      }
    }

    let column = format.dataColumn
    if !inserts.isEmpty {
      try insert(Self.keyOrder(of: inserts).lazy.map { inserts[$0.index] }, written: &written)
    }
    if !updates.isEmpty {
      let update = try connection.cachedStatement("UPDATE records SET \(column) = ? WHERE key = ?")
      for entry in Self.keyOrder(of: updates.map(\.record)) {
        let (record, old) = updates[entry.index]
        let bytes = try write(record, to: update, keyAt: 2, dataAt: 1)
        accounting.storedBytes += bytes - old
        if bounds != nil { written[record.key] = bytes }
      }
    }
    if bounds != nil {
      // In the order the records came, as the in-memory store writes them: the policy's order
      // among them is theirs.
      for record in incoming {
        if let bytes = written[record.key] { try noteWritten(record.key, storedBytes: bytes) }
      }
      try evictAndFlush()
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
  private mutating func insert(_ records: some Collection<Record>, written: inout [CacheKey: Int]) throws(SQLiteError) {
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
        // A record's stored bytes: its key and its data.
        accounting.records += 1
        accounting.storedBytes += buffer.count - keyStart
        if bounds != nil { written[record.key] = buffer.count - keyStart }
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
  /// Returns its stored bytes (key and data).
  ///
  /// Both are bound without copies (`SQLITE_STATIC`): they stay in place until the statement has
  /// run and its bindings are cleared.
  private mutating func write(_ record: Record, to statement: Statement, keyAt keyIndex: Int32, dataAt dataIndex: Int32)
    throws(SQLiteError) -> Int
  {
    let storesText = format.storesText
    var key = record.key
    var storedBytes = 0
    try key.withUTF8 { key in
      record.encodedFields.withUnsafeBytes { fields in
        Result { () throws(SQLiteError) in
          try format.encode(fields, connection: connection) { data throws(SQLiteError) in
            defer {
              statement.reset()
              statement.clearBindings()
            }
            try statement.bindTextNoCopy(UnsafeRawBufferPointer(key), at: keyIndex)
            storedBytes = key.count + data.count
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
    return storedBytes
  }

  /// The indices of the records in the order of their keys' UTF-8 bytes: SQLite's BINARY
  /// collation, the order of the table's B-tree.
  ///
  /// The keys are copied into one buffer and sorted as byte ranges: `sort` on the records compared
  /// keys with String's `<` (by Unicode canonical equivalence: another order for some non-ASCII
  /// keys) and retained and released each record per comparison: the calendar's merge of 5,928
  /// records ran 30.1 M instructions that way, 28.1 M this way.
  static func keyOrder(of records: [Record]) -> [(start: Int, count: Int, index: Int)] {
    keyOrder(ofKeys: records.lazy.map(\.key))
  }

  /// ``keyOrder(of:)`` of the keys themselves; `index` counts from 0.
  static func keyOrder(ofKeys keys: some Collection<CacheKey>) -> [(start: Int, count: Int, index: Int)] {
    guard keys.count > 1 else { return (0..<keys.count).map { (0, 0, $0) } }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(keys.count * 32)
    var entries: [(start: Int, count: Int, index: Int)] = []
    entries.reserveCapacity(keys.count)
    for (index, key) in keys.enumerated() {
      let start = bytes.count
      bytes.append(contentsOf: key.utf8)
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
