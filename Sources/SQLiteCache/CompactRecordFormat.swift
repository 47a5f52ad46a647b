import CSQLite
@_spi(RecordBytes) import NormalizedCache

/// The `compact` layout: the project's own, tuned for the speed of merges and loads and for the
/// size of the file.
///
/// ```sql
/// CREATE TABLE records(key TEXT PRIMARY KEY NOT NULL, data BLOB NOT NULL) WITHOUT ROWID;
/// CREATE TABLE fields(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
/// ```
/// - `WITHOUT ROWID` keeps each record in the leaf of one B-tree ordered by key, so the key is
///   stored once and a load is one descent (a rowid table with a `UNIQUE` key stores the key
///   twice and descends two trees). See [WITHOUT ROWID](https://www.sqlite.org/withoutrowid.html).
/// - `data` is ``RecordCodec``'s encoding with three changes: a field's name becomes its number in
///   `fields` (a varint, one byte for the first 127 names); the value's length goes, since a
///   value's own tags delimit it; and a String or reference shorter than 32 bytes keeps its
///   length in its tag byte (``RecordCodec/shortStringTag``, ``RecordCodec/shortReferenceTag``):
///   ```
///   data  := field*
///   field := varint(fieldNumber) value        (value as RecordCodec encodes it, but for:)
///   value := 0x20|n UTF-8 String of n < 32 bytes | 0x40|n UTF-8 reference key of n < 32 bytes | ...
///   ```
///   The benchmark's records of ten fields (`related(first:3)` among them) shrink from 195 to
///   122 bytes, while turning them back into ``RecordCodec`` bytes on load is one pass of copying
///   (no parsing into values). A number means one name for the life of the file: numbers are
///   given in order and never reused, not even by `clear()`.
/// - The names are held in memory (``FieldNameTable``). A merge that meets a new name first
///   reads the names other connections may have added, then numbers it and writes it to
///   `fields` in the merge's own transaction, and forgets it if the transaction rolls back. A
///   load that meets an unknown number reads the names added since, once.
/// - Merges write rows sorted by key, so that a batch fills B-tree pages in order.
/// - A record of more than 64 fields is stored in chunks of 64 fields, its `records` row a marker
///   (a leading 0x00, which no field number is): see `RecordRowStore+Splitting.swift`.
///
/// Measured by `Workloads/store-records.json` (100,000 of its ten-field records, WAL, synchronous
/// NORMAL; `results/store-records.csv`): 187 database bytes per record after a checkpoint,
/// against 395 for the apollo layout, as the store-level table of docs/guide-how-it-works.md has them.
struct CompactRecordFormat: RecordFormat {
  var layout: SQLiteNormalizedCache.Layout { .compact }
  var schema: String {
    """
    CREATE TABLE records(key TEXT PRIMARY KEY NOT NULL, data BLOB NOT NULL) WITHOUT ROWID;
    CREATE TABLE fields(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    """
  }
  var dataColumn: String { "data" }
  var loadOneSQL: String { "SELECT data FROM records WHERE key = ?" }
  var loadManySQL: String {
    "SELECT wanted.key, records.data FROM json_each(?) AS wanted CROSS JOIN records ON records.key = wanted.value"
  }
  var updateSQL: String { "UPDATE records SET data = ? WHERE key = ?" }
  var storesText: Bool { false }

  private(set) var names = FieldNameTable()
  /// The numbers of the fields of the record encoded last, in order.
  private var recentIDs: [Int] = []

  mutating func load(from connection: Connection) throws(SQLiteError) {
    let changes = names.changes
    names = FieldNameTable()
    names.changes = changes + 1
    try refresh(from: connection)
  }

  /// Reads the names numbered after the last one known, in order.
  mutating func refresh(from connection: Connection) throws(SQLiteError) {
    let statement = try connection.cachedStatement("SELECT id, name FROM fields WHERE id > ? ORDER BY id")
    defer { statement.reset() }
    try statement.bind(Int64(names.count), at: 1)
    while try statement.step() {
      let id = statement.int64(at: 0)
      guard id == Int64(names.count + 1) else {
        throw SQLiteError(
          resultCode: SQLITE_CORRUPT, message: "field numbers in \(connection.path) are not 1, 2, 3, ... (found \(id))",
          sql: statement.sql)
      }
      try statement.withBytes(at: 1, asText: true) { _ = names.insert($0) }
    }
    if !connection.isInTransaction { names.mark() }
  }

  mutating func willBeginTransaction() {
    names.mark()
  }

  mutating func didRollBack() {
    names.rollBack()
    recentIDs = []
  }

  /// Encodes into a scratch buffer, on the stack for all but large records, and lends it out.
  mutating func encode(
    _ fields: UnsafeRawBufferPointer, connection: Connection,
    _ body: (UnsafeRawBufferPointer) throws(SQLiteError) -> Void
  ) throws(SQLiteError) {
    // A field of n value bytes takes at least n + 2 bytes (name and value lengths) and is stored
    // in at most n + 5 (its number, up to five bytes): at most 3 bytes more, for at most one
    // field every 3 bytes.
    let bound = fields.count * 2 + 8
    try withUnsafeTemporaryAllocation(byteCount: bound, alignment: 1) { scratch throws(SQLiteError) in
      let output = scratch.baseAddress!
      var count = 0
      var offset = 0
      var index = 0
      while offset < fields.count {
        // field := varint(nameLength) name varint(valueLength) value; the name with its length
        // is spelled exactly as the table's arena spells it.
        let nameStart = offset
        let nameLength = Int(Varint.read(fields, &offset))
        let name = UnsafeRawBufferPointer(rebasing: fields[offset..<offset + nameLength])
        offset += nameLength
        let prefixedName = UnsafeRawBufferPointer(rebasing: fields[nameStart..<offset])
        let valueLength = Int(Varint.read(fields, &offset))
        // Records of one type list the same fields in the same order: try the previous
        // record's number at this place before hashing.
        let id: Int
        if index < recentIDs.count, names.entry(recentIDs[index], equals: prefixedName) {
          id = recentIDs[index]
        } else {
          if let known = names.id(of: name) {
            id = known
          } else {
            id = try newName(name, connection: connection)
          }
          if index < recentIDs.count { recentIDs[index] = id } else { recentIDs.append(id) }
        }
        index += 1
        count += Varint.write(UInt64(id), to: output + count)
        let valueEnd = offset + valueLength
        EncodedValue.compact(fields, &offset, into: output, &count)
        precondition(offset == valueEnd, "a RecordCodec value longer than its length")
      }
      try body(UnsafeRawBufferPointer(start: output, count: count))
    }
  }

  /// The dates field as ``encode(_:connection:_:)`` writes it first of a record's fields: its
  /// name's number, then its value.
  mutating func storedDates(_ datesField: [UInt8], connection: Connection) throws(SQLiteError) -> [UInt8] {
    var stored: [UInt8] = []
    try datesField.withUnsafeBytes { field in
      Result { () throws(SQLiteError) in try encode(field, connection: connection) { stored = Array($0) } }
    }.get()
    return stored
  }

  /// The number of a name the table in memory does not have: another connection may have given
  /// it one (the caller's transaction holds the write lock, so the table cannot change under
  /// it); else the next number, written to `fields`.
  private mutating func newName(_ name: UnsafeRawBufferPointer, connection: Connection) throws(SQLiteError) -> Int {
    try refresh(from: connection)
    if let id = names.id(of: name) { return id }
    let id = names.insert(name)
    let statement = try connection.cachedStatement("INSERT INTO fields(id, name) VALUES (?, ?)")
    try statement.bind(Int64(id), at: 1)
    try statement.bindText(name, at: 2)
    try statement.execute()
    return id
  }

  /// One pass into a scratch buffer on the stack, checking the stored bytes as it goes, then one
  /// copy into an array of exactly the right size. A record too large for the stack buffer takes
  /// a heap buffer large enough for any record of its stored size.
  func decode(_ stored: UnsafeRawBufferPointer, key: CacheKey) throws(SQLiteError) -> [UInt8]? {
    try decode(stored, key: key, keeping: KeepsAll())?.fields
  }

  /// As ``decode(_:key:)``, the fields the filter does not keep skipped by their numbers.
  func decode(_ stored: UnsafeRawBufferPointer, key: CacheKey, keeping filter: FieldFilter) throws(SQLiteError) -> [UInt8]? {
    guard let (fields, skipped) = try decode(stored, key: key, keeping: filter) else { return nil }
    return try filter.settled(fields, skippedAny: skipped) { () throws(SQLiteError) in
      // Whole, to project its dates again: a name unknown here was refreshed by the first pass.
      try decode(stored, key: key) ?? []
    }
  }

  var filterGeneration: Int { names.changes }

  /// The names of `set` by their numbers here.
  func filter(for set: FieldSet) -> FieldFilter {
    var kept = [Bool](repeating: false, count: names.count + 1)
    for (utf8, _) in set.sorted {
      if let id = utf8.withUnsafeBytes({ names.id(of: $0) }) { kept[id] = true }
    }
    // The dates field, whose name is empty, always.
    if let id = names.id(of: UnsafeRawBufferPointer(start: nil, count: 0)) { kept[id] = true }
    return FieldFilter(set: set, keptNumbers: kept)
  }

  /// The decoding through `keeper`, and whether it skipped a field.
  private func decode<Keeper: NumberKeeper>(
    _ stored: UnsafeRawBufferPointer, key: CacheKey, keeping keeper: Keeper
  ) throws(SQLiteError) -> (fields: [UInt8], skipped: Bool)? {
    if stored.isEmpty { return ([], false) }
    var decoded = withUnsafeTemporaryAllocation(byteCount: Self.stackScratchBytes, alignment: 1) {
      decode(stored, into: $0, keeper)
    }
    if decoded == nil {
      // Each field grows by at most its name and a 10-byte length, and takes at least 2 stored
      // bytes; a value grows by at most twice its stored size (a short empty string: 1 byte to 2).
      let bound = 2 * stored.count + (stored.count / 2 + 1) * (names.longestEntry + 10)
      decoded = withUnsafeTemporaryAllocation(byteCount: bound, alignment: 1) { decode(stored, into: $0, keeper) }
    }
    switch decoded {
    case .decoded(let fields, let skipped): return (fields, skipped)
    case .unknownName: return nil
    case .corrupt, nil: throw corruption("a malformed value", key: key)
    case .corruptDates: throw corruption("a dates field that is not the first field or not a record's dates", key: key)
    }
  }

  /// Small enough for `withUnsafeTemporaryAllocation` to take from the stack.
  private static let stackScratchBytes = 1024

  private enum Decoded {
    case decoded([UInt8], skipped: Bool)
    case unknownName
    case corrupt
    /// A field of empty name (a record's dates) that is not the first, or whose value is not a
    /// record's dates (docs/records.md#dates).
    case corruptDates
  }

  /// Decodes into `scratch`, the fields `keeper` does not keep skipped; nil when it does not fit.
  private func decode<Keeper: NumberKeeper>(
    _ stored: UnsafeRawBufferPointer, into scratch: UnsafeMutableRawBufferPointer, _ keeper: Keeper
  ) -> Decoded? {
    names.arena.withUnsafeBytes { arena in
      names.starts.withUnsafeBufferPointer { starts in
        let output = scratch.baseAddress!
        var count = 0
        var offset = 0
        var skipped = false
        // Fields met, kept or not, and whether the first was the dates field (the empty name,
        // which only the first field may have; its value is checked once they are counted).
        var fields = 0
        var dated = false
        while offset < stored.count {
          guard let id = Varint.readChecked(stored, &offset), id >= 1 else { return .corrupt }
          guard id < UInt64(starts.count) else { return .unknownName }
          fields += 1
          if !keeper.keeps(number: Int(id)) {
            guard EncodedValue.skip(stored, &offset) else { return .corrupt }
            skipped = true
            continue
          }
          let name = starts[Int(id) - 1]..<starts[Int(id)]
          // An entry of one byte is the empty name's length prefix, 0: the dates field.
          if name.count == 1, arena[name.lowerBound] == 0 {
            guard fields == 1 else { return .corruptDates }
            dated = true
          }
          guard scratch.count - count >= name.count + 1 else { return nil }
          (output + count).copyMemory(from: arena.baseAddress! + name.lowerBound, byteCount: name.count)
          count += name.count
          // One byte for the value's length, widened below in the rare case it needs more.
          let lengthAt = count
          count += 1
          let valueStart = offset
          guard EncodedValue.expand(stored, &offset, into: output, &count, capacity: scratch.count) else {
            // Malformed, or out of room: tell them apart by checking the value alone.
            var probe = valueStart
            return EncodedValue.skip(stored, &probe) ? nil : .corrupt
          }
          guard LengthPrefix.close(at: lengthAt, in: output, end: &count, capacity: scratch.count)
          else { return nil }
        }
        let decoded = UnsafeRawBufferPointer(start: output, count: count)
        if dated, !Self.datesAreValid(decoded, fieldCount: fields - 1) { return .corruptDates }
        return .decoded([UInt8](decoded), skipped: skipped)
      }
    }
  }
}

extension CompactRecordFormat {
  /// Whether the dates field that starts `decoded` (kept first whatever the filter: `0`, the
  /// value's length, the value) is a record's dates of `fieldCount` fields. Out of line: inside
  /// the decoding's loop it kept the value walk of skipped fields from being inlined there.
  @inline(never)
  fileprivate static func datesAreValid(_ decoded: UnsafeRawBufferPointer, fieldCount: Int) -> Bool {
    let value = UnsafeRawBufferPointer(rebasing: decoded[RecordDates.valueRange(decoded)])
    return (try? RecordCodec.checkDates(ofValue: value, fieldCount: fieldCount)) != nil
  }
}

/// Which fields a compact decoding keeps, by number: all (a whole load, where the check compiles
/// away), or a projected load's (``FieldFilter``).
protocol NumberKeeper {
  func keeps(number: Int) -> Bool
}

/// A whole load's: every field.
struct KeepsAll: NumberKeeper {
  @inline(__always) func keeps(number: Int) -> Bool { true }
}

extension FieldFilter: NumberKeeper {}
