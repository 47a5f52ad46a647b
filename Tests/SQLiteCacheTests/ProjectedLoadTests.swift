import GraphQLLanguage
import NormalizedCache
import Testing

@testable import SQLiteCache

/// Projected loads (docs/stores.md#projected-loads): a read that names the fields it needs gets
/// the same data, and every store lends only those fields.
@Suite("Projected loads")
struct ProjectedLoadTests {
  static let records = RecordSet(records: [
    Record(key: "QUERY_ROOT", ["book": .reference("Book:1")]),
    Record(
      key: "Book:1",
      ["__typename": "Book", "id": "1", "title": "Dune", "year": 1965, "tags": ["sf", "classic"], "editions": [[1, 2], []]]),
  ])

  static func read(_ store: any NormalizedCache, projecting: Bool) throws -> ReadResult {
    let document = try ExecutableDocument(parsing: [Source(name: "q.graphql", text: "{ book { __typename title } }")])
    var reader = CacheReader(cache: store, useFieldPolicies: false, projectsFields: projecting)
    reader.countsLoads = true
    return try reader.read(try OperationPlan(document: document, schema: .empty))
  }

  @Test("the same data either way; every store lends only the fields selected", arguments: StoreConfiguration.all)
  func projected(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    try store.merge(records: Self.records)
    let whole = try Self.read(store, projecting: false)
    let projected = try Self.read(store, projecting: true)
    #expect(projected.data == whole.data)
    #expect(whole.data == ["book": ["__typename": "Book", "title": "Dune"]])
    // QUERY_ROOT's one field, then Book:1's six, or the two selected.
    #expect(whole.statistics.fieldsLoaded == 7)
    #expect(projected.statistics.fieldsLoaded == 3)
    #expect(projected.statistics.bytesLoaded < whole.statistics.bytesLoaded)
  }

  @Test("a projected rows load of a dated record keeps the dates of the fields it lends")
  func datedRows() throws {
    let store = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: .rows))
    try store.merge(records: RecordSet(records: [Record(key: "Book:1", writtenAt: 100, ["title": "Dune", "year": 1965])]))
    try store.merge(records: RecordSet(records: [Record(key: "Book:1", writtenAt: 200, ["year": 1966])]))
    let set = FieldSet(["year"])
    var lent = LentRecords()
    try store.withConsistentRead { snapshot in
      try snapshot.lendRecords(forKeys: ["Book:1"], projection: FieldProjection(sets: [set], setIndices: [0]), to: &lent)
    }
    let bytes = try #require(lent[0])
    let record = Record(key: "Book:1", uncheckedEncodedFields: Array(bytes))
    #expect(record == Record(key: "Book:1", writtenAt: 200, ["year": 1966]))
    #expect(record.writtenAt("year") == 200)
    #expect(record["title"] == nil)
  }
  /// The fields of `key` a projected load of `set` lends.
  static func projectedFields(_ store: SQLiteNormalizedCache, _ key: CacheKey, _ set: FieldSet) throws -> [String] {
    try store.withConsistentRead { snapshot in
      var lent = LentRecords()
      try snapshot.lendRecords(forKeys: [key], projection: FieldProjection(sets: [set], setIndices: [0]), to: &lent)
      return lent[0].map { Record(key: key, uncheckedEncodedFields: Array($0)).fields.map(\.key).sorted() } ?? []
    }
  }

  @Test(
    "a set asked again after a merge named new fields lends them: the compact layout's kept filter is made again",
    arguments: [
      SQLiteNormalizedCache.Layout.compact, .apollo, .rows,
    ])
  func filterAfterNewNames(_ layout: SQLiteNormalizedCache.Layout) throws {
    let store = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: layout))
    try store.merge(records: RecordSet(records: [Record(key: "Book:1", ["title": "Dune", "year": 1965])]))
    let set = FieldSet(["title", "isbn", "pages"])
    #expect(try Self.projectedFields(store, "Book:1", set) == ["title"])
    // `isbn` and `pages` get numbers now, after the filter of `set` was made without them.
    try store.merge(records: RecordSet(records: [Record(key: "Book:1", ["isbn": "0441013597", "pages": 412, "blurb": "sand"])]))
    #expect(try Self.projectedFields(store, "Book:1", set) == ["isbn", "pages", "title"])
    #expect(try Self.projectedFields(store, "Book:1", FieldSet(["blurb"])) == ["blurb"])
  }

  @Test("a FieldSet finds exactly its names, among names that share a length, a first byte or a last byte")
  func fieldSetMembership() {
    var random = SystemRandomNumberGenerator()
    let alphabet = Array("ab_(:)0123456789xyz")
    for _ in 0..<200 {
      let names = (0..<Int.random(in: 1...40, using: &random)).map { _ in
        String((0..<Int.random(in: 1...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
      }
      let set = FieldSet(names)
      let expected = Set(names)
      for probe in names
        + (0..<60).map({ _ in String((0..<Int.random(in: 1...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! }) })
      {
        let found = Array(probe.utf8).withUnsafeBytes { set.contains($0) }
        #expect(found == expected.contains(probe), "\(probe) in \(names)")
        if let index = Array(probe.utf8).withUnsafeBytes({ set.index(of: $0) }) { #expect(set.fieldKeys[index] == probe) }
      }
    }
    #expect(!FieldSet(["a"]).contains(UnsafeRawBufferPointer(start: nil, count: 0)))
  }
}
