import NormalizedCache
import Testing

@testable import SQLiteCache

/// The layouts' floors (docs/metrics.md#layout-floors): each layout's table, written and read with
/// the SQL it needs and nothing else, must still hold what it is given.
@Suite("The SQLite layouts' floors")
struct LayoutFloorTests {
  static let floors = [
    LayoutFloor(layout: .apollo, journal: .delete, synchronous: .full),
    LayoutFloor(layout: .compact, journal: .wal, synchronous: .normal),
    LayoutFloor(layout: .rows, journal: .delete, synchronous: .full),
    LayoutFloor(layout: .rowsRowid, journal: .wal, synchronous: .normal),
  ]

  @Test("a floor gives back what it was given, replaces a record whole, and removes by pattern", arguments: floors)
  func roundTrip(_ floor: LayoutFloor) throws {
    let directory = try TemporaryDirectory()
    let store = try LayoutFloorStore(path: directory.path("floor.sqlite"), floor: floor)
    // Lists a row an element in `rows`: of Strings, of references, empty, and a list in a list (one value).
    let user = Record(
      key: "User_1",
      [
        "name": "Ada", "age": 36, "tags": ["a", "b"], "friend": .reference("User_2"), "nothing": .null,
        "friends": [.reference("User_3"), .reference("User_4"), .null], "none": [], "grid": [[1, 2], [], ["x"]], "zero": 0,
      ])
    let other = Record(key: "Other_1", ["n": -5, "ok": true, "score": 2.5])
    try store.merge(records: RecordSet(records: [user, other]))
    #expect(try store.loadRecords(forKeys: ["User_1", "Other_1", "missing"]) == ["User_1": user, "Other_1": other])
    // Written whole: a record merged again is what the last merge gave (a floor does not merge fields).
    let renamed = Record(key: "User_1", ["name": "Grace"])
    try store.merge(records: RecordSet(records: [renamed]))
    if floor.rowPerField {
      // One row per field: the rows of fields not written again stay, as upserts leave them.
      #expect(try store.loadRecords(forKeys: ["User_1"])["User_1"]?["name"] == "Grace")
    } else {
      #expect(try store.loadRecords(forKeys: ["User_1"])["User_1"] == renamed)
    }
    try store.removeRecords(matching: "user_")
    #expect(try store.loadRecords(forKeys: ["User_1", "Other_1"]).keys.sorted() == ["Other_1"])
    try store.removeRecord(for: "Other_1")
    #expect(try store.loadRecords(forKeys: ["Other_1"]).isEmpty)
  }

  @Test("a projected load of a floor: in rows the fields asked alone, in the blob layouts the whole record", arguments: floors)
  func projectedLoad(_ floor: LayoutFloor) throws {
    let directory = try TemporaryDirectory()
    let store = try LayoutFloorStore(path: directory.path("floor.sqlite"), floor: floor)
    let list = Record(key: "List:0", ["title": "a list", "items": [.reference("Item:0"), .reference("Item:1")], "size": 2])
    let other = Record(key: "List:1", ["title": "b", "items": [], "size": 0])
    try store.merge(records: RecordSet(records: [list, other]))
    let projection = FieldProjection(sets: [FieldSet(["items", "absent"])], setIndices: [0, 0, 0])
    let loaded = try store.withConsistentRead { snapshot in
      var lent = LentRecords()
      try snapshot.lendRecords(forKeys: ["List:0", "missing", "List:1"], projection: projection, to: &lent)
      return try (0..<lent.count).map { position -> Record? in
        guard let bytes = lent[position] else { return nil }
        return try Record(key: "x", encodedFields: Array(bytes))  // checked: the floor made well-formed bytes
      }
    }
    #expect(loaded.count == 3 && loaded[1] == nil)
    if floor.rowPerField {
      #expect(loaded[0] == Record(key: "x", ["items": [.reference("Item:0"), .reference("Item:1")]]))
      #expect(loaded[2] == Record(key: "x", ["items": []]))
    } else {
      #expect(loaded[0]?.fieldCount == 3 && loaded[0]?["items"] == list["items"])
      #expect(loaded[2]?.fieldCount == 3 && loaded[2]?["items"] == [])
    }
  }

  @Test("a floor's label names its layout and modes")
  func labels() {
    #expect(
      Self.floors.map(\.label) == [
        "limit-apollo-delete-full", "limit-compact-wal-normal", "limit-rows-delete-full", "limit-rows-rowid-wal-normal",
      ])
  }

  @Test("SQLite's syncs are counted: a rollback-journal merge at synchronous FULL syncs three times, a read none")
  func syncCounts() throws {
    #expect(SQLiteIO.install())
    let directory = try TemporaryDirectory()
    var options = SQLiteNormalizedCache.Options(layout: .compact)
    options.journalMode = .delete
    options.synchronous = .full
    let cache = try SQLiteNormalizedCache(path: directory.path("c.sqlite"), options: options)
    // The journal synced twice (its pages, then its header) and the database once
    // (sqlite.org/atomiccommit.html, 3.7 to 3.11). The counts are this thread's: other tests'
    // connections, on other threads, do not move them.
    var before = SQLiteIO.counts
    try cache.merge(records: RecordSet(records: [Record(key: "A", ["x": 1])]))
    let merge = SQLiteIO.counts - before
    #expect(merge.syncs == 3)
    // The journal: its header and the page's original; the database: the page.
    #expect(merge.writes >= 3)
    before = SQLiteIO.counts
    _ = try cache.loadRecords(forKeys: ["A"])
    #expect((SQLiteIO.counts - before).syncs == 0 && (SQLiteIO.counts - before).writes == 0)
  }
}
