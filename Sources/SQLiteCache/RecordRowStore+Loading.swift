@_spi(RecordBytes) import NormalizedCache

extension RecordRowStore {
  /// The records of these keys in their order, nil where the store has none (the reader's load):
  /// placed by their position in `keys`, without hashing a key. With a projection, each record
  /// decoded without the fields its set does not name (docs/stores.md#projected-loads).
  mutating func loadInOrder(_ keys: [CacheKey], projection: FieldProjection?) throws(SQLiteError) -> [Record?] {
    var records = [Record?](repeating: nil, count: keys.count)
    let filters = projection.map { filterCache.filters(for: $0, in: format) }
    try load(keys, filters: filters) { position, key, fields, _ throws(SQLiteError) in
      records[position] = Record(key: key, uncheckedEncodedFields: fields)
    }
    return records
  }

  /// The most keys one statement looks up (docs/stores.md).
  static let chunkSize = 500

  /// Loads records, in ``RecordCodec``'s encoding, at most ``chunkSize`` keys per statement;
  /// keys the store does not have are skipped.
  ///
  /// A chunk of keys goes to SQLite as one JSON array, joined to `records` through
  /// [`json_each`](https://www.sqlite.org/json1.html#jeach):
  /// ```sql
  /// SELECT wanted.key, records.data FROM json_each(?) AS wanted CROSS JOIN records ON records.key = wanted.value
  /// ```
  /// `CROSS JOIN` makes SQLite walk the array and look each key up in the primary key. The usual
  /// `key IN (?, ?, ...)` costs more: SQLite first copies the list into a temporary B-tree, and it
  /// needs one prepared statement per list length. Measured on 100-key loads of the compact
  /// layout, the join runs some 2,500 fewer instructions per record (9,300 against 11,800). One
  /// statement serves every chunk size. A single key, and a key holding U+0000 (which `json_each`
  /// would cut short), use `WHERE key = ?` instead.
  ///
  /// Several chunks read in one transaction, so they see one state of the file.
  /// - Parameters:
  ///   - split: when given, called with the field count of each record stored split (see
  ///     ``splitFieldCount``) instead of loading its fields; else such a record is loaded whole.
  ///   - filters: a projected load's: each record decoded with its key's filter.
  ///   - found: called once for each record found (more than once for a key the caller repeats),
  ///     with its stored bytes.
  /// - Complexity: O(k log n) for k keys in a store of n records.
  mutating func load(
    _ keys: some Collection<CacheKey>, split: SplitFound? = nil, filters: LoadFilters? = nil,
    _ found: Found
  ) throws(SQLiteError) {
    guard !keys.isEmpty else { return }
    try withoutActuallyEscaping(found) { found throws(SQLiteError) in
      let reading = Reading(split: split, filters: filters, found: found)
      if keys.count <= Self.chunkSize || connection.isInTransaction {
        try loadChunks(keys, reading)
      } else {
        try connection.inTransaction(.deferred) { () throws(SQLiteError) in try loadChunks(keys, reading) }
      }
    }
  }

  /// What a load does with each row it reads: split records, projection, and the record found.
  private struct Reading {
    let split: SplitFound?
    let filters: LoadFilters?
    let found: Found
  }

  /// A split record found by a load: its position among the keys, its key, its field count, and
  /// the value of its dates field (empty without).
  typealias SplitFound = (Int, CacheKey, Int, [UInt8]) throws(SQLiteError) -> Void
  /// A record found by a load: its position among the keys, its key, its fields in
  /// ``RecordCodec``'s encoding, and its stored bytes (key and data column: what
  /// ``StoreAccounting`` counts).
  typealias Found = (Int, CacheKey, [UInt8], Int) throws(SQLiteError) -> Void

  private mutating func loadChunks(_ keys: some Collection<CacheKey>, _ reading: Reading) throws(SQLiteError) {
    var start = keys.startIndex
    var position = 0
    while start != keys.endIndex {
      let end = keys.index(start, offsetBy: Self.chunkSize, limitedBy: keys.endIndex) ?? keys.endIndex
      let chunk = keys[start..<end]
      if chunk.count == 1 {
        try loadOne(chunk.first!, at: position, reading)
      } else {
        try loadMany(chunk, from: position, reading)
      }
      position += chunk.count
      start = end
    }
  }

  /// `WHERE key = ?`: one key.
  private mutating func loadOne(_ key: CacheKey, at position: Int, _ reading: Reading) throws(SQLiteError) {
    let statement = try connection.cachedStatement(format.loadOneSQL)
    defer { statement.reset() }
    try statement.bind(key, at: 1)
    try readRows(of: statement, dataColumn: 0, key: { _ in (position, key) }, reading)
  }

  /// The statement of a batched load: the keys as one JSON array, joined to the table through
  /// `json_each`, each a search of the primary key (or of the apollo layout's unique index).
  static func batchLoadSQL(dataColumn: String) -> String {
    "SELECT wanted.key, records.\(dataColumn) FROM json_each(?) AS wanted CROSS JOIN records ON records.key = wanted.value"
  }

  /// `json_each`: many keys in one statement. A row comes back with the index of its key in the
  /// array, so the caller's own key strings go into the result, not new ones made from the row.
  private mutating func loadMany(
    _ keys: some Collection<CacheKey>, from firstPosition: Int, _ reading: Reading
  ) throws(SQLiteError) {
    // Reserved before the first byte: an array literal is an allocation of its own, which the
    // optimizer folds into the reservation in some builds and not in others.
    var json: [UInt8] = []
    json.reserveCapacity(keys.reduce(2) { $0 + $1.utf8.count + 3 })
    json.append(UInt8(ascii: "["))
    var jsonKeys: [(position: Int, key: CacheKey)] = []
    jsonKeys.reserveCapacity(keys.count)
    var keysWithNul: [(position: Int, key: CacheKey)] = []
    for (offset, key) in keys.enumerated() {
      if !jsonKeys.isEmpty { json.append(UInt8(ascii: ",")) }
      if RecordJSON.appendKey(key, to: &json) {
        jsonKeys.append((firstPosition + offset, key))
      } else {
        if !jsonKeys.isEmpty { json.removeLast() }
        keysWithNul.append((firstPosition + offset, key))
      }
    }
    json.append(UInt8(ascii: "]"))

    if !jsonKeys.isEmpty {
      let statement = try connection.cachedStatement(format.loadManySQL)
      defer {
        statement.reset()
        statement.clearBindings()
      }
      // Bound without a copy: the array outlives the statement's use of it (reset and cleared above).
      try json.withUnsafeBytes { json in
        Result { () throws(SQLiteError) in
          try statement.bindTextNoCopy(json, at: 1)
          try readRows(of: statement, dataColumn: 1, key: { jsonKeys[Int($0.int64(at: 0))] }, reading)
        }
      }.get()
    }
    for (position, key) in keysWithNul { try loadOne(key, at: position, reading) }
  }

  /// Steps through rows, decoding the record in `dataColumn` of each. A record that names a field
  /// this connection has not seen yet makes the format read what other connections added, once.
  private mutating func readRows(
    of statement: Statement, dataColumn: Int32, key keyOfRow: (Statement) -> (position: Int, key: CacheKey),
    _ reading: Reading
  ) throws(SQLiteError) {
    let storesText = format.storesText
    let splits = splitsRecords
    // The format as a local, which the closure below captures: capturing `self` copied the whole
    // store a row (a retain and a release of each of its references).
    var format = self.format
    while try statement.step() {
      let (position, key) = keyOfRow(statement)
      let filter = reading.filters?.filter(at: position)
      // nil: a name this connection does not know yet; a negative count: not split.
      var (fields, splitFieldCount, storedBytes, dates) = try statement.withBytes(at: dataColumn, asText: storesText) {
        bytes throws(SQLiteError) -> ([UInt8]?, Int, Int, [UInt8]) in
        if splits, let marker = Self.splitMarker(bytes) {
          return (nil, marker.fieldCount, bytes.count, [UInt8](bytes[marker.dates]))
        }
        return (try Self.decode(bytes, key: key, filter, format), -1, bytes.count, [])
      }
      storedBytes += key.utf8.count
      if splitFieldCount >= 0 {
        try readSplit(position, key, fieldCount: splitFieldCount, dates: dates, storedBytes: storedBytes, filter, reading)
        continue
      }
      if fields == nil {
        // Rare (another connection named a field): the format, shared with the local, is copied.
        try self.format.refresh(from: connection)
        format = self.format
        fields = try statement.withBytes(at: dataColumn, asText: storesText) { bytes throws(SQLiteError) in
          try Self.decode(bytes, key: key, filter, format)
        }
      }
      guard let fields else {
        throw format.corruption("an unknown field number", key: key)
      }
      try reading.found(position, key, fields, storedBytes)
    }
  }

  /// The format's decoding of a record, projected when the load has a filter for it.
  @inline(__always)
  private static func decode(
    _ stored: UnsafeRawBufferPointer, key: CacheKey, _ filter: FieldFilter?, _ format: any RecordFormat
  ) throws(SQLiteError) -> [UInt8]? {
    guard let filter else { return try format.decode(stored, key: key) }
    return try format.decode(stored, key: key, keeping: filter)
  }

  /// A record stored split: its field count to the caller that asked for it, else its chunks
  /// loaded and joined (projected when the load has a filter).
  private mutating func readSplit(
    _ position: Int, _ key: CacheKey, fieldCount: Int, dates: [UInt8], storedBytes: Int, _ filter: FieldFilter?,
    _ reading: Reading
  ) throws(SQLiteError) {
    if let split = reading.split { return try split(position, key, fieldCount, dates) }
    let stored = try loadSplit(key)
    let decoded = try Self.withBytes(of: stored) { stored throws(SQLiteError) in try decode(stored, key: key) }
    var fields = Self.joined(fields: decoded, dates: dates)
    if let filter { fields = fields.withUnsafeBytes { whole in RecordDates.projected(whole) { filter.keeps(name: $0) } } }
    try reading.found(position, key, fields, storedBytes + stored.count)
  }

  /// Decodes stored bytes held in memory, reading the names other connections added when they name one unknown here.
  private mutating func decode(_ stored: UnsafeRawBufferPointer, key: CacheKey) throws(SQLiteError) -> [UInt8] {
    if let fields = try format.decode(stored, key: key) { return fields }
    try format.refresh(from: connection)
    guard let fields = try format.decode(stored, key: key) else {
      throw format.corruption("an unknown field number", key: key)
    }
    return fields
  }
}
