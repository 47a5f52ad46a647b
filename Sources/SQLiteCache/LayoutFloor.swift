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
/// - A load is one prepared `SELECT` by key per key, rows turned back into a record's bytes.
/// - A pattern delete is one plain `DELETE ... LIKE` (in `rows`, of rows not a sub-record's).
///
/// The rows hold the bytes the record already has: its ``RecordCodec`` encoding as the `apollo`
/// layout's text and the `compact` layout's blob (the layouts write JSON, and numbers for field
/// names), each field's Int, String or other encoded value in the `rows` columns of its type (a
/// list as one value: the floor of a row per field, not per element). No dates, no record rows,
/// no field-name table.
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
    let connection = try Connection(path: path)
    var options = SQLiteNormalizedCache.Options(layout: floor.layout)
    options.journalMode = floor.journal
    options.synchronous = floor.synchronous
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
        if floor.layout == .rows { try writeRows(records, connection) } else { try writeRecords(records, connection) }
      }
    }
    return ChangedKeys()
  }

  private func writeRecords(_ records: [Record], _ connection: Connection) throws(SQLiteError) {
    let column = floor.dataColumn
    try connection.inBatches(
      records,
      sql: { rows in
        "INSERT INTO records(key, \(column)) VALUES \(Connection.placeholders(rows, "(?, ?)")) "
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

  /// One row a field: its Int in `int_value`, its String in `string_value`, any other value's
  /// encoding in `custom_scalar_value`.
  private func writeRows(_ records: [Record], _ connection: Connection) throws(SQLiteError) {
    var rows: [(record: Int, name: Range<Int>, value: Range<Int>)] = []
    for (index, record) in records.enumerated() {
      record.encodedFields.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let field = RecordCodec.readField(bytes, &offset)
          rows.append((index, field.name, field.value))
        }
      }
    }
    try connection.inBatches(rows, sql: RowStore.upsertSQL(rows:)) { statement, batch throws(SQLiteError) in
      for (index, row) in batch.enumerated() {
        let base = Int32(10 * index)
        let record = records[row.record]
        try statement.bind(record.key, at: base + 1)
        try record.encodedFields.withUnsafeBytes { bytes in Result { () throws(SQLiteError) in
          try statement.bindText(UnsafeRawBufferPointer(rebasing: bytes[row.name]), at: base + 2)
          try statement.bind(-1, at: base + 3)
          for column in Int32(4)...9 { try statement.bindNull(at: base + column) }
          var offset = row.value.lowerBound + 1
          switch bytes[row.value.lowerBound] {
          case RecordCodec.intTag:
            try statement.bind(Int64(ZigZag.decode(Varint.read(bytes, &offset))), at: base + 4)
          case RecordCodec.stringTag:
            let length = Int(Varint.read(bytes, &offset))
            try statement.bindText(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), at: base + 5)
          default:
            try statement.bindBlobNoCopy(UnsafeRawBufferPointer(rebasing: bytes[row.value]), at: base + 9)
          }
          try statement.bind(0, at: base + 10)
        } }.get()
      }
      try statement.execute()
    }
  }

  public func loadRecords(forKeys keys: [CacheKey]) throws(SQLiteError) -> [CacheKey: Record] {
    var records: [CacheKey: Record] = [:]
    for record in try loadRecordsInOrder(forKeys: keys) {
      if let record { records[record.key] = record }
    }
    return records
  }

  /// One prepared `SELECT` by key per key, in one read transaction when there are several.
  public func loadRecordsInOrder(forKeys keys: [CacheKey]) throws(SQLiteError) -> [Record?] {
    try connection.withLock { connection throws(SQLiteError) in
      let select = try connection.cachedStatement(floor.selectSQL)
      func load() throws(SQLiteError) -> [Record?] {
        var records: [Record?] = []
        records.reserveCapacity(keys.count)
        var fields: [UInt8] = []
        for key in keys {
          defer { select.reset() }
          try select.bind(key, at: 1)
          fields.removeAll(keepingCapacity: true)
          var found = false
          while try select.step() {
            found = true
            try append(select, to: &fields)
          }
          records.append(found ? Record(key: key, uncheckedEncodedFields: fields) : nil)
        }
        return records
      }
      return keys.count > 1 ? try connection.inTransaction(.deferred, load) : try load()
    }
  }

  /// A row's bytes onto the record's: the stored encoding, or one field made back from its row.
  private func append(_ row: Statement, to fields: inout [UInt8]) throws(SQLiteError) {
    guard floor.layout == .rows else {
      try row.withBytes(at: 0) { bytes throws(SQLiteError) in fields.append(contentsOf: bytes) }
      return
    }
    try row.withBytes(at: 0, asText: true) { name throws(SQLiteError) in
      Varint.append(UInt64(name.count), to: &fields)
      fields.append(contentsOf: name)
    }
    var value: [UInt8] = []
    if row.type(at: 1) == SQLITE_INTEGER {
      value.append(RecordCodec.intTag)
      Varint.append(ZigZag.encode(Int(row.int64(at: 1))), to: &value)
    } else if row.type(at: 2) == SQLITE_TEXT {
      try row.withBytes(at: 2, asText: true) { text throws(SQLiteError) in
        value.append(RecordCodec.stringTag)
        Varint.append(UInt64(text.count), to: &value)
        value.append(contentsOf: text)
      }
    } else {
      try row.withBytes(at: 3) { bytes throws(SQLiteError) in value.append(contentsOf: bytes) }
    }
    Varint.append(UInt64(value.count), to: &fields)
    fields.append(contentsOf: value)
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
  /// For `rows`: whether the table is `WITHOUT ROWID`, as the layout's default.
  public var withoutRowid: Bool
  public var journal: SQLiteNormalizedCache.JournalMode
  public var synchronous: SQLiteNormalizedCache.Synchronous

  public init(
    layout: SQLiteNormalizedCache.Layout, withoutRowid: Bool = true, journal: SQLiteNormalizedCache.JournalMode,
    synchronous: SQLiteNormalizedCache.Synchronous
  ) {
    self.layout = layout
    self.withoutRowid = layout == .rows ? withoutRowid : true
    self.journal = journal
    self.synchronous = synchronous
  }

  /// `apollo`, `compact`, `rows`, or `rows-rowid`, as stores' descriptions name them.
  public var layoutName: String { layout == .rows && !withoutRowid ? "rows-rowid" : layout.rawValue }

  /// The floor's store label: `limit-apollo-delete-full`.
  public var label: String { "limit-\(layoutName)-\(journal.rawValue)-\(synchronous.rawValue)" }

  /// The layout's table, nothing else: no field-name table, no record rows.
  var schema: String {
    switch layout {
    case .apollo: ApolloRecordFormat().schema
    case .compact: "CREATE TABLE records(key TEXT PRIMARY KEY NOT NULL, data BLOB NOT NULL) WITHOUT ROWID;"
    case .rows: RowStore.schema(withoutRowid: withoutRowid)
    }
  }

  var keyColumn: String { layout == .rows ? "cache_key" : "key" }
  var dataColumn: String { layout == .apollo ? "record" : "data" }

  var selectSQL: String {
    layout == .rows
      ? "SELECT field_name, int_value, string_value, custom_scalar_value FROM records WHERE cache_key = ?"
      : "SELECT \(dataColumn) FROM records WHERE key = ?"
  }

  var deleteMatchingSQL: String {
    layout == .rows
      ? RowStore.deleteMatchingSQL
      : "DELETE FROM records WHERE key LIKE ? ESCAPE '\\'"
  }
}
