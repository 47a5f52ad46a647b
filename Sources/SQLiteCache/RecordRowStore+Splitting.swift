@_spi(RecordBytes) import NormalizedCache

/// Large records of the compact layout, stored in chunks of 64 fields.
///
/// `QUERY_ROOT` gains a field for every root field with new arguments, and never loses one: some
/// thousands after thousands of generated responses. Kept whole, every merge that touched it
/// loaded, decoded, merged, encoded and wrote all of it again, so a merge cost more the longer the
/// store lived, in proportion to its root fields. A record of more than ``splitFieldCount`` fields is stored split:
///
/// ```sql
/// CREATE TABLE record_chunks(key TEXT NOT NULL, chunk INTEGER NOT NULL, data BLOB NOT NULL,
///   PRIMARY KEY(key, chunk)) WITHOUT ROWID;
/// CREATE TABLE record_fields(key TEXT NOT NULL, field INTEGER NOT NULL, position INTEGER NOT NULL,
///   PRIMARY KEY(key, field)) WITHOUT ROWID;
/// ```
/// - its row in `records` holds a marker: the byte 0x00 (never a field number), a varint of
///   its field count and, when the record has dates (docs/records.md#dates), the dates field's
///   value: the dates are kept apart from the chunks, so that a merge rewrites the chunks of the
///   fields it changed and the marker, not every chunk whose fields' dates moved;
/// - chunk c holds the fields at positions 64c ... 64c + 63 of the record's order, in the compact
///   encoding: the chunks joined in order are the record's `data`;
/// - `record_fields` gives each field's position by its number in `fields`.
///
/// A merge into a split record looks each incoming field's position up, compares its encoding
/// with the bytes in its chunk, and rewrites only the chunks that changed; a new field goes at the
/// end (the last chunk, or a new one). Its cost is that of the incoming fields, not of the record.
/// A load reads the record's chunks in order: one row per 64 fields, and the index is not read.
/// The two tables are made by the first merge that needs them: a file whose records all stay
/// small keeps the layout's first two tables alone (and its size: two empty tables take a page
/// each), and files written before split records existed open as they are.
extension RecordRowStore {
  /// Records with more fields than this are stored split.
  static let splitFieldCount = 64
  /// Fields per chunk of a split record.
  static let chunkFieldCount = 64

  static let splitTablesSQL = """
    CREATE TABLE IF NOT EXISTS record_chunks(key TEXT NOT NULL, chunk INTEGER NOT NULL, data BLOB NOT NULL,
      PRIMARY KEY(key, chunk)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS record_fields(key TEXT NOT NULL, field INTEGER NOT NULL, position INTEGER NOT NULL,
      PRIMARY KEY(key, field)) WITHOUT ROWID;
    """

  /// Whether the file has the tables of split records (made by the first merge that split one, by
  /// this connection or another).
  func hasSplitTables() throws(SQLiteError) -> Bool {
    guard splitsRecords else { return false }
    let statement = try connection.cachedStatement(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'record_chunks'")
    defer { statement.reset() }
    return try statement.step() && statement.int64(at: 0) > 0
  }

  /// The field count of a split record's marker, and where its dates are in it (empty without);
  /// nil for any other stored record.
  static func splitMarker(_ stored: UnsafeRawBufferPointer) -> (fieldCount: Int, dates: Range<Int>)? {
    guard stored.count >= 2, stored[0] == 0 else { return nil }
    var offset = 1
    guard let count = Varint.readChecked(stored, &offset) else { return nil }
    // The dates field's value, if any, checked when the record is decoded
    // (RecordCodec.checkedDates(ofValue:fieldCount:)).
    return (Int(count), offset..<stored.count)
  }

  /// A split record's marker: the byte 0x00, then its field count as a varint, then the value of
  /// its dates field if it has one.
  static func marker(fieldCount: Int, dates: [UInt8] = []) -> [UInt8] {
    var bytes: [UInt8] = [0]
    Varint.append(UInt64(fieldCount), to: &bytes)
    return bytes + dates
  }

  /// The fields of a split record (its chunks joined, in the stored form, decoded), with the dates
  /// field its marker keeps put back in front.
  static func joined(fields: [UInt8], dates: [UInt8]) -> [UInt8] {
    guard !dates.isEmpty else { return fields }
    var joined: [UInt8] = [0]
    Varint.append(UInt64(dates.count), to: &joined)
    return joined + dates + fields
  }

  /// Whether a record of these fields (in ``RecordCodec``'s encoding) is to be stored split.
  func shouldSplit(_ fields: [UInt8]) -> Bool {
    // A field takes at least 3 bytes: name length, a name of at least one byte, value length.
    guard splitsRecords, fields.count > Self.splitFieldCount * 3 else { return false }
    return fields.withUnsafeBytes { bytes in
      var offset = 0
      var count = 0
      while offset < bytes.count {
        _ = RecordCodec.readField(bytes, &offset)
        count += 1
        if count > Self.splitFieldCount { return true }
      }
      return false
    }
  }

  /// The stored (compact) bytes of a split record: its chunks joined in order.
  func loadSplit(_ key: CacheKey) throws(SQLiteError) -> [UInt8] {
    let statement = try connection.cachedStatement("SELECT data FROM record_chunks WHERE key = ? ORDER BY chunk")
    defer { statement.reset() }
    try statement.bind(key, at: 1)
    var stored: [UInt8] = []
    while try statement.step() {
      try statement.withBytes(at: 0, asText: false) { stored.append(contentsOf: $0) }
    }
    return stored
  }

  /// Writes a record split: its marker in `records` (inserted, or replacing the whole record
  /// stored there), its chunks and its fields' positions. Returns its stored bytes: key, marker
  /// and chunks.
  mutating func writeSplit(_ record: Record, replacing: Bool) throws(SQLiteError) -> Int {
    // In the merge's transaction: rolled back with it.
    try connection.execute(Self.splitTablesSQL)
    try removeSplitRows(of: record.key)
    let fields = try encodedFields(of: record)
    let dates = record.encodedFields.withUnsafeBytes { [UInt8]($0[RecordDates.valueRange($0)]) }
    let position = try connection.cachedStatement("INSERT INTO record_fields(key, field, position) VALUES (?, ?, ?)")
    for (index, field) in fields.enumerated() {
      try position.bind(record.key, at: 1)
      try position.bind(Int64(field.id), at: 2)
      try position.bind(Int64(index), at: 3)
      try position.execute()
    }
    var storedBytes = record.key.utf8.count + Self.marker(fieldCount: fields.count, dates: dates).count
    for chunk in 0..<(fields.count + Self.chunkFieldCount - 1) / Self.chunkFieldCount {
      let range = chunk * Self.chunkFieldCount..<min(fields.count, (chunk + 1) * Self.chunkFieldCount)
      let data = fields[range].flatMap(\.data)
      storedBytes += data.count
      try writeChunk(chunk, of: record.key, data: data, exists: false)
    }
    try writeMarker(Self.marker(fieldCount: fields.count, dates: dates), of: record.key, exists: replacing)
    return storedBytes
  }

  /// Merges a record into the split record stored under its key (`fieldCount` fields, `dates` the
  /// value of its dates field, empty without), rewriting only the chunks that changed, and the
  /// marker when the count or the dates did (each field written takes its date, its value changed
  /// or not: docs/records.md#dates).
  /// - Returns: the names of the changed fields, and how many stored bytes the record grew by.
  mutating func mergeIntoSplit(
    _ record: Record, fieldCount: Int, dates: [UInt8]
  ) throws(SQLiteError) -> (changed: [String], bytes: Int) {
    var chunks = ChunkEdits(
      key: record.key,
      lookup: try connection.cachedStatement("SELECT position FROM record_fields WHERE key = ? AND field = ?"),
      insertPosition: try connection.cachedStatement("INSERT INTO record_fields(key, field, position) VALUES (?, ?, ?)"))
    var count = fieldCount
    var changed: [String] = []
    var merged: SplitDates
    do {
      merged = try SplitDates(stored: dates, fieldCount: fieldCount, incoming: record)
    } catch {
      throw format.corruption("a split record's marker with malformed dates (\(error.problem) at byte \(error.offset))", key: record.key)
    }
    for (index, (name, id, data)) in try encodedFields(of: record).enumerated() {
      if let position = try position(ofField: id, in: chunks) {
        guard (0..<count).contains(position) else {
          throw format.corruption("field \(id) at position \(position) of a record of \(count) fields", key: record.key)
        }
        if try replaceField(id, at: position, with: data, in: &chunks) { changed.append(name) }
        merged.write(index, at: position)
      } else {
        try appendField(id, data, at: count, in: &chunks)
        merged.write(index, at: count)
        count += 1
        changed.append(name)
      }
    }
    var growth = 0
    for chunk in chunks.changed.sorted() {
      let edited = chunks.loaded[chunk]!
      growth += edited.data.count - (chunks.storedLengths[chunk] ?? 0)
      try writeChunk(chunk, of: record.key, data: edited.data, exists: edited.stored)
    }
    let newDates = merged.encoded
    if count != fieldCount || newDates != dates {
      let marker = Self.marker(fieldCount: count, dates: newDates)
      growth += marker.count - Self.marker(fieldCount: fieldCount, dates: dates).count
      try writeMarker(marker, of: record.key, exists: true)
    }
    return (changed, growth)
  }

  /// The dates of a split record through a merge: those its marker keeps (all 0 for a record
  /// without, when the incoming one has some), each field the incoming record writes taking its
  /// date. Nothing at all when neither has dates.
  private struct SplitDates {
    let isDated: Bool
    var dates: [Int]
    let incoming: [Int]

    /// - Throws: the encoding's error when the marker's dates, bytes from the file, are malformed.
    init(stored: [UInt8], fieldCount: Int, incoming record: Record) throws(RecordCodec.EncodingError) {
      isDated = !stored.isEmpty || record.isDated
      dates =
        stored.isEmpty
        ? (isDated ? Array(repeating: 0, count: fieldCount) : [])
        : try stored.withUnsafeBytes { bytes in
          Result { () throws(RecordCodec.EncodingError) in try RecordCodec.checkedDates(ofValue: bytes, fieldCount: fieldCount) }
        }.get()
      incoming = isDated ? record.encodedFields.withUnsafeBytes { RecordDates.dates($0) } : []
    }

    /// The incoming record's field `index` written at `position` (past the end: a new field).
    mutating func write(_ index: Int, at position: Int) {
      guard isDated else { return }
      if position == dates.count { dates.append(0) }
      dates[position] = incoming[index]
    }

    /// The dates field's value for the marker; empty without dates.
    var encoded: [UInt8] { isDated ? RecordDates.encodedValue(dates) : [] }
  }

  /// The chunks of one split record a merge has read and changed, held until it writes them.
  private struct ChunkEdits {
    let key: CacheKey
    /// The statements looking up and adding fields' positions, prepared once a merge.
    let lookup: Statement
    let insertPosition: Statement
    /// Each chunk read or begun: its bytes, and whether it has a row yet.
    var loaded: [Int: (data: [UInt8], stored: Bool)] = [:]
    /// The lengths of the chunks as they were stored, for the growth.
    var storedLengths: [Int: Int] = [:]
    var changed: Set<Int> = []
  }

  /// Where the field numbered `id` is in the record's order; nil when the record lacks it.
  private func position(ofField id: Int, in chunks: ChunkEdits) throws(SQLiteError) -> Int? {
    let lookup = chunks.lookup
    defer { lookup.reset() }
    try lookup.bind(chunks.key, at: 1)
    try lookup.bind(Int64(id), at: 2)
    return try lookup.step() ? Int(lookup.int64(at: 0)) : nil
  }

  /// A chunk's bytes as the merge has them: read from its row the first time (unless it is new).
  private func chunk(_ chunk: Int, in chunks: inout ChunkEdits, isNew: Bool = false) throws(SQLiteError) -> [UInt8] {
    if let known = chunks.loaded[chunk] { return known.data }
    if isNew {
      chunks.loaded[chunk] = ([], false)
      return []
    }
    let data = try loadChunk(chunk, of: chunks.key)
    chunks.loaded[chunk] = (data, true)
    chunks.storedLengths[chunk] = data.count
    return data
  }

  /// Puts a field's new encoding in place of its old one; false when they are equal.
  private func replaceField(_ id: Int, at position: Int, with data: [UInt8], in chunks: inout ChunkEdits) throws(SQLiteError) -> Bool {
    let index = position / Self.chunkFieldCount
    var bytes = try chunk(index, in: &chunks)
    let range = try fieldRange(id, in: bytes, key: chunks.key)
    if bytes[range].elementsEqual(data) { return false }
    // Taken out of the table while it changes, so that it is changed in place.
    chunks.loaded[index]!.data = []
    bytes.replaceSubrange(range, with: data)
    chunks.loaded[index]!.data = bytes
    chunks.changed.insert(index)
    return true
  }

  /// A field the record did not have: numbered at the end of its order, in the last chunk or a new one.
  private func appendField(_ id: Int, _ data: [UInt8], at position: Int, in chunks: inout ChunkEdits) throws(SQLiteError) {
    let insertPosition = chunks.insertPosition
    try insertPosition.bind(chunks.key, at: 1)
    try insertPosition.bind(Int64(id), at: 2)
    try insertPosition.bind(Int64(position), at: 3)
    try insertPosition.execute()
    let index = position / Self.chunkFieldCount
    var bytes = try chunk(index, in: &chunks, isNew: position % Self.chunkFieldCount == 0)
    chunks.loaded[index]!.data = []
    bytes.append(contentsOf: data)
    chunks.loaded[index]!.data = bytes
    chunks.changed.insert(index)
  }

  /// Deletes the chunks and positions of one key (none unless it was split).
  func removeSplitRows(of key: CacheKey) throws(SQLiteError) {
    for table in ["record_chunks", "record_fields"] {
      let statement = try connection.cachedStatement("DELETE FROM \(table) WHERE key = ?")
      try statement.bind(key, at: 1)
      try statement.execute()
    }
  }

  private func loadChunk(_ chunk: Int, of key: CacheKey) throws(SQLiteError) -> [UInt8] {
    let statement = try connection.cachedStatement("SELECT data FROM record_chunks WHERE key = ? AND chunk = ?")
    defer { statement.reset() }
    try statement.bind(key, at: 1)
    try statement.bind(Int64(chunk), at: 2)
    guard try statement.step() else { throw format.corruption("a missing chunk \(chunk)", key: key) }
    return try statement.withBytes(at: 0, asText: false) { [UInt8]($0) }
  }

  /// Where the field numbered `id` is in a chunk: its number and value.
  private func fieldRange(_ id: Int, in chunk: [UInt8], key: CacheKey) throws(SQLiteError) -> Range<Int> {
    let range = chunk.withUnsafeBytes { bytes -> Range<Int>? in
      var offset = 0
      while offset < bytes.count {
        let start = offset
        guard let number = Varint.readChecked(bytes, &offset), EncodedValue.skip(bytes, &offset) else { return nil }
        if number == UInt64(id) { return start..<offset }
      }
      return nil
    }
    guard let range else { throw format.corruption("field \(id) missing from its chunk", key: key) }
    return range
  }

  private func writeChunk(_ chunk: Int, of key: CacheKey, data: [UInt8], exists: Bool) throws(SQLiteError) {
    let statement = try connection.cachedStatement(
      exists
        ? "UPDATE record_chunks SET data = ? WHERE key = ? AND chunk = ?"
        : "INSERT INTO record_chunks(data, key, chunk) VALUES (?, ?, ?)")
    try Self.withBytes(of: data) { data throws(SQLiteError) in
      defer { statement.clearBindings() }
      try statement.bindBlobNoCopy(data, at: 1)
      try statement.bind(key, at: 2)
      try statement.bind(Int64(chunk), at: 3)
      try statement.execute()
    }
  }

  private func writeMarker(_ marker: [UInt8], of key: CacheKey, exists: Bool) throws(SQLiteError) {
    let statement = try connection.cachedStatement(
      exists ? "UPDATE records SET data = ? WHERE key = ?" : "INSERT INTO records(data, key) VALUES (?, ?)")
    try Self.withBytes(of: marker) { marker throws(SQLiteError) in
      defer { statement.clearBindings() }
      try statement.bindBlobNoCopy(marker, at: 1)
      try statement.bind(key, at: 2)
      try statement.execute()
    }
  }

  /// Each field of a record encoded alone in the stored form, with its name and number; the dates
  /// field not among them (the marker keeps it).
  private mutating func encodedFields(of record: Record) throws(SQLiteError) -> [(name: String, id: Int, data: [UInt8])] {
    var result: [(name: String, id: Int, data: [UInt8])] = []
    try Self.withBytes(of: record.encodedFields) { fields throws(SQLiteError) in
      var offset = RecordDates.fieldsStart(fields)
      while offset < fields.count {
        let span = RecordCodec.readField(fields, &offset)
        try format.encode(UnsafeRawBufferPointer(rebasing: fields[span.entry]), connection: connection) {
          data throws(SQLiteError) in
          var start = 0
          let id = Int(Varint.readChecked(data, &start) ?? 0)
          let name = String(decoding: UnsafeRawBufferPointer(rebasing: fields[span.name]), as: UTF8.self)
          result.append((name, id, [UInt8](data)))
        }
      }
    }
    return result
  }

  /// `withUnsafeBytes` for a body that throws ``SQLiteError`` (the standard one rethrows `any Error`).
  static func withBytes<Result>(of bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(SQLiteError) -> Result)
    throws(SQLiteError) -> Result
  {
    try bytes.withUnsafeBytes { bytes in Swift.Result { () throws(SQLiteError) in try body(bytes) } }.get()
  }
}
