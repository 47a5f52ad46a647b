import NormalizedCache

extension FieldRowStore {
  /// The columns every load reads, after its first (the key's index among the load's keys):
  /// `field_name` is column 1, the value columns 3 to 8, `written_at` 9.
  static let loadColumns =
    "r.field_name, r.position, r.int_value, r.string_value, r.float_value, r.bool_value, r.child_key_value, "
    + "r.custom_scalar_value, r.written_at"

  /// A load of many keys (§7.2 of Apollo's plan: every row of each record, in the order of the
  /// primary key): the keys as one JSON array, each looked up in the primary key through
  /// [`json_each`](https://www.sqlite.org/json1.html#jeach), so that one prepared statement
  /// serves every count of keys and each row comes with its key's index.
  static let loadSQL =
    "SELECT wanted.key, \(loadColumns) FROM json_each(?1) AS wanted CROSS JOIN records AS r ON r.cache_key = wanted.value"

  /// One key (and a key holding U+0000, which `json_each` would cut short).
  static let loadOneSQL = "SELECT 0, \(loadColumns) FROM records AS r WHERE r.cache_key = ?1 ORDER BY r.field_name, r.position"

  /// The records of these keys in their order, nil where the store has none; with a projection,
  /// only the fields of each key's set that the record has, in the order of their names, with
  /// their dates (the rows of the others skipped as they come: rows filtered, as ADR 0007 has it
  /// after apollo-ios-dev #1050; a statement that looked each field up in the primary key, field
  /// by field, cost 1.6 times the whole load's instructions on calendar.json, typePolicy). At most 500 keys a statement, in one transaction when
  /// there are more.
  mutating func loadInOrder(_ keys: [CacheKey], projection: FieldProjection?) throws(SQLiteError) -> [Record?] {
    var recordRows: [Bool]? = nil
    return try loadInOrder(keys, projection: projection, recordRows: &recordRows)
  }

  /// The same; with `recordRows` an array (its elements replaced, its room kept), also whether
  /// each key's record has its record row (what a merge must keep true,
  /// ``RecordFields/needsRecordRow``).
  mutating func loadInOrder(
    _ keys: [CacheKey], projection: FieldProjection?, recordRows: inout [Bool]?
  ) throws(SQLiteError) -> [Record?] {
    var records = [Record?](repeating: nil, count: keys.count)
    if recordRows != nil {
      recordRows!.removeAll(keepingCapacity: true)
      recordRows!.append(contentsOf: repeatElement(false, count: keys.count))
    }
    guard !keys.isEmpty else { return records }
    if keys.count <= RecordRowStore.chunkSize || connection.isInTransaction {
      try load(keys, projection: projection, into: &records, recordRows: &recordRows)
    } else {
      try connection.inTransaction(.deferred) { () throws(SQLiteError) in
        try load(keys, projection: projection, into: &records, recordRows: &recordRows)
      }
    }
    return records
  }

  private mutating func load(
    _ keys: [CacheKey], projection: FieldProjection?, into records: inout [Record?], recordRows: inout [Bool]?
  ) throws(SQLiteError) {
    guard let projection else {
      return try loadChunks(Array(keys.indices), of: keys, fields: nil, into: &records, recordRows: &recordRows)
    }
    for (setIndex, set) in projection.sets.enumerated() {
      let positions = keys.indices.filter { projection.setIndices[$0] == setIndex }
      try loadChunks(positions, of: keys, fields: set, into: &records, recordRows: &recordRows)
    }
  }

  /// The keys at `positions`, at most ``RecordRowStore/chunkSize`` a statement.
  private mutating func loadChunks(
    _ positions: [Int], of keys: [CacheKey], fields: FieldSet?, into records: inout [Record?], recordRows: inout [Bool]?
  ) throws(SQLiteError) {
    var start = 0
    while start < positions.count {
      let end = min(start + RecordRowStore.chunkSize, positions.count)
      try loadChunk(positions[start..<end], of: keys, fields: fields, into: &records, recordRows: &recordRows)
      start = end
    }
  }

  /// One statement for the chunk's keys that JSON can carry, one each for the others; a chunk of
  /// one key, projected or not, `WHERE cache_key = ?` alone (the JSON array and `json_each`
  /// around one key cost a projected single-key load of Apollo's Tier-2 scenario some 4,000
  /// instructions of 44,000).
  private mutating func loadChunk(
    _ positions: ArraySlice<Int>, of keys: [CacheKey], fields: FieldSet?, into records: inout [Record?],
    recordRows: inout [Bool]?
  ) throws(SQLiteError) {
    guard positions.count > 1 else {
      return try loadOne(positions.first!, of: keys, fields: fields, into: &records, recordRows: &recordRows)
    }
    // Reserved before the first byte, as RecordRowStore.loadMany does: the array grows once, not
    // once per doubling, and no literal's storage is made to be replaced.
    var json: [UInt8] = []
    json.reserveCapacity(positions.reduce(2) { $0 + keys[$1].utf8.count + 3 })
    json.append(UInt8(ascii: "["))
    var jsonKeys: [Int] = []
    jsonKeys.reserveCapacity(positions.count)
    var others: [Int] = []
    for position in positions {
      if !jsonKeys.isEmpty { json.append(UInt8(ascii: ",")) }
      if RecordJSON.appendKey(keys[position], to: &json) {
        jsonKeys.append(position)
      } else {
        if !jsonKeys.isEmpty { json.removeLast() }
        others.append(position)
      }
    }
    json.append(UInt8(ascii: "]"))
    if !jsonKeys.isEmpty {
      let statement = try connection.cachedStatement(Self.loadSQL)
      try Self.binding(statement, json) { () throws(SQLiteError) in
        try readRows(of: statement, keys: keys, positions: jsonKeys, keeping: fields, into: &records, recordRows: &recordRows)
      }
    }
    for position in others { try loadOne(position, of: keys, fields: fields, into: &records, recordRows: &recordRows) }
  }

  /// `WHERE cache_key = ?`: the key at `position`.
  private mutating func loadOne(
    _ position: Int, of keys: [CacheKey], fields: FieldSet?, into records: inout [Record?], recordRows: inout [Bool]?
  ) throws(SQLiteError) {
    let statement = try connection.cachedStatement(Self.loadOneSQL)
    defer { statement.reset() }
    try statement.bind(keys[position], at: 1)
    try readRows(of: statement, keys: keys, positions: [position], keeping: fields, into: &records, recordRows: &recordRows)
  }

  /// Runs `body` with the keys' JSON bound without a copy, then resets the statement and clears
  /// its bindings, while the array is still in place.
  private static func binding(
    _ statement: Statement, _ keys: [UInt8], _ body: () throws(SQLiteError) -> Void
  ) throws(SQLiteError) {
    try keys.withUnsafeBytes { keys in
      Result { () throws(SQLiteError) in
        defer {
          statement.reset()
          statement.clearBindings()
        }
        try statement.bindTextNoCopy(keys, at: 1)
        try body()
      }
    }.get()
  }

  /// Steps through the rows, each record's together, its key by its index among `positions`
  /// (column 0), each record found to its place. A key whose rows hold neither a record row nor a
  /// field's row has no record (a nested list's sub-record may share a key with none).
  private mutating func readRows(
    of statement: Statement, keys: [CacheKey], positions: [Int], keeping set: FieldSet?, into records: inout [Record?],
    recordRows: inout [Bool]?
  ) throws(SQLiteError) {
    let projected = set != nil
    var current = -1
    while try statement.step() {
      let index = Int(statement.int64(at: 0))
      if index != current {
        if current >= 0 { try finish(keys, positions[current], projected: projected, into: &records, recordRows: &recordRows) }
        current = index
        decoder.begin()
      }
      try decoder.add(statement, key: keys[positions[index]], connection: connection, keeping: set)
    }
    if current >= 0 { try finish(keys, positions[current], projected: projected, into: &records, recordRows: &recordRows) }
  }

  /// The record the decoder has read, to its key's place.
  @inline(__always)
  private mutating func finish(
    _ keys: [CacheKey], _ position: Int, projected: Bool, into records: inout [Record?], recordRows: inout [Bool]?
  ) throws(SQLiteError) {
    let key = keys[position]
    if let fields = try decoder.finish(key: key, projected: projected) {
      records[position] = Record(key: key, uncheckedEncodedFields: fields)
      if recordRows != nil { recordRows![position] = decoder.hasRecordRow }
    }
  }
}
