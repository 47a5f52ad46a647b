import Testing

@_spi(RecordBytes) @testable import NormalizedCache

/// The in-memory store's projected load (docs/stores.md#projected-loads; ADR 0007's amendment of
/// 2026-07-16): only the fields asked, a record whose fields are all asked lent in place.
@Suite("The in-memory store's projected load")
struct InMemoryProjectedLoadTests {
  /// The records a projected load of `keys` lends, each set given per key.
  static func projected(_ store: InMemoryNormalizedCache, _ keys: [CacheKey], _ sets: [[String]]) throws -> [Record?] {
    let fieldSets = sets.map { FieldSet($0) }
    let projection = FieldProjection(sets: fieldSets, setIndices: Array(fieldSets.indices))
    var lent = LentRecords()
    return try store.withConsistentRead { snapshot in
      try snapshot.lendRecords(forKeys: keys, projection: projection, to: &lent)
      return (0..<lent.count).map { position in lent[position].map { Record(key: keys[position], uncheckedEncodedFields: Array($0)) } }
    }
  }

  @Test("a field not asked is not lent, an asked one the record lacks is missing, the record's order kept")
  func onlyFieldsAsked() throws {
    let store = InMemoryNormalizedCache()
    try store.merge(
      records: RecordSet(records: [
        Record(key: "Book:1", ["__typename": "Book", "title": "Dune", "year": 1965, "tags": ["sf"]]),
        Record(key: "Book:2", ["__typename": "Book", "title": "Emma"]),
      ]))
    let lent = try Self.projected(
      store, ["Book:1", "Missing:1", "Book:2", "Book:1"], [["tags", "title", "isbn"], ["title"], ["isbn"], []])
    #expect(lent[0] == Record(key: "Book:1", ["title": "Dune", "tags": ["sf"]]))
    #expect(lent[1] == nil)
    // A record none of whose fields are asked is there, with no fields.
    #expect(lent[2] == Record(key: "Book:2"))
    #expect(lent[3] == Record(key: "Book:1"))
  }

  @Test("a record whose fields are all asked is lent in place, the store's own bytes; another is cut")
  func inPlaceWhenAllAsked() throws {
    let store = InMemoryNormalizedCache()
    try store.merge(records: RecordSet(records: [Record(key: "Node:0", ["__typename": "Case0", "a": 1, "b": 2])]))
    let projection = FieldProjection(sets: [FieldSet(["__typename", "a", "b", "c"]), FieldSet(["a", "b"])], setIndices: [0, 1])
    let (whole, projected) = try store.withConsistentRead { snapshot in
      var lent = LentRecords()
      try snapshot.lendRecords(forKeys: ["Node:0"], to: &lent)
      let whole = lent[0]!.baseAddress
      try snapshot.lendRecords(forKeys: ["Node:0", "Node:0"], projection: projection, to: &lent)
      return (whole, [lent[0]!.baseAddress, lent[1]!.baseAddress])
    }
    #expect(projected[0] == whole)
    #expect(projected[1] != whole)
  }

  @Test("dated records keep each lent field's date: one date for all as it is, several rewritten for the fields kept")
  func datedRecords() throws {
    let store = InMemoryNormalizedCache()
    try store.merge(
      records: RecordSet(records: [
        Record(key: "Book:1", writtenAt: 100, ["title": "Dune", "year": 1965, "pages": 412]),
        Record(key: "Book:2", writtenAt: 50, ["title": "Emma", "year": 1815]),
      ]))
    try store.merge(records: RecordSet(records: [Record(key: "Book:1", writtenAt: 300, ["pages": 413])]))
    let lent = try Self.projected(store, ["Book:1", "Book:2", "Book:1"], [["pages", "year"], ["year"], ["title"]])
    #expect(lent[0]?.fieldKeys == ["year", "pages"] && lent[0]?["year"] == 1965 && lent[0]?["pages"] == 413)
    #expect(lent[0]?.writtenAt("year") == 100 && lent[0]?.writtenAt("pages") == 300 && lent[0]?.writtenAt("title") == nil)
    #expect(lent[1] == Record(key: "Book:2", writtenAt: 50, ["year": 1815]))
    #expect(lent[2] == Record(key: "Book:1", writtenAt: 100, ["title": "Dune"]))
  }

  @Test("appendProjection: nothing appended for a record whose fields are all asked, else the kept fields in order")
  func appendProjection() {
    let record = Record(key: "K", ["a": 1, "b": "x", "c": [1, 2]])
    var out: [UInt8] = [9]
    let all = record.encodedFields.withUnsafeBytes {
      RecordDates.appendProjection(of: $0, keeping: FieldSet(["c", "b", "a", "z"]), to: &out)
    }
    #expect(!all && out == [9])
    let cut = record.encodedFields.withUnsafeBytes { RecordDates.appendProjection(of: $0, keeping: FieldSet(["c", "a"]), to: &out) }
    #expect(cut && Array(out.dropFirst()) == Record(key: "K", ["a": 1, "c": [1, 2]]).encodedFields)
  }

  /// A bounded store that lends whole and one that lends projected, through the same steps.
  static func boundedPair(_ budget: CacheBudget) -> (whole: InMemoryNormalizedCache, projected: InMemoryNormalizedCache) {
    (InMemoryNormalizedCache(budget: budget), InMemoryNormalizedCache(budget: budget))
  }

  static func item(_ index: Int) -> Record { Record(key: "Item:\(index)", ["n": .int(index), "s": "some text of the item"]) }

  @Test("a bounded store's projected load touches what it lends as a whole load does: the same evictions, the same accounting")
  func boundedTouchAndAccounting() throws {
    let each = Self.item(0).key.utf8.count + Self.item(0).encodedFields.count + InMemoryNormalizedCache.recordOverheadBytes
    // Room for three records: the fourth evicts the least recently used.
    let (whole, projected) = Self.boundedPair(CacheBudget(maxSizeBytes: 3 * each + each / 2, evictTo: 1, policy: .lru))
    for store in [whole, projected] { try store.merge(records: RecordSet(records: (0..<3).map(Self.item))) }
    _ = whole.loadRecordsInOrder(forKeys: ["Item:0"])
    let lent = try Self.projected(projected, ["Item:0"], [["n"]])
    #expect(lent == [Record(key: "Item:0", ["n": 0])])
    #expect(whole.accountedBytes() == projected.accountedBytes())
    for store in [whole, projected] { try store.merge(records: RecordSet(records: [Self.item(3)])) }
    #expect(Set(whole.allKeys()) == ["Item:0", "Item:2", "Item:3"])
    #expect(Set(projected.allKeys()) == Set(whole.allKeys()))
    #expect(whole.accountedBytes() == projected.accountedBytes())
    #expect(whole.takeEvictions().evicted == projected.takeEvictions().evicted)
  }

  @Test("a bounded store's projected load does not lend an expired record, and removes it as a whole load does")
  func boundedExpiry() throws {
    let (whole, projected) = Self.boundedPair(CacheBudget(maxSizeBytes: 1 << 20, policy: .lru, expireAfterSteps: 2))
    for store in [whole, projected] {
      try store.merge(records: RecordSet(records: [Self.item(0)]))
      store.advanceClock(to: 5)
    }
    #expect(whole.loadRecordsInOrder(forKeys: ["Item:0"]) == [nil])
    #expect(try Self.projected(projected, ["Item:0"], [["n"]]) == [nil])
    #expect(whole.allKeys() == [] && projected.allKeys() == [])
    #expect(whole.accountedBytes() == projected.accountedBytes())
  }
}
