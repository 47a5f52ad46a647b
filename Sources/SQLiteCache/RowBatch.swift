import CSQLite
@_spi(RecordBytes) import NormalizedCache

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The rows a merge writes in the rows layout (docs/stores.md#the-rows-layout), and how a
/// ``RecordCodec`` value becomes them: one walk of the value grammar (``RowsOfValue``, a visitor
/// of ``RecordValueWalk``, `RecordBytes.swift` invariant 7). Keys, names and texts are copied into
/// one buffer, from which the rows are bound without copies. Its stored bytes are counted as it
/// goes, by ``RowBytes``, the count the table's `rowBytesSQL` makes.
struct RowBatch {
  /// Which rows a record becomes (``RowFormat``).
  let format: RowFormat
  /// The text of every row: keys, field names, strings, references, sub-record keys, record orders.
  var text: [UInt8] = []
  var rows: [Row] = []
  /// The stored bytes of the rows added so far.
  var storedBytes = 0
  /// The lists a walk of a value is in (``RowsOfValue``), outermost first: the key and field name
  /// of their rows, and the position of their next element. Kept for the next walk's room.
  var lists: [(key: Range<Int>, name: Range<Int>, next: Int)] = []
  /// Whether any walk into this batch met a list in a list, whose elements a sub-record holds:
  /// kept across ``removeAll()``, so a store knows whether it ever wrote one.
  var hasWrittenSubRecords = false
  /// Where a walk met a reference to a key holding `.$[`, which ``RowFormat/apollo`` rows would
  /// read back as a nested list (the walk cannot throw: ``addField`` does).
  var reservedReference: Range<Int>?

  init(format: RowFormat) { self.format = format }

  /// One row of `records`.
  struct Row {
    var key: Range<Int>
    var name: Range<Int>
    var position: Int
    var value: Value
    var writtenAt: Int
  }

  /// What a row holds besides its key, field name, position and date.
  enum Value {
    /// An empty list's marker (position -2): no value.
    case marker
    case int(Int)
    case float(Double)
    case bool(Bool)
    /// Text in one of the text columns.
    case text(TextColumn, Range<Int>)
    /// A list in a list: its sub-record's key and its element count (nil in ``RowFormat/apollo``
    /// rows, which do not keep it).
    case nested(Range<Int>, count: Int?)
    /// A record's own row: its field count, whether it has dates, and its order where it is not
    /// its names' (a BLOB in `custom_scalar_value`).
    case record(count: Int, dated: Bool, order: Range<Int>?)
    /// A list whose rows were written (not a row itself).
    case list
  }

  enum TextColumn {
    case string, childKey, customScalar
  }

  /// The texts `custom_scalar_value` holds for what the typed columns cannot (docs/stores.md):
  /// null, as Apollo's implementation stores it, and the Doubles SQLite's REAL does not keep.
  enum Custom {
    static let null = Array("null".utf8)
    static let negativeZero = Array("-0.0".utf8)
    static let notANumber = Array("NaN".utf8)
  }

  mutating func removeAll() {
    text.removeAll(keepingCapacity: true)
    rows.removeAll(keepingCapacity: true)
    storedBytes = 0
  }

  /// Copies bytes into ``text``; their range there. (Typed first: an untyped buffer is appended
  /// byte by byte, a typed one copied at once.)
  @inline(__always)
  mutating func append(_ bytes: UnsafeRawBufferPointer) -> Range<Int> {
    let start = text.count
    bytes.withMemoryRebound(to: UInt8.self) { text.append(contentsOf: $0) }
    return start..<text.count
  }

  mutating func append(_ string: String) -> Range<Int> {
    var string = string
    return string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
  }

  /// Adds a row, counting its bytes.
  @inline(__always)
  mutating func add(key: Range<Int>, name: Range<Int>, position: Int, _ value: Value, writtenAt: Int) {
    rows.append(Row(key: key, name: name, position: position, value: value, writtenAt: writtenAt))
    storedBytes += RowBytes.row(key: key.count, name: name.count, value: value)
  }

  /// The rows of one field of the record whose key is at `key`: its value walked, its rows added
  /// at the field's date.
  /// - Throws: ``SQLiteError`` `SQLITE_MISUSE` for a field named `$`, which the layout keeps for
  ///   nested lists' sub-records.
  mutating func addField(
    key: Range<Int>, recordKey: CacheKey, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, writtenAt: Int
  ) throws(SQLiteError) {
    if name.count == 1, name[0] == UInt8(ascii: "$") {
      throw SQLiteError(
        resultCode: SQLITE_MISUSE,
        message: "the rows layout cannot store field \"$\" of record \"\(recordKey)\": \"$\" names the rows of nested lists' sub-records")
    }
    let nameRange = append(name)
    var offset = 0
    // The walk writes into this batch where it is: no batch made, moved or copied a field.
    let top = withUnsafeMutablePointer(to: &self) { batch in
      var walk = RowsOfValue(field: (key, nameRange), writtenAt: writtenAt, batch: batch)
      return RecordValueWalk.walk(value, &offset, &walk)
    }
    if let reference = reservedReference {
      reservedReference = nil
      throw SQLiteError(
        resultCode: SQLITE_MISUSE,
        message:
          "Apollo's rows (the rows and rows-rowid layouts) cannot store field \"\(String(decoding: name, as: UTF8.self))\" of record \"\(recordKey)\": "
          + "its reference to \"\(String(decoding: text[reference], as: UTF8.self))\" holds \".$[\", which names nested lists' sub-records")
    }
    if case .list = top { return }
    add(key: key, name: nameRange, position: -1, top, writtenAt: writtenAt)
  }
}

/// A field's value walked into rows (``RowBatch/addField(key:recordKey:name:value:writtenAt:)``):
/// a scalar is its value (for a row at -1), a list adds a row per element (a list in it a
/// sub-record, `KEY.FIELD.$[P]` of field `$`, Apollo's naming) and a marker row when empty.
struct RowsOfValue: RecordValueVisitor {
  typealias Value = RowBatch.Value
  /// The list's depth: its place in ``lists``.
  typealias List = Int
  typealias Failure = Never
  static var source: RecordValueSource { .trusted }

  /// The key and field name of the field's own rows.
  let field: (key: Range<Int>, name: Range<Int>)
  let writtenAt: Int
  /// The batch the rows go to, lent for the walk by ``RowBatch/addField(key:recordKey:name:value:writtenAt:)``.
  private let pointer: UnsafeMutablePointer<RowBatch>

  /// The batch, in place.
  var batch: RowBatch {
    unsafeAddress { UnsafePointer(pointer) }
    nonmutating unsafeMutableAddress { pointer }
  }

  init(field: (key: Range<Int>, name: Range<Int>), writtenAt: Int, batch: UnsafeMutablePointer<RowBatch>) {
    self.field = field
    self.writtenAt = writtenAt
    pointer = batch
  }

  mutating func null(_ token: Range<Int>) -> Value { .text(.customScalar, custom(RowBatch.Custom.null)) }
  func bool(_ value: Bool, _ token: Range<Int>) -> Value { .bool(value) }
  func int(_ value: Int, _ token: Range<Int>) -> Value { .int(value) }

  /// A Double SQLite's REAL keeps as it is; `-0.0` (stored as the integer 0) and NaN (stored as
  /// NULL) as text.
  mutating func double(_ value: Double, _ token: Range<Int>) -> Value {
    if value.isNaN { return .text(.customScalar, custom(RowBatch.Custom.notANumber)) }
    if value == 0, value.sign == .minus { return .text(.customScalar, custom(RowBatch.Custom.negativeZero)) }
    return .float(value)
  }

  mutating func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) -> Value { .text(.string, batch.append(utf8)) }
  mutating func reference(_ key: UnsafeRawBufferPointer, _ token: Range<Int>) -> Value {
    let range = batch.append(key)
    if batch.format == .apollo, RowBytes.holdsSubRecordToken(key) { batch.reservedReference = range }
    return .text(.childKey, range)
  }

  private mutating func custom(_ text: [UInt8]) -> Range<Int> { text.withUnsafeBytes { batch.append($0) } }

  /// The field's list, or a list in a list: a sub-record of its own, under the key Apollo's
  /// implementation gives it (`PARENT.FIELD.$[P]`, or `PARENT.$[P]` in a sub-record).
  mutating func beginList(count: Int, _ token: Range<Int>) -> Int {
    guard let parent = batch.lists.last else {
      batch.lists.append((field.key, field.name, 0))
      return 0
    }
    // Copied out first: appending a slice of the buffer to itself would copy the whole buffer.
    var key = Array(batch.text[parent.key])
    if !RowBytes.isSyntheticField(batch.text[parent.name]) {
      key.append(UInt8(ascii: "."))
      key.append(contentsOf: batch.text[parent.name])
    }
    key.append(contentsOf: ".$[\(parent.next)]".utf8)
    let keyRange = key.withUnsafeBytes { batch.append($0) }
    let name = batch.append(FieldRowStore.syntheticField)
    batch.hasWrittenSubRecords = true
    batch.lists.append((keyRange, name, 0))
    return batch.lists.count - 1
  }

  mutating func append(_ element: consuming Value, to depth: inout Int) {
    let list = batch.lists[depth]
    batch.add(key: list.key, name: list.name, position: list.next, element, writtenAt: writtenAt)
    batch.lists[depth].next += 1
  }

  mutating func endList(_ depth: consuming Int) -> Value {
    let list = batch.lists.removeLast()
    if list.next == 0 { batch.add(key: list.key, name: list.name, position: -2, .marker, writtenAt: writtenAt) }
    return batch.lists.isEmpty ? .list : .nested(list.key, count: batch.format == .ordered ? list.next : nil)
  }
}

/// What a row counts as stored bytes (the table's `FieldRowStore.rowBytesSQL` counts the same): its
/// key and field name, its value's text, 8 bytes for an Int or a Double, 1 for a Boolean, and
/// ``rowOverhead`` for its position, its date, and SQLite's cell around it.
enum RowBytes {
  /// A row's bytes beyond its key, name and value: its position and date and its cell's header,
  /// measured (docs/stores.md#the-rows-layout).
  static let rowOverhead = 12

  @inline(__always)
  static func row(key: Int, name: Int, value: RowBatch.Value) -> Int {
    let valueBytes: Int
    switch value {
    case .marker, .list: valueBytes = 0
    case .int, .float: valueBytes = 8
    case .bool: valueBytes = 1
    case .text(_, let range): valueBytes = range.count
    case .nested(let key, let count): valueBytes = key.count + (count == nil ? 0 : 8)
    case .record(_, _, let order): valueBytes = 8 + 1 + (order?.count ?? 0)
    }
    return key + name + valueBytes + rowOverhead
  }

  /// Whether a field name is the sub-records' `$`.
  /// Whether a key holds `.$[`, the token of nested lists' sub-records' keys (Apollo's
  /// `SQLiteSchema.Records.syntheticKeyToken`): `memchr` for the `$`, which keys seldom hold.
  static func holdsSubRecordToken(_ key: UnsafeRawBufferPointer) -> Bool {
    guard let base = key.baseAddress else { return false }
    var from = 1
    while from < key.count - 1, let found = memchr(base + from, Int32(UInt8(ascii: "$")), key.count - 1 - from) {
      let at = UnsafeRawPointer(found) - base
      if key[at - 1] == UInt8(ascii: "."), key[at + 1] == UInt8(ascii: "[") { return true }
      from = at + 1
    }
    return false
  }

  /// The same for a `String`.
  static func holdsSubRecordToken(_ key: String) -> Bool {
    var key = key
    return key.withUTF8 { holdsSubRecordToken(UnsafeRawBufferPointer($0)) }
  }

  static func isSyntheticField(_ name: some Collection<UInt8>) -> Bool {
    name.count == 1 && name.first == UInt8(ascii: "$")
  }
}
