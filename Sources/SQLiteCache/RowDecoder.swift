import CSQLite
@_spi(RecordBytes) import NormalizedCache

/// Rows of the rows layout (docs/stores.md#the-rows-layout) back into a record's ``RecordCodec``
/// encoding, one record at a time: each row's value from the column that holds it, written
/// through ``RecordWriter`` (the one encoder); then the dates field, from the rows' `written_at`,
/// and the fields in the record's order (a whole load: the record row's order, or the names' when
/// it has none) or in the order they came (a projected load: the order asked for). A record has
/// its record row only where its field rows cannot say what it holds
/// (``RecordFields/needsRecordRow``): without one, it has dates when a field's `written_at` is not
/// 0. Rows come from a file, so each is checked: a row the layout never writes fails the load with
/// `SQLITE_CORRUPT`.
///
/// Reused from load to load: its writer and arrays keep their room.
struct RowDecoder {
  /// Which rows a record became (``RowFormat``): whether a record row may come, and how a nested
  /// list's row is known.
  let format: RowFormat
  let writer = RecordWriter(capacity: 4096)
  /// The fields read so far, in the order they came: their bytes in ``writer``, and their dates.
  private var fields: [(bytes: Range<Int>, date: Int)] = []
  /// The field whose rows are being read.
  private var open: OpenField?
  /// Whether the record has its record row, and what it said: its field count, whether it has
  /// dates, its order (a BLOB of varints).
  private(set) var hasRecordRow = false
  private var fieldCount = 0
  private var dated = false
  private var order: [UInt8] = []
  private var hasOrder = false
  /// A record without fields: the date its record row holds.
  private var emptyDate = 0
  /// Whether a row of one of the record's fields came, kept or skipped: the record exists.
  private var sawFieldRow = false
  /// Whether a skipped field's `written_at` was not 0 (a kept field's date is in ``fields``): a
  /// record without a record row has dates when a date is not 0.
  private var sawDate = false
  /// The order, read: for each field in the record's order, its index among the fields read.
  private var ranks: [Int] = []
  /// Which fields a whole record's order has placed (room kept).
  private var placed: [Bool] = []

  private struct OpenField {
    let start: Int
    /// Its name's bytes in the writer.
    let name: Range<Int>
    let lengthAt: Int
    /// Where a list's count goes; nil for a single row.
    let countAt: Int?
    var elements: Int
    let date: Int
  }

  /// The columns of a row: `field_name` 1, `position` 2, the values from 3 (``valueBase``), `written_at` 9.
  static let valueBase: Int32 = 3

  init(format: RowFormat) { self.format = format }

  /// A new record begins.
  mutating func begin() {
    writer.truncate(to: 0)
    fields.removeAll(keepingCapacity: true)
    open = nil
    hasRecordRow = false
    sawFieldRow = false
    sawDate = false
    emptyDate = 0
    hasOrder = false
    order.removeAll(keepingCapacity: true)
  }

  /// One row of the record; with `keeping`, a projected load's, the rows of fields it does not
  /// name are skipped (rows filtered, docs/stores.md#projected-loads).
  mutating func add(_ statement: Statement, key: CacheKey, connection: Connection, keeping set: FieldSet?) throws(SQLiteError) {
    let position = Int(statement.int64(at: 2))
    try statement.withBytes(at: 1, asText: true) { name throws(SQLiteError) in
      if let field = open, RecordCodec.bytes(writer.bytes(from: field.name.lowerBound), 0..<field.name.count, equal: name) {
        guard field.countAt != nil, position == field.elements else {
          throw Self.corruption("rows of field \"\(String(decoding: name, as: UTF8.self))\" out of order", key: key)
        }
        try appendValue(statement, base: Self.valueBase, key: key, connection: connection, depth: 0)
        open?.elements += 1
        return
      }
      closeField()
      if name.isEmpty {
        try readRecordRow(statement, position: position, key: key)
      } else if !RowBytes.isSyntheticField(name) {
        // A `$` row under a record's key belongs to a sub-record that shares it: not the record's.
        // A field the load does not keep stays closed: its next rows come here too.
        sawFieldRow = true
        if let set, !set.contains(name) {
          // A kept field's date is read with it (``openField``); a skipped one's only where it
          // may be the one that says the record has dates.
          if !hasRecordRow, !sawDate, statement.int64(at: Self.valueBase + 6) != 0 { sawDate = true }
          return
        }
        try openField(name, position: position, statement, key: key, connection: connection)
      }
    }
  }

  private mutating func readRecordRow(_ statement: Statement, position: Int, key: CacheKey) throws(SQLiteError) {
    guard format.writesRecordRows else { throw Self.corruption("a record row (Apollo's rows have none)", key: key) }
    guard position == -1 else { throw Self.corruption("a record row at position \(position)", key: key) }
    hasRecordRow = true
    fieldCount = Int(statement.int64(at: Self.valueBase))
    dated = statement.int64(at: Self.valueBase + 3) != 0
    emptyDate = Int(statement.int64(at: Self.valueBase + 6))
    guard emptyDate >= 0 else { throw Self.corruption("a record row written at \(emptyDate), before 0", key: key) }
    if !statement.isNull(at: Self.valueBase + 5) {
      hasOrder = true
      try statement.withBytes(at: Self.valueBase + 5) { order.append(contentsOf: $0) }
    }
  }

  private mutating func openField(
    _ name: UnsafeRawBufferPointer, position: Int, _ statement: Statement, key: CacheKey, connection: Connection
  ) throws(SQLiteError) {
    let start = writer.written
    writer.appendVarint(UInt64(name.count))
    let nameStart = writer.written
    writer.append(name)
    let lengthAt = writer.openLength()
    var countAt: Int?
    switch position {
    case -1:
      try appendValue(statement, base: Self.valueBase, key: key, connection: connection, depth: 0)
    case -2:
      writer.append(RecordCodec.listTag)
      writer.append(0)
    case 0:
      countAt = writer.beginList()
      try appendValue(statement, base: Self.valueBase, key: key, connection: connection, depth: 0)
    default:
      throw Self.corruption("field \"\(String(decoding: name, as: UTF8.self))\" starts at position \(position)", key: key)
    }
    open = OpenField(
      start: start, name: nameStart..<nameStart + name.count, lengthAt: lengthAt, countAt: countAt, elements: 1,
      date: Int(statement.int64(at: Self.valueBase + 6)))
  }

  private mutating func closeField() {
    guard let field = open else { return }
    if let countAt = field.countAt { writer.endList(countAt, count: field.elements) }
    writer.closeLength(field.lengthAt)
    fields.append((field.start..<writer.written, field.date))
    open = nil
  }

  /// The value of a row whose value columns start at `base` (`int_value`, `string_value`,
  /// `float_value`, `bool_value`, `child_key_value`, `custom_scalar_value`): exactly one is set,
  /// or `child_key_value` and `int_value` together for a list in a list.
  private func appendValue(
    _ statement: Statement, base: Int32, key: CacheKey, connection: Connection, depth: Int
  ) throws(SQLiteError) {
    if !statement.isNull(at: base + 1) {
      let at = writer.beginStringValue()
      try statement.withBytes(at: base + 1, asText: true) { writer.append($0) }
      writer.closeLength(at)
    } else if !statement.isNull(at: base) {
      if statement.isNull(at: base + 4) {
        writer.appendInt(Int(statement.int64(at: base)))
      } else {
        let count = Int(statement.int64(at: base))
        try appendNested(try statement.text(at: base + 4), count: count, key: key, connection: connection, depth: depth + 1)
      }
    } else if !statement.isNull(at: base + 4) {
      let nested = try statement.withBytes(at: base + 4, asText: true) { child in
        if format == .apollo, Self.isSubRecordKey(child) { return true }
        let at = writer.beginReference()
        writer.append(child)
        writer.closeLength(at)
        return false
      }
      if nested {
        try appendNested(try statement.text(at: base + 4), count: nil, key: key, connection: connection, depth: depth + 1)
      }
    } else if !statement.isNull(at: base + 3) {
      writer.appendBool(statement.int64(at: base + 3) != 0)
    } else if !statement.isNull(at: base + 2) {
      writer.appendDouble(statement.double(at: base + 2))
    } else if !statement.isNull(at: base + 5) {
      try appendCustom(statement, column: base + 5, key: key)
    } else {
      throw Self.corruption("a row without a value", key: key)
    }
  }

  /// `custom_scalar_value`: the texts the layout writes there (``RowBatch/Custom``).
  private func appendCustom(_ statement: Statement, column: Int32, key: CacheKey) throws(SQLiteError) {
    try statement.withBytes(at: column, asText: true) { text throws(SQLiteError) in
      if text.elementsEqual(RowBatch.Custom.null) {
        writer.appendNull()
      } else if text.elementsEqual(RowBatch.Custom.negativeZero) {
        writer.appendDouble(-0.0)
      } else if text.elementsEqual(RowBatch.Custom.notANumber) {
        writer.appendDouble(.nan)
      } else {
        throw Self.corruption("custom_scalar_value \(String(decoding: text, as: UTF8.self).debugDescription)", key: key)
      }
    }
  }

  /// A list in a list: its sub-record's rows (field `$`), read by a statement of its own while the
  /// record's is between two rows (rare: a statement prepared for each).
  private func appendNested(
    _ subRecord: CacheKey, count: Int?, key: CacheKey, connection: Connection, depth: Int
  ) throws(SQLiteError) {
    guard depth < RecordJSON.maximumDepth else { throw Self.corruption("lists nested deeper than \(RecordJSON.maximumDepth)", key: key) }
    let statement = try Statement(
      sql: "SELECT position, int_value, string_value, float_value, bool_value, child_key_value, custom_scalar_value "
        + "FROM records WHERE cache_key = ?1 AND field_name = '$' ORDER BY position",
      connection: connection, persistent: false)
    try statement.bind(subRecord, at: 1)
    let countAt = writer.beginList()
    var elements = 0
    var empty = false
    while try statement.step() {
      let position = Int(statement.int64(at: 0))
      if position == -2, elements == 0, !empty {
        empty = true
        continue
      }
      guard position == elements, !empty else { throw Self.corruption("rows of sub-record \"\(subRecord)\" out of order", key: key) }
      try appendValue(statement, base: 1, key: key, connection: connection, depth: depth)
      elements += 1
    }
    writer.endList(countAt, count: elements)
    guard elements > 0 || empty else { throw Self.corruption("sub-record \"\(subRecord)\" has no rows", key: key) }
    if let count, elements != count {
      throw Self.corruption("sub-record \"\(subRecord)\" holds \(elements) elements, not \(count)", key: key)
    }
  }

  /// Whether a `child_key_value` names a nested list's sub-record as Apollo's rows do
  /// (`SQLiteSchema.Records.syntheticKeySuffixPattern`, `\.\$\[[0-9]+\]$`), not a reference.
  @inline(__always)
  private static func isSubRecordKey(_ key: UnsafeRawBufferPointer) -> Bool {
    // Backwards: `]`, one digit or more, `[$.`.
    var end = key.count
    guard end > 4, key[end - 1] == UInt8(ascii: "]") else { return false }
    end -= 1
    let digitsEnd = end
    while end > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(key[end - 1]) { end -= 1 }
    guard end < digitsEnd, end >= 3 else { return false }
    return key[end - 1] == UInt8(ascii: "[") && key[end - 2] == UInt8(ascii: "$") && key[end - 3] == UInt8(ascii: ".")
  }

  /// The record read, in ``RecordCodec``'s encoding; nil when its rows held neither a record row
  /// nor a field's row (the store has no such record). A whole record (`projected` false) must
  /// have every field its record row counts, and comes in its order; a projected one comes in the
  /// order its rows came.
  mutating func finish(key: CacheKey, projected: Bool) throws(SQLiteError) -> [UInt8]? {
    closeField()
    guard hasRecordRow || sawFieldRow else { return nil }
    if hasRecordRow, !projected, fields.count != fieldCount {
      throw Self.corruption("\(fields.count) fields where the record row says \(fieldCount)", key: key)
    }
    let ordered = !projected && hasOrder
    if ordered { try placeInOrder(key: key) }
    let datesStart = writer.written
    if hasRecordRow ? dated : sawDate || fields.contains(where: { $0.date != 0 }) { try appendDates(ordered: ordered, key: key) }
    let datesBytes = writer.written - datesStart
    let total = fields.reduce(datesBytes) { $0 + $1.bytes.count }
    // A record without fields or dates: an empty array, not one made with no capacity, whose
    // initializer writes its count into the empty array every thread shares (a race ThreadSanitizer
    // reports, and the base address it would copy to is not promised).
    guard total > 0 else { return [] }
    let source = writer.bytes(from: 0)
    return [UInt8](unsafeUninitializedCapacity: total) { output, count in
      let base = UnsafeMutableRawPointer(output.baseAddress!)
      var at = 0
      base.copyMemory(from: source.baseAddress! + datesStart, byteCount: datesBytes)
      at += datesBytes
      for index in 0..<fields.count {
        let range = ordered ? fields[ranks[index]].bytes : fields[index].bytes
        (base + at).copyMemory(from: source.baseAddress! + range.lowerBound, byteCount: range.count)
        at += range.count
      }
      count = total
    }
  }

  /// The record row's order (each field's rank among the names, in the record's order), read into
  /// ``ranks``, checked: every rank once.
  private mutating func placeInOrder(key: CacheKey) throws(SQLiteError) {
    ranks.removeAll(keepingCapacity: true)
    placed.removeAll(keepingCapacity: true)
    placed.append(contentsOf: repeatElement(false, count: fields.count))
    var offset = 0
    while offset < order.count {
      guard let rank = order.withUnsafeBytes({ Varint.readChecked($0, &offset) }), rank < UInt64(fields.count), !placed[Int(rank)]
      else {
        throw Self.corruption("a malformed field order", key: key)
      }
      placed[Int(rank)] = true
      ranks.append(Int(rank))
    }
    guard ranks.count == fields.count else { throw Self.corruption("a field order that misses a field", key: key) }
  }

  /// The dates field, canonical (``RecordDates``), of the fields in the order they will be written.
  /// A date before 0 is no record's (docs/records.md#dates), and a dates field made of one beside
  /// a late one would overflow the seconds before its base (`Int.min` beside `Int.max` trapped):
  /// the one date checked, or the least of several, where a check of each field row's date cost
  /// the gate's rows reads measurably.
  private func appendDates(ordered: Bool, key: CacheKey) throws(SQLiteError) {
    let first = fields.first.map(\.date) ?? emptyDate
    let one = fields.allSatisfy({ $0.date == first })
    let least = one ? first : fields.lazy.map(\.date).min() ?? 0
    guard least >= 0 else { throw Self.corruption("a field written at \(least), before 0", key: key) }
    writer.append(0)
    let lengthAt = writer.openLength()
    if one {
      writer.appendInt(first)
    } else {
      RecordDates.appendValue(fields.indices.map { fields[ordered ? ranks[$0] : $0].date }, to: writer)
    }
    writer.closeLength(lengthAt)
  }

  static func corruption(_ what: String, key: CacheKey) -> SQLiteError {
    SQLiteError(resultCode: SQLITE_CORRUPT, message: "\(what) in the record of key \"\(key)\" (rows layout)")
  }
}
