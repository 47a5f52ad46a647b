@_spi(RecordBytes) import NormalizedCache

/// The `apollo` layout: Apollo iOS's own table (`ApolloSQLiteDatabase`), each record's fields as
/// JSON text (``RecordJSON``), so measurements compare with Apollo's store and its files open
/// here.
///
/// ```sql
/// CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, record TEXT);
/// ```
struct ApolloRecordFormat: RecordFormat {
  var layout: SQLiteNormalizedCache.Layout { .apollo }
  var schema: String {
    "CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, record TEXT);"
  }
  var dataColumn: String { "record" }
  var loadOneSQL: String { "SELECT record FROM records WHERE key = ?" }
  var loadManySQL: String {
    "SELECT wanted.key, records.record FROM json_each(?) AS wanted CROSS JOIN records ON records.key = wanted.value"
  }
  var updateSQL: String { "UPDATE records SET record = ? WHERE key = ?" }
  var storesText: Bool { true }

  mutating func load(from connection: Connection) throws(SQLiteError) {}

  /// Reused from record to record: writing JSON then allocates only when a record is the largest
  /// yet. A class: a copy of the format makes its own on its first write.
  private var writer = RecordWriter(capacity: 256)

  mutating func encode(
    _ fields: UnsafeRawBufferPointer, connection: Connection,
    _ body: (UnsafeRawBufferPointer) throws(SQLiteError) -> Void
  ) throws(SQLiteError) {
    if !isKnownUniquelyReferenced(&writer) { writer = RecordWriter(capacity: 256) }
    writer.truncate(to: 0)
    RecordJSON.append(fields: fields, to: &writer)
    try body(writer.bytes(from: 0))
  }

  /// The JSON object's first member, the dates field's (`{"":1764460800`, without the brace
  /// that closes a record of no other field): ``RecordJSON`` writes members in the order of the
  /// fields, the dates field first, and the rest after a comma, without spaces. A dated record's
  /// text is always this writer's (Apollo's own JSON has no dates).
  func storedDates(_ datesField: [UInt8], connection: Connection) -> [UInt8] {
    var json: [UInt8] = []
    datesField.withUnsafeBytes { RecordJSON.append(fields: $0, to: &json) }
    json.removeLast()
    return json
  }

  func decode(_ stored: UnsafeRawBufferPointer, key: CacheKey) throws(SQLiteError) -> [UInt8]? {
    // Apollo's column allows NULL, which reads as no bytes: a record without fields.
    if stored.isEmpty { return [] }
    do {
      return try RecordJSON.fields(fromJSON: stored)
    } catch {
      throw corruption("malformed JSON (\(error.message) at byte \(error.offset))", key: key)
    }
  }

  /// As ``decode(_:key:)``, each member the filter does not keep parsed and left out.
  func decode(_ stored: UnsafeRawBufferPointer, key: CacheKey, keeping filter: FieldFilter) throws(SQLiteError) -> [UInt8]? {
    if stored.isEmpty { return [] }
    let decoded: (fields: [UInt8], skipped: Bool)
    do {
      decoded = try RecordJSON.fields(fromJSON: stored, keeping: filter.set)
    } catch {
      throw corruption("malformed JSON (\(error.message) at byte \(error.offset))", key: key)
    }
    return try filter.settled(decoded.fields, skippedAny: decoded.skipped) { () throws(SQLiteError) in
      try decode(stored, key: key) ?? []
    }
  }

  mutating func refresh(from connection: Connection) throws(SQLiteError) {}
  mutating func willBeginTransaction() {}
  mutating func didRollBack() {}
}
