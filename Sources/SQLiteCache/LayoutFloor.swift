import CSQLite
@_spi(RecordBytes) import NormalizedCache
import Synchronization

/// The floor of one SQLite layout (docs/metrics.md#layout-floors, `"limits": "layouts"`): the SQL
/// the layout needs, with nothing around it, in the layout's own table, journal and synchronous
/// mode. Its time is what the layout's design costs; a store's time over it is what its code adds.
///
/// - A merge, in one transaction, selects each incoming record by key (a merge must read what it
///   merges into) and writes every record whole, without comparing: one row a record in the
///   `apollo` and `compact` tables, one row a field in the `rows` table, through the 32-row
///   statements the layouts write with (``Connection/inBatches(_:sql:_:)``).
/// - A load is one prepared `SELECT` by key per key, rows turned back into a record's bytes. A
///   projected load (docs/stores.md#projected-loads) reads the same rows; in `rows` it turns back
///   only the rows of the fields asked, in the others the whole record (a blob is read whole).
/// - A pattern delete is one plain `DELETE ... LIKE` (in `rows`, of rows not a sub-record's).
///
/// The rows hold the bytes the record already has: its ``RecordCodec`` encoding as the `apollo`
/// layout's text and the `compact` layout's blob (the layouts write JSON, and numbers for field
/// names), each field's Int, String, reference or other encoded value in the `rows` columns of its
/// type, a list's elements a row each (a list in a list as one encoded value). No dates, no
/// record rows, no sub-records, no field-name table.
///
/// ```swift
/// let floor = try LayoutFloorStore(path: "floor.sqlite", floor: LayoutFloor(layout: .rows, journal: .delete, synchronous: .full))
/// try floor.merge(records: records)
/// try floor.removeRecords(matching: "User_")
/// ```
public final class LayoutFloorStore: NormalizedCache {
  public let floor: LayoutFloor
  private let connection: Mutex<Connection>

  /// - Throws: ``SQLiteError`` when SQLite cannot open the file or set it up.
  public init(path: String, floor: LayoutFloor) throws(SQLiteError) {
    self.floor = floor
    var options = SQLiteNormalizedCache.Options(layout: floor.layout)
    options.journalMode = floor.journal
    options.synchronous = floor.synchronous
    options.memoryMapBytes = floor.memoryMapBytes
    options.pageCacheKibibytes = floor.pageCacheKibibytes
    options.mutex = floor.mutex
    let connection = try Connection(path: path, mutex: options.mutex)
    try connection.configure(options)
    try connection.execute(floor.schema)
    self.connection = Mutex(connection)
  }

  @discardableResult
  public func merge(records: RecordSet) throws(SQLiteError) -> ChangedKeys {
    let records = Array(records)
    try connection.withLock { connection throws(SQLiteError) in
      try connection.inTransaction { () throws(SQLiteError) in
        let select = try connection.cachedStatement(floor.selectSQL)
        for record in records {
          defer { select.reset() }
          try select.bind(record.key, at: 1)
          while try select.step() {}
        }
        if floor.rowPerField { try writeRows(records, connection) } else { try writeRecords(records, connection) }
      }
    }
    return ChangedKeys()
  }

  private func writeRecords(_ records: [Record], _ connection: Connection) throws(SQLiteError) {
    let column = floor.dataColumn
    try connection.inBatches(
      records,
      sql: { rows in
        // OR FAIL, as the layouts write: no statement journal (FieldRowStore.upsertSQL).
        "INSERT OR FAIL INTO records(key, \(column)) VALUES \(Connection.placeholders(rows, "(?, ?)")) "
          + "ON CONFLICT(key) DO UPDATE SET \(column) = excluded.\(column)"
      }
    ) { statement, batch throws(SQLiteError) in
      for (index, record) in batch.enumerated() {
        try statement.bind(record.key, at: Int32(2 * index + 1))
        try record.encodedFields.withUnsafeBytes { bytes in
          Result { () throws(SQLiteError) in try statement.bindBlobNoCopy(bytes, at: Int32(2 * index + 2)) }
        }.get()
      }
      try statement.execute()
    }
  }

  /// One row a field, a list's one row an element at positions 0 ... N-1 (an empty list's at -2):
  /// an Int in `int_value`, a String in `string_value`, a reference in `child_key_value`, any other
  /// value's encoding (a list in a list among them) in `custom_scalar_value`.
  private func writeRows(_ records: [Record], _ connection: Connection) throws(SQLiteError) {
    var rows: [FloorRow] = []
    for (index, record) in records.enumerated() {
      record.encodedFields.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let field = RecordCodec.readField(bytes, &offset)
          guard bytes[field.value.lowerBound] == RecordCodec.listTag else {
            rows.append(FloorRow(record: index, name: field.name, position: -1, value: field.value))
            continue
          }
          var element = field.value.lowerBound + 1
          let count = Int(Varint.read(bytes, &element))
          if count == 0 { rows.append(FloorRow(record: index, name: field.name, position: -2, value: element..<element)) }
          for position in 0..<count {
            let start = element
            _ = EncodedValue.skip(bytes, &element)
            rows.append(FloorRow(record: index, name: field.name, position: position, value: start..<element))
          }
        }
      }
    }
    try connection.inBatches(rows, sql: FieldRowStore.upsertSQL(rows:)) { statement, batch throws(SQLiteError) in
      for (index, row) in batch.enumerated() {
        let base = Int32(10 * index)
        let record = records[row.record]
        try statement.bind(record.key, at: base + 1)
        try record.encodedFields.withUnsafeBytes { bytes in
          Result { () throws(SQLiteError) in
            try statement.bindText(UnsafeRawBufferPointer(rebasing: bytes[row.name]), at: base + 2)
            try statement.bind(Int64(row.position), at: base + 3)
            for column in Int32(4)...9 { try statement.bindNull(at: base + column) }
            if !row.value.isEmpty {
              var offset = row.value.lowerBound + 1
              switch bytes[row.value.lowerBound] {
              case RecordCodec.intTag:
                try statement.bind(Int64(ZigZag.decode(Varint.read(bytes, &offset))), at: base + 4)
              case RecordCodec.stringTag, RecordCodec.referenceTag:
                let length = Int(Varint.read(bytes, &offset))
                let column: Int32 = bytes[row.value.lowerBound] == RecordCodec.stringTag ? 5 : 8
                try statement.bindText(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), at: base + column)
              default:
                try statement.bindBlobNoCopy(UnsafeRawBufferPointer(rebasing: bytes[row.value]), at: base + 9)
              }
            }
            try statement.bind(0, at: base + 10)
          }
        }.get()
      }
      try statement.execute()
    }
  }

  /// A row to write: the record's index, its field's name, the row's position and its value's bytes.
  private struct FloorRow {
    let record: Int
    let name: Range<Int>
    let position: Int
    let value: Range<Int>
  }

  public func loadRecords(forKeys keys: [CacheKey]) throws(SQLiteError) -> [CacheKey: Record] {
    var records: [CacheKey: Record] = [:]
    for record in try loadRecordsInOrder(forKeys: keys) {
      if let record { records[record.key] = record }
    }
    return records
  }

  public func loadRecordsInOrder(forKeys keys: [CacheKey]) throws(SQLiteError) -> [Record?] {
    try load(keys, projection: nil)
  }

  /// Reads under the connection's lock; a projected load leaves out, in `rows`, the rows of
  /// fields not asked.
  public func withConsistentRead<Result>(_ body: (any RecordSnapshot) throws -> Result) throws -> Result {
    try body(Snapshot(floor: self))
  }

  private struct Snapshot: RecordSnapshot {
    let floor: LayoutFloorStore
    func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?] { try floor.load(keys, projection: nil) }
    func lendRecords(forKeys keys: [CacheKey], projection: FieldProjection, to lent: inout LentRecords) throws {
      lent.lend(try floor.load(keys, projection: projection))
    }
  }

  /// One prepared `SELECT` by key per key, in one read transaction when there are several.
  private func load(_ keys: [CacheKey], projection: FieldProjection?) throws(SQLiteError) -> [Record?] {
    try connection.withLock { connection throws(SQLiteError) in
      let select = try connection.cachedStatement(floor.selectSQL)
      func load() throws(SQLiteError) -> [Record?] {
        var records: [Record?] = []
        records.reserveCapacity(keys.count)
        var fields: [UInt8] = []
        var pending = PendingList()
        for (position, key) in keys.enumerated() {
          defer { select.reset() }
          try select.bind(key, at: 1)
          fields.removeAll(keepingCapacity: true)
          let set = floor.rowPerField ? projection?.set(ofKeyAt: position) : nil
          var found = false
          while try select.step() {
            found = true
            if let set, try !select.withBytes(at: 0, asText: true, { name throws(SQLiteError) in set.contains(name) }) { continue }
            try append(select, to: &fields, pending: &pending)
          }
          flush(&pending, to: &fields)
          records.append(found ? Record(key: key, uncheckedEncodedFields: fields) : nil)
        }
        return records
      }
      return keys.count > 1 ? try connection.inTransaction(.deferred, load) : try load()
    }
  }

  /// A row's bytes onto the record's: the stored encoding; in `rows`, a field made back from its
  /// row, or a list's element added to the list `pending` holds (written out by ``flush(_:to:)``
  /// when a row of another field comes, or the record's rows end).
  private func append(_ row: Statement, to fields: inout [UInt8], pending: inout PendingList) throws(SQLiteError) {
    guard floor.rowPerField else {
      try row.withBytes(at: 0) { bytes throws(SQLiteError) in fields.append(contentsOf: bytes) }
      return
    }
    let position = row.int64(at: 1)
    if position != -1 {
      let sameList = try row.withBytes(at: 0, asText: true) { name throws(SQLiteError) in name.elementsEqual(pending.name) }
      if !sameList {
        flush(&pending, to: &fields)
        try row.withBytes(at: 0, asText: true) { name throws(SQLiteError) in pending.name.append(contentsOf: name) }
        pending.open = true
      }
      if position >= 0 {
        pending.count += 1
        try appendValue(row, to: &pending.elements)
      }
      return
    }
    flush(&pending, to: &fields)
    try row.withBytes(at: 0, asText: true) { name throws(SQLiteError) in
      Varint.append(UInt64(name.count), to: &fields)
      fields.append(contentsOf: name)
    }
    var value: [UInt8] = []
    try appendValue(row, to: &value)
    Varint.append(UInt64(value.count), to: &fields)
    fields.append(contentsOf: value)
  }

  /// A row's value in the record encoding: `int_value`, `string_value`, `child_key_value` or the
  /// encoding in `custom_scalar_value`.
  private func appendValue(_ row: Statement, to value: inout [UInt8]) throws(SQLiteError) {
    if row.type(at: 2) == SQLITE_INTEGER {
      value.append(RecordCodec.intTag)
      Varint.append(ZigZag.encode(Int(row.int64(at: 2))), to: &value)
    } else if row.type(at: 3) == SQLITE_TEXT || row.type(at: 4) == SQLITE_TEXT {
      let column: Int32 = row.type(at: 3) == SQLITE_TEXT ? 3 : 4
      try row.withBytes(at: column, asText: true) { text throws(SQLiteError) in
        value.append(column == 3 ? RecordCodec.stringTag : RecordCodec.referenceTag)
        Varint.append(UInt64(text.count), to: &value)
        value.append(contentsOf: text)
      }
    } else {
      try row.withBytes(at: 5) { bytes throws(SQLiteError) in value.append(contentsOf: bytes) }
    }
  }

  /// The list being made back from its rows: its field's name, its elements so far.
  private struct PendingList {
    var open = false
    var name: [UInt8] = []
    var count = 0
    var elements: [UInt8] = []
  }

  /// Writes the pending list, if there is one, as a field of the record, and empties it.
  private func flush(_ pending: inout PendingList, to fields: inout [UInt8]) {
    guard pending.open else { return }
    var value: [UInt8] = [RecordCodec.listTag]
    Varint.append(UInt64(pending.count), to: &value)
    value.append(contentsOf: pending.elements)
    Varint.append(UInt64(pending.name.count), to: &fields)
    fields.append(contentsOf: pending.name)
    Varint.append(UInt64(value.count), to: &fields)
    fields.append(contentsOf: value)
    pending.open = false
    pending.name.removeAll(keepingCapacity: true)
    pending.count = 0
    pending.elements.removeAll(keepingCapacity: true)
  }

  public func removeRecord(for key: CacheKey) throws(SQLiteError) {
    try connection.withLock { connection throws(SQLiteError) in
      let delete = try connection.cachedStatement("DELETE FROM records WHERE \(floor.keyColumn) = ?")
      try delete.bind(key, at: 1)
      try delete.execute()
    }
  }

  /// One plain `DELETE ... LIKE`, `%`, `_` and `\` escaped as the layouts escape them.
  public func removeRecords(matching pattern: String) throws(SQLiteError) {
    guard !pattern.isEmpty else { return }
    try connection.withLock { connection throws(SQLiteError) in
      let delete = try connection.cachedStatement(floor.deleteMatchingSQL)
      try delete.bind(Connection.like(containing: pattern), at: 1)
      try delete.execute()
    }
  }

  public func clear() throws(SQLiteError) {
    try connection.withLock { connection throws(SQLiteError) in try connection.removeAllRecords() }
  }
}

/// What a ``LayoutFloorStore`` stands for: a layout's table in one journal and synchronous mode.
public struct LayoutFloor: Sendable, Hashable {
  public var layout: SQLiteNormalizedCache.Layout
  public var journal: SQLiteNormalizedCache.JournalMode
  public var synchronous: SQLiteNormalizedCache.Synchronous
  /// How the file is opened besides (memory map, page cache, mutex): its store's, so that a store
  /// opened as Apollo opens it is measured against a floor opened alike.
  public var memoryMapBytes: Int
  public var pageCacheKibibytes: Int
  public var mutex: SQLiteNormalizedCache.MutexMode

  public init(
    layout: SQLiteNormalizedCache.Layout, journal: SQLiteNormalizedCache.JournalMode, synchronous: SQLiteNormalizedCache.Synchronous,
    memoryMapBytes: Int = SQLiteNormalizedCache.Options().memoryMapBytes,
    pageCacheKibibytes: Int = SQLiteNormalizedCache.Options().pageCacheKibibytes, mutex: SQLiteNormalizedCache.MutexMode = .nomutex
  ) {
    self.layout = layout
    self.journal = journal
    self.synchronous = synchronous
    self.memoryMapBytes = memoryMapBytes
    self.pageCacheKibibytes = pageCacheKibibytes
    self.mutex = mutex
  }

  /// The floor's store label: `limit-apollo-delete-full`, followed by what is opened otherwise
  /// than by default: `limit-apollo-delete-full-mmap0-fullmutex`.
  public var label: String {
    let defaults = SQLiteNormalizedCache.Options()
    var label = "limit-\(layout)-\(journal.rawValue)-\(synchronous.rawValue)"
    if memoryMapBytes != defaults.memoryMapBytes { label += "-mmap\(memoryMapBytes)" }
    if pageCacheKibibytes != defaults.pageCacheKibibytes { label += "-cache\(pageCacheKibibytes)" }
    if mutex != defaults.mutex { label += "-\(mutex.rawValue)" }
    return label
  }

  /// Whether the layout keeps a row a field (``LayoutDescriptor/rowPerField``).
  var rowPerField: Bool { layout.descriptor.rowPerField }

  /// The layout's table, nothing else: no field-name table, no record rows.
  var schema: String { layout.descriptor.tableSchema }

  var keyColumn: String { layout.descriptor.keyColumn }
  /// The column of a row a record that holds its fields (``LayoutDescriptor/shape``); read only
  /// where the layout keeps a row a record.
  var dataColumn: String { layout.descriptor.dataColumn ?? "" }

  var selectSQL: String {
    rowPerField
      ? "SELECT field_name, position, int_value, string_value, child_key_value, custom_scalar_value FROM records WHERE cache_key = ?"
      : "SELECT \(dataColumn) FROM records WHERE key = ?"
  }

  var deleteMatchingSQL: String {
    rowPerField
      ? FieldRowStore.deleteMatchingSQL
      : "DELETE FROM records WHERE key LIKE ? ESCAPE '\\'"
  }
}
