import CSQLite
@_spi(RecordBytes) import NormalizedCache

extension FieldRowStore {
  /// The statement every merge writes its rows with, 32 rows a statement
  /// (``Connection/inBatches(_:sql:_:)``): Apollo's upsert (`insertOrUpdate`), a row new or
  /// replacing the one at its `(cache_key, field_name, position)`, every value column taken.
  /// `OR FAIL`: a failing row leaves the rows before it, which the merge's transaction rolls
  /// back; the default `ABORT` makes SQLite keep a statement journal of every page a statement of
  /// many rows touches that the transaction had already written, to undo it alone (the calendar's
  /// unchanged refetch a step later, typePolicy, spent a large share of its instructions so).
  static func upsertSQL(rows: Int) -> String {
    "INSERT OR FAIL INTO records(cache_key, field_name, position, int_value, string_value, float_value, bool_value, "
      + "child_key_value, custom_scalar_value, written_at) VALUES "
      + Connection.placeholders(rows, "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
      + " ON CONFLICT(cache_key, field_name, position) DO UPDATE SET int_value = excluded.int_value, "
      + "string_value = excluded.string_value, float_value = excluded.float_value, bool_value = excluded.bool_value, "
      + "child_key_value = excluded.child_key_value, custom_scalar_value = excluded.custom_scalar_value, "
      + "written_at = excluded.written_at"
  }

  /// Merges records field by field (docs/records.md), in the caller's transaction:
  ///
  /// 1. the records of the incoming keys that exist are loaded whole (``loadInOrder(_:projection:)``);
  /// 2. each incoming record merges into its stored one by ``RecordCodec/merge(existing:new:)``,
  ///    the rule every store follows, which says what changed (the changed keys, and nothing for
  ///    a record unchanged, dates and all);
  /// 3. the rows of what changed are written, records in key order: a new record's every row; of
  ///    a stored one, the rows of each field whose value changed (a field's row upserted; a list's
  ///    rows, or a field that becomes or stops being a list, deleted and written again), the date
  ///    of each field rewritten with its value unchanged, and its record row when its field count
  ///    or dates changed, where the record needs one (``RecordFields/needsRecordRow``; deleted
  ///    where it no longer does). Deletes and date updates run as met; new rows go in one batch at
  ///    the end.
  mutating func mergeInTransaction<Log: MergeLog>(_ incoming: RecordSet, log: inout Log) throws(SQLiteError) -> ChangedKeys {
    let records = Array(incoming)
    var recordRows: [Bool]? = loadedRecordRows
    loadedRecordRows = []
    defer { loadedRecordRows = recordRows ?? [] }
    let loaded = try loadInOrder(records.map(\.key), projection: nil, recordRows: &recordRows)
    var changed = ChangedKeys()
    var fields = RecordFields()
    batch.removeAll()
    // The rows' text is at most the records' keys and encodings; room for it at once, not by doubling.
    batch.text.reserveCapacity(records.reduce(0) { $0 + $1.key.utf8.count + $1.encodedFields.count })
    if format == .apollo { try Self.checkApolloKeys(records) }
    var redated: [(key: CacheKey, date: Int)] = []
    for entry in RecordRowStore.keyOrder(of: records) {
      let record = records[entry.index]
      if format == .apollo, record.encodedFields.withUnsafeBytes({ RecordDates.fieldsStart($0) == $0.count }) {
        // Apollo's rows cannot say that a record without fields exists: nothing is stored.
        continue
      }
      if let stored = loaded[entry.index] {
        // Apollo's rows load by name: the incoming record too, so that an unchanged refetch is
        // found unchanged by comparing bytes, as where the order is kept.
        let incoming = format == .apollo ? Self.inNameOrder(record, fields: &fields) : record
        try mergeExisting(
          incoming, into: stored, hasRecordRow: recordRows![entry.index], changed: &changed, redated: &redated, log: &log)
      } else {
        let before = batch.storedBytes
        try batch.addRecord(record, fields: &fields)
        accounting.records += 1
        accounting.storedBytes += batch.storedBytes - before
        log.wrote(record.key, storedBytes: batch.storedBytes - before)
        changed.insertAllFields(of: record)
      }
    }
    if !redated.isEmpty { try updateDates(redated) }
    try writeBatch()
    return changed
  }

  /// A record into the one stored under its key: nothing when nothing changes, dates and all;
  /// else the rows of what changed, in ``batch``.
  private mutating func mergeExisting<Log: MergeLog>(
    _ record: Record, into stored: Record, hasRecordRow: Bool, changed: inout ChangedKeys,
    redated: inout [(key: CacheKey, date: Int)], log: inout Log
  ) throws(SQLiteError) {
    guard let (merged, names) = RecordCodec.merge(existing: stored.encodedFields, new: record.encodedFields) else {
      if Log.countsBytes { log.wrote(record.key, storedBytes: try countedBytes(of: stored)) }
      return
    }
    if names.isEmpty, let date = redate(record, stored: stored, hasRecordRow: hasRecordRow) {
      // Only dates moved, and a row's bytes do not count its date (RowBytes): as it was.
      redated.append((record.key, date))
      if Log.countsBytes { log.wrote(record.key, storedBytes: try countedBytes(of: stored)) }
      return
    }
    changed.insert(fields: names, of: record.key)
    let mergedRecord = Record(key: record.key, uncheckedEncodedFields: merged)
    guard try !writeChanges(of: record, stored: stored, hasRecordRow: hasRecordRow, merged: mergedRecord) else {
      // Only dates moved, and a row's bytes do not count its date (RowBytes): as it was.
      if Log.countsBytes { log.wrote(record.key, storedBytes: try countedBytes(of: stored)) }
      return
    }
    let bytes = try countedBytes(of: mergedRecord)
    accounting.storedBytes += bytes - (try countedBytes(of: stored))
    log.wrote(record.key, storedBytes: bytes)
  }

  /// The one new date of an unchanged refetch (``RecordCodec/onlyDatesMoved(_:_:)``) whose field
  /// rows' `written_at` is all there is to write. In `rows-ordered`, where its record row
  /// (``RecordFields/needsRecordRow``) stays as it is: a record without one at a date other than 0
  /// (rows all at 0 would be a record without dates), or one with one that the refetch needs too
  /// (its fields, the stored ones in their order, out of their names' order; or the new date 0).
  /// Nil for any other merge, which ``writeChanges(of:stored:hasRecordRow:merged:)`` writes.
  private func redate(_ record: Record, stored: Record, hasRecordRow: Bool) -> Int? {
    stored.encodedFields.withUnsafeBytes { storedBytes in
      record.encodedFields.withUnsafeBytes { incoming -> Int? in
        guard RecordCodec.onlyDatesMoved(storedBytes, incoming), let date = RecordDates.View(incoming)?.base else { return nil }
        guard format.writesRecordRows else { return date }
        if !hasRecordRow { return date != 0 ? date : nil }
        return date == 0 || !Self.fieldsInNameOrder(incoming) ? date : nil
      }
    }
  }

  /// Whether a record's fields come in the order of their names' bytes (the rows' order), as
  /// ``RecordFields/isInNameOrder`` says after reading them all.
  private static func fieldsInNameOrder(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = RecordDates.fieldsStart(bytes)
    var previous: Range<Int>?
    while offset < bytes.count {
      let name = RecordCodec.readField(bytes, &offset).name
      if let previous,
        FieldSet.compare(UnsafeRawBufferPointer(rebasing: bytes[name]), UnsafeRawBufferPointer(rebasing: bytes[previous])) < 0
      {
        return false
      }
      previous = name
    }
    return true
  }

  /// Moves every field row's date of unchanged refetches (not a record row), records of one date
  /// ``Connection/batchRows`` to a statement: `UPDATE OR FAIL records SET written_at = ?1 WHERE
  /// cache_key IN (?2, ...) AND field_name NOT IN ('', '$')`, and, where the file may hold nested
  /// lists, the rows of the sub-records the updated rows point to, and theirs, as Apollo's code
  /// moves them by writing the list again (``redateSubRecords(_:to:)``). A statement a record cost
  /// the calendar's refetch a step later much more than a statement a batch.
  private func updateDates(_ redated: [(key: CacheKey, date: Int)]) throws(SQLiteError) {
    let nestedLists = hadSubRecords || batch.hasWrittenSubRecords
    var groups: [(date: Int, keys: [CacheKey])] = []
    for (key, date) in redated {
      if let group = groups.firstIndex(where: { $0.date == date }) {
        groups[group].keys.append(key)
      } else {
        groups.append((date, [key]))
      }
    }
    for group in groups {
      try connection.inBatches(
        group.keys,
        sql: { rows in
          "UPDATE OR FAIL records SET written_at = ?1 WHERE cache_key IN (\(Connection.placeholders(rows))) "
            + "AND field_name NOT IN ('', '$')" + (nestedLists ? " RETURNING \(sql.pointer)" : "")
        }
      ) { statement, batch throws(SQLiteError) in
        defer { statement.clearBindings() }
        try statement.bind(Int64(group.date), at: 1)
        for (index, key) in batch.enumerated() { try statement.bind(key, at: Int32(index + 2)) }
        guard nestedLists else { return try statement.execute() }
        var nested: [CacheKey] = []
        defer { statement.reset() }
        while try statement.step() { if let child = try statement.optionalText(at: 0) { nested.append(child) } }
        try redateSubRecords(nested, to: group.date)
      }
    }
  }

  /// Moves the date of nested lists' sub-records (field `$`), and of the sub-records theirs point
  /// to, to `date`: a list written again at a new date has every row at that date in Apollo's code.
  private func redateSubRecords(_ keys: [CacheKey], to date: Int) throws(SQLiteError) {
    guard !keys.isEmpty else { return }
    var pending = keys
    let statement = try connection.cachedStatement(
      "UPDATE OR FAIL records SET written_at = ?1 WHERE cache_key = ?2 AND field_name = '$' RETURNING \(sql.pointer)")
    defer { statement.clearBindings() }
    try statement.bind(Int64(date), at: 1)
    while let key = pending.popLast() {
      defer { statement.reset() }
      try statement.bind(key, at: 2)
      while try statement.step() { if let child = try statement.optionalText(at: 0) { pending.append(child) } }
    }
  }

  /// A record's stored bytes, counted by writing its rows into a batch of their own.
  private func countedBytes(of record: Record) throws(SQLiteError) -> Int {
    var counting = RowBatch(format: format)
    var fields = RecordFields()
    return try counting.storedBytes(of: record, fields: &fields)
  }

  /// The writes of one record merged into its stored one (``mergeExisting``).
  ///
  /// - Returns: whether only its field rows' dates moved: an unchanged refetch at one new date,
  ///   its record row neither added nor deleted.
  private mutating func writeChanges(
    of record: Record, stored: Record, hasRecordRow: Bool, merged: Record
  ) throws(SQLiteError) -> Bool {
    var datesOnly = false
    var old = RecordFields()
    var new = RecordFields()
    var after = RecordFields()
    try stored.encodedFields.withUnsafeBytes { storedBytes in
      record.encodedFields.withUnsafeBytes { incoming in
        Result { () throws(SQLiteError) in
          old.read(storedBytes)
          new.read(incoming)
          // An unchanged refetch at one new date: every field's rows take it, in one statement
          // rather than one a field.
          if RecordCodec.onlyDatesMoved(storedBytes, incoming) {
            datesOnly = true
            return try updateDates([(record.key, new.date(0))])
          }
          let key = batch.append(record.key)
          for index in new.spans.indices {
            try writeField(index, of: new, incoming, stored: old, storedBytes, key: key, recordKey: record.key)
          }
        }
      }
    }.get()
    guard format.writesRecordRows else { return datesOnly }
    merged.encodedFields.withUnsafeBytes { after.read($0) }
    guard after.needsRecordRow else {
      guard hasRecordRow else { return datesOnly }
      try deleteRecordRow(of: record.key)
      return false
    }
    let emptyDate = { (fields: RecordFields) in fields.spans.isEmpty ? fields.uniformDate : 0 }
    if !hasRecordRow || after.spans.count != old.spans.count || after.isDated != old.isDated
      || emptyDate(after) != emptyDate(old)
    {
      batch.addRecordRow(key: batch.append(record.key), after)
      return false
    }
    return datesOnly
  }

  /// `record` with its fields in the order of their names (``RecordFields/inNameOrder(_:)``).
  static func inNameOrder(_ record: Record, fields: inout RecordFields) -> Record {
    let reordered = record.encodedFields.withUnsafeBytes { bytes in
      fields.read(bytes)
      return fields.inNameOrder(bytes)
    }
    guard let reordered else { return record }
    return Record(key: record.key, uncheckedEncodedFields: reordered)
  }

  /// Apollo's reserved-key audit (`insertOrUpdate`, 330-341 on
  /// `cache-rewrite/phase-1a-record-projection`): no record's key may hold `.$[`, the token of
  /// nested lists' sub-records, checked before anything is written.
  static func checkApolloKeys(_ records: [Record]) throws(SQLiteError) {
    for record in records where RowBytes.holdsSubRecordToken(record.key) {
      throw SQLiteError(
        resultCode: SQLITE_MISUSE,
        message:
          "Apollo's rows (the rows and rows-rowid layouts) cannot store record \"\(record.key)\": its key holds \".$[\", which names nested lists' sub-records"
      )
    }
  }

  static let deleteRecordRowSQL = "DELETE FROM records WHERE cache_key = ?1 AND \(recordRowSQL)"

  /// A record row its record no longer needs (``RecordFields/needsRecordRow``).
  private func deleteRecordRow(of key: CacheKey) throws(SQLiteError) {
    let statement = try connection.cachedStatement(Self.deleteRecordRowSQL)
    defer {
      statement.reset()
      statement.clearBindings()
    }
    try statement.bind(key, at: 1)
    try statement.execute()
  }

  /// One incoming field: new (its rows added), its value changed (its row upserted, or its rows
  /// replaced where either value is a list), its date alone moved (its rows' `written_at`
  /// updated), or as it was (nothing).
  private mutating func writeField(
    _ index: Int, of new: RecordFields, _ incoming: UnsafeRawBufferPointer, stored old: RecordFields,
    _ storedBytes: UnsafeRawBufferPointer, key: Range<Int>, recordKey: CacheKey
  ) throws(SQLiteError) {
    let span = new.spans[index]
    let name = UnsafeRawBufferPointer(rebasing: incoming[span.name])
    let value = UnsafeRawBufferPointer(rebasing: incoming[span.value])
    let date = new.date(index)
    // Records of one selection keep their fields in one order: the same place first.
    let match =
      index < old.spans.count && RecordCodec.bytes(storedBytes, old.spans[index].name, equal: name)
      ? index : old.spans.firstIndex { RecordCodec.bytes(storedBytes, $0.name, equal: name) }
    guard let match else {
      return try batch.addField(key: key, recordKey: recordKey, name: name, value: value, writtenAt: date)
    }
    let oldValue = old.spans[match].value
    if RecordCodec.bytes(storedBytes, oldValue, equal: value) {
      if old.date(match) != date { try updateDate(of: name, recordKey, to: date) }
      return
    }
    if RecordCodec.isList(value, at: 0) || RecordCodec.isList(storedBytes, at: oldValue.lowerBound) {
      try deleteField(name, of: recordKey)
    }
    try batch.addField(key: key, recordKey: recordKey, name: name, value: value, writtenAt: date)
  }

  /// A field's rows' date, its value unchanged: `UPDATE ... SET written_at`; where the file may
  /// hold nested lists, its sub-records' too (``redateSubRecords(_:to:)``).
  private func updateDate(of name: UnsafeRawBufferPointer, _ key: CacheKey, to date: Int) throws(SQLiteError) {
    let nestedLists = hadSubRecords || batch.hasWrittenSubRecords
    let statement = try connection.cachedStatement(
      "UPDATE OR FAIL records SET written_at = ?1 WHERE cache_key = ?2 AND field_name = ?3"
        + (nestedLists ? " RETURNING \(sql.pointer)" : ""))
    var nested: [CacheKey] = []
    do {
      defer {
        statement.reset()
        statement.clearBindings()
      }
      try statement.bind(Int64(date), at: 1)
      try statement.bind(key, at: 2)
      try statement.bindTextNoCopy(name, at: 3)
      guard nestedLists else { return try statement.execute() }
      while try statement.step() { if let child = try statement.optionalText(at: 0) { nested.append(child) } }
    }
    try redateSubRecords(nested, to: date)
  }

  /// A field's rows, and its nested lists' sub-records, before its new rows are written.
  private func deleteField(_ name: UnsafeRawBufferPointer, of key: CacheKey) throws(SQLiteError) {
    let statement = try connection.cachedStatement(sql.deleteField)
    var nested: [CacheKey] = []
    do {
      defer {
        statement.reset()
        statement.clearBindings()
      }
      try statement.bind(key, at: 1)
      try statement.bindTextNoCopy(name, at: 2)
      while try statement.step() { if let child = try statement.optionalText(at: 0) { nested.append(child) } }
    }
    if !nested.isEmpty { _ = try deleteSubRecords(nested) }
  }

  /// The batch's rows, 32 to a statement, bound from its text without copies. The 32-row
  /// statement runs again with the bindings of its last run in place: each row sets its columns,
  /// and sets back to NULL the value columns its slot's last row set and it does not (cheaper
  /// than clearing every binding each run: 0.7 M of the calendar's 65 M merge instructions). Every
  /// statement is left reset and cleared, the 32-row one after its last run.
  private mutating func writeBatch() throws(SQLiteError) {
    guard !batch.rows.isEmpty else { return }
    let rows = batch.rows
    var fullRuns = rows.count / Connection.batchRows
    // Each statement starts with every parameter NULL; the 32-row one runs first.
    var slots = boundColumns
    boundColumns = []
    defer { boundColumns = slots }
    slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    try batch.text.withUnsafeBytes { text in
      Result { () throws(SQLiteError) in
        try connection.inBatches(rows, sql: Self.upsertSQL(rows:)) { statement, batch throws(SQLiteError) in
          let full = batch.count == Connection.batchRows
          if full { fullRuns -= 1 } else { slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
          var clears = !full || fullRuns == 0
          defer {
            statement.reset()
            if clears { statement.clearBindings() }
          }
          clears = true
          for (index, row) in batch.enumerated() {
            slots[index] = try Self.bind(row, at: Int32(10 * index), from: text, to: statement, set: slots[index])
          }
          try statement.step()
          clears = !full || fullRuns == 0
        }
      }
    }.get()
  }

  /// One row's parameters, from `at + 1` (`cache_key`) to `at + 10` (`written_at`): its value
  /// columns, and NULL in those of `set` (bit K for parameter `at + 4 + K`, the slot's last
  /// row's) it does not set; returns the value columns it set.
  private static func bind(
    _ row: RowBatch.Row, at base: Int32, from text: UnsafeRawBufferPointer, to statement: Statement, set: UInt8
  ) throws(SQLiteError) -> UInt8 {
    try statement.bindTextNoCopy(UnsafeRawBufferPointer(rebasing: text[row.key]), at: base + 1)
    try statement.bindTextNoCopy(UnsafeRawBufferPointer(rebasing: text[row.name]), at: base + 2)
    try statement.bind(Int64(row.position), at: base + 3)
    let columns: UInt8
    switch row.value {
    case .marker, .list:
      columns = 0
    case .int(let int):
      try statement.bind(Int64(int), at: base + 4)
      columns = 1 << 0
    case .float(let double):
      try statement.bind(double: double, at: base + 6)
      columns = 1 << 2
    case .bool(let flag):
      try statement.bind(Int64(flag ? 1 : 0), at: base + 7)
      columns = 1 << 3
    case .text(let column, let range):
      let index: Int32 =
        switch column {
        case .string: 5
        case .childKey: 8
        case .customScalar: 9
        }
      try statement.bindTextNoCopy(UnsafeRawBufferPointer(rebasing: text[range]), at: base + index)
      columns = 1 << (index - 4)
    case .nested(let key, let count):
      try statement.bindTextNoCopy(UnsafeRawBufferPointer(rebasing: text[key]), at: base + 8)
      if let count {
        try statement.bind(Int64(count), at: base + 4)
        columns = 1 << 0 | 1 << 4
      } else {
        columns = 1 << 4
      }
    case .record(let count, let dated, let order):
      try statement.bind(Int64(count), at: base + 4)
      try statement.bind(Int64(dated ? 1 : 0), at: base + 7)
      if let order { try statement.bindBlobNoCopy(UnsafeRawBufferPointer(rebasing: text[order]), at: base + 9) }
      columns = 1 << 0 | 1 << 3 | (order == nil ? 0 : 1 << 5)
    }
    try statement.bind(Int64(row.writtenAt), at: base + 10)
    var stale = set & ~columns
    while stale != 0 {
      let bit = stale.trailingZeroBitCount
      try statement.bindNull(at: base + 4 + Int32(bit))
      stale &= stale - 1
    }
    return columns
  }
}
