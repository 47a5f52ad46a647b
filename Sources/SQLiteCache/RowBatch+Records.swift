@_spi(RecordBytes) import NormalizedCache

/// A record's fields as the rows layout writes them: each field's place in its encoding and its
/// date, and the order of their names (the order rows take in the table).
struct RecordFields {
  /// The fields in the record's order.
  var spans: [RecordCodec.FieldSpan] = []
  /// Each field's date, in the record's order; empty when every field has ``uniformDate``.
  var dates: [Int] = []
  var uniformDate = 0
  var isDated = false
  /// The fields' indices in the order of their names' bytes.
  var byName: [Int] = []

  /// Reads `bytes` (a record's ``RecordCodec`` encoding), reusing this value's room.
  mutating func read(_ bytes: UnsafeRawBufferPointer) {
    spans.removeAll(keepingCapacity: true)
    dates.removeAll(keepingCapacity: true)
    byName.removeAll(keepingCapacity: true)
    var offset = RecordDates.fieldsStart(bytes)
    while offset < bytes.count { spans.append(RecordCodec.readField(bytes, &offset)) }
    let view = RecordDates.View(bytes)
    isDated = view != nil
    uniformDate = view?.base ?? 0
    if let view, !view.isUniform { dates = RecordDates.dates(bytes) }
    byName.reserveCapacity(spans.count)
    for index in spans.indices { byName.append(index) }
    // Insertion sort: records have tens of fields, mostly near their names' order already.
    for index in byName.indices.dropFirst() {
      let moving = byName[index]
      var place = index
      while place > 0, Self.less(bytes, spans[moving].name, spans[byName[place - 1]].name) {
        byName[place] = byName[place - 1]
        place -= 1
      }
      byName[place] = moving
    }
  }

  /// The date of the field at `position` (0 without dates).
  @inline(__always)
  func date(_ position: Int) -> Int { dates.isEmpty ? uniformDate : dates[position] }

  /// Whether the fields are in the order of their names (the record row then holds no order).
  var isInNameOrder: Bool { byName.indices.allSatisfy { byName[$0] == $0 } }

  /// Whether a record of these fields needs its record row, because its field rows cannot say
  /// what it holds (docs/stores.md#the-rows-layout): it has no field (so no row would say it
  /// exists), its fields are not in the order of their names (the order rows come in), or it has
  /// dates and every one is 0 (rows all at 0 are a record without dates).
  var needsRecordRow: Bool {
    if spans.isEmpty || !isInNameOrder { return true }
    guard isDated else { return false }
    return dates.isEmpty ? uniformDate == 0 : dates.allSatisfy { $0 == 0 }
  }

  /// The record ``read(_:)`` read, its fields in the order of their names and its dates with
  /// them (canonical); nil when they are in that order already. What a `rows` merge
  /// compares with a stored record, which loads in that order: an unchanged refetch is then the
  /// same bytes, or the same but for one date, as in a store that keeps the order.
  func inNameOrder(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
    guard !isInNameOrder else { return nil }
    let writer = RecordWriter(capacity: bytes.count + 16)
    if isDated {
      writer.append(0)
      let lengthAt = writer.openLength()
      if dates.isEmpty { writer.appendInt(uniformDate) } else { RecordDates.appendValue(byName.map { dates[$0] }, to: writer) }
      writer.closeLength(lengthAt)
    }
    for index in byName { writer.append(UnsafeRawBufferPointer(rebasing: bytes[spans[index].entry])) }
    return Array(writer.bytes(from: 0))
  }

  /// Appends the record row's order: for each field in the record's order, its rank among the
  /// names, as varints.
  func appendOrder(to bytes: inout [UInt8]) {
    var rank = [Int](repeating: 0, count: spans.count)
    for (sortedIndex, field) in byName.enumerated() { rank[field] = sortedIndex }
    for value in rank { Varint.append(UInt64(value), to: &bytes) }
  }

  private static func less(_ bytes: UnsafeRawBufferPointer, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
    FieldSet.compare(UnsafeRawBufferPointer(rebasing: bytes[a]), UnsafeRawBufferPointer(rebasing: bytes[b])) < 0
  }
}

extension RowBatch {
  /// The rows of a whole record: its record row where it needs one
  /// (``RecordFields/needsRecordRow``), then each field's rows, in the order of the names (the
  /// table's). `fields` is read from the record, reusing its room.
  mutating func addRecord(_ record: Record, fields: inout RecordFields) throws(SQLiteError) {
    try record.encodedFields.withUnsafeBytes { bytes in
      Result { () throws(SQLiteError) in
        fields.read(bytes)
        let key = append(record.key)
        if format.writesRecordRows, fields.needsRecordRow { addRecordRow(key: key, fields) }
        for index in fields.byName {
          let span = fields.spans[index]
          try addField(
            key: key, recordKey: record.key, name: UnsafeRawBufferPointer(rebasing: bytes[span.name]),
            value: UnsafeRawBufferPointer(rebasing: bytes[span.value]), writtenAt: fields.date(index))
        }
      }
    }.get()
  }

  /// The record row of a record of these fields, under the key at `key`.
  mutating func addRecordRow(key: Range<Int>, _ fields: RecordFields) {
    var order: Range<Int>?
    if !fields.isInNameOrder {
      let start = text.count
      fields.appendOrder(to: &text)
      order = start..<text.count
    }
    let name = text.count..<text.count
    // A record without fields keeps its date here, as the dates field has it (no row of a field can).
    let date = fields.spans.isEmpty ? fields.uniformDate : 0
    add(key: key, name: name, position: -1, .record(count: fields.spans.count, dated: fields.isDated, order: order), writtenAt: date)
  }

  /// The stored bytes of a record's rows, counted by writing them here (the batch is emptied first).
  mutating func storedBytes(of record: Record, fields: inout RecordFields) throws(SQLiteError) -> Int {
    removeAll()
    try addRecord(record, fields: &fields)
    return storedBytes
  }
}
