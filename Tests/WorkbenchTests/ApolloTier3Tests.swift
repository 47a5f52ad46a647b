import Foundation
import NormalizedCache
import Results
import SQLiteCache
import Testing

@testable import Workbench

/// Apollo iOS's Tier-3 scenarios (docs/apollo.md#tier-3): the records, each scenario's SQL in every
/// layout against a computation of its own on a small store, and the rows a run gives. No timings
/// are judged.
@Suite("Apollo's Tier-3 scenarios")
struct ApolloTier3Tests {
  static let layouts: [SQLiteNormalizedCache.Layout] = [.compact, .apollo, .rows, .rowsRowid, .rowsOrdered]
  static let count = 2_000

  @Test("the records: ten fields each, ten types a tenth each, keys Type:N, values from the seed")
  func records() throws {
    let records = ApolloTier3Records.chunk(0..<40, seed: 42).records
    #expect(
      records.map(\.key).prefix(11) == [
        "Planet:0", "Person:0", "Starship:0", "Species:0", "Vehicle:0", "Film:0", "Droid:0", "Moon:0", "Comet:0", "Galaxy:0", "Planet:1",
      ])
    #expect(records.allSatisfy { $0.fields.map(\.key) == ApolloTier3Records.fields })
    #expect(records[12]["__typename"] == "Starship" && records[12]["id"] == "1" && records[12]["name"] == "Starship 1")
    guard case .int? = records[0]["mass"] else {
      Issue.record("mass is not an Int")
      return
    }
    #expect(Dictionary(grouping: records, by: { $0["__typename"] }).values.allSatisfy { $0.count == 4 })
    // One seed, one store; another seed, other values under the same keys.
    #expect(ApolloTier3Records.chunk(0..<40, seed: 42).records == records)
    let other = ApolloTier3Records.chunk(0..<40, seed: 7).records
    #expect(other.map(\.key) == records.map(\.key) && other.map { $0["mass"] } != records.map { $0["mass"] })
    // A chunk is the records of its indices, however the build splits them.
    #expect(ApolloTier3Records.chunk(20..<40, seed: 42).records == Array(records[20...]))
    let planets = ApolloTier3Records.keys(ofType: "Planet", count: 40)
    #expect(planets == ["Planet:0", "Planet:1", "Planet:2", "Planet:3"])
    #expect(ApolloTier3Records.keys(ofType: "Planet", count: Self.count).count == Self.count / 10)
    #expect(ApolloTier3Records.keys(ofType: "Planet", count: 120).prefix(4) == ["Planet:0", "Planet:1", "Planet:10", "Planet:11"])
  }

  /// A store of ``count`` records of `layout` in `directory`, built as a run builds it.
  static func build(_ layout: SQLiteNormalizedCache.Layout, in directory: URL) throws -> (SQLiteNormalizedCache, [Record]) {
    var options = SQLiteNormalizedCache.Options(layout: layout)
    options.journalMode = .delete
    options.synchronous = .off
    let store = try SQLiteNormalizedCache(path: directory.appendingPathComponent("\(layout).sqlite").path, options: options)
    let records = ApolloTier3Records.chunk(0..<count, seed: 3).records
    for start in stride(from: 0, to: count, by: 500) {
      try store.merge(records: RecordSet(records: Array(records[start..<start + 500])))
    }
    return (store, records)
  }

  static func mass(_ record: Record) -> Int {
    if case .int(let mass)? = record["mass"] { return mass }
    return -1
  }

  /// SQLite's `LIKE` on ASCII, for the patterns' shapes: `%` at either end or both.
  static func like(_ key: String, _ pattern: String) -> Bool {
    let key = key.lowercased()
    var body = Substring(pattern.lowercased())
    let anyBefore = body.hasPrefix("%")
    let anyAfter = body.hasSuffix("%")
    body = body.drop { $0 == "%" }
    while body.hasSuffix("%") { body = body.dropLast() }
    switch (anyBefore, anyAfter) {
    case (true, true): return key.contains(body)
    case (true, false): return key.hasSuffix(body)
    case (false, true): return key.hasPrefix(body)
    case (false, false): return key == body
    }
  }

  @Test("each scenario's SQL gives what the records say, in every layout", arguments: layouts)
  func operations(_ layout: SQLiteNormalizedCache.Layout) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tier3-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let (store, records) = try Self.build(layout, in: directory)
    let operations = try Tier3Operations(path: store.path, layout: layout, journal: .delete, synchronous: .off)
    #expect(try operations.recordCount() == Self.count)

    // Exact key: a record's rows (its ten fields' in the row layouts, some with a record row), or its one row.
    let rows = try operations.selectByKey("Person:7")
    #expect(layout == .compact || layout == .apollo ? rows == 1 : rows >= 10)
    #expect(try operations.selectByKey("Person:999999") == 0)

    // LIKE: the keys of the records that match, each once.
    // (The run's suffix, `%777`, matches none of 2,000 records; `%7` does.)
    for pattern in ApolloTier3Records.likePatterns.map(\.pattern) + ["%7", "person:1%"] {
      let expected = records.map(\.key).filter { Self.like($0, pattern) }.sorted()
      #expect(pattern == "%777" || !expected.isEmpty, "\(pattern)")
      #expect(try operations.keys(like: pattern).sorted() == expected, "\(pattern)")
    }

    // Type + selection set: the type's records in key order, the selection's four fields each
    // (compact: the blob, one value, SQL cannot read it).
    let planets = records.filter { $0["__typename"] == "Planet" }.map(\.key).sorted()
    let selection = try operations.selection(keys: planets, fields: ApolloTier3Records.selection)
    #expect(selection.keys == planets)
    #expect(selection.values == planets.count * (layout == .compact ? 1 : ApolloTier3Records.selection.count))

    // The CTE sort: the type's records by mass, then key; compact's in Swift through the store.
    let byMass = records.filter { $0["__typename"] == "Planet" }
      .sorted { (Self.mass($0), $0.key) < (Self.mass($1), $1.key) }.map(\.key)
    if layout == .compact {
      #expect(try operations.sortedByField(type: "Planet", field: "mass") == nil)
    } else {
      #expect(try operations.sortedByField(type: "Planet", field: "mass") == byMass)
    }
    #expect(try ApolloTier3Benchmark.sortInSwift(store, keys: planets) == byMass)

    // Insert: one more record, then none after the delete; update: that field alone.
    if layout == .compact {
      #expect(try !operations.insertRecord(key: "Inserted:0", field: "mass", value: 1))
      #expect(try operations.updateField(key: "Person:7", field: "mass", to: 1) == nil)
      return
    }
    #expect(try operations.insertRecord(key: "Inserted:0", field: "mass", value: 1))
    #expect(try operations.recordCount() == Self.count + 1)
    try operations.deleteRecord(key: "Inserted:0")
    #expect(try operations.recordCount() == Self.count)
    let before = try #require(records.first { $0.key == "Person:7" })
    #expect(try operations.updateField(key: "Person:7", field: "mass", to: 1_234_567) == 1)
    let after = try #require(try store.loadRecords(forKeys: ["Person:7"])["Person:7"])
    #expect(after["mass"] == .int(1_234_567))
    // (Apollo's rows keep no order of fields: compared as sets.)
    #expect(Set(after.fields.map(\.key)) == Set(before.fields.map(\.key)))
    for field in ApolloTier3Records.fields where field != "mass" { #expect(after[field] == before[field], "\(field)") }
    #expect(try operations.recordCount() == Self.count)
  }

  @Test("a run gives every store each scenario's row and its build, the floors the SQL they have, the gates beside")
  func rows() throws {
    let result = try runWorkload(
      #"""
      {"name": "t", "seed": 1, "apolloTier3": {"records": 300}, "limits": "layouts", "repetitions": 2, "warmup": 1,
       "stores": [{"kind": "sqlite", "layout": "compact", "journal": "delete", "synchronous": "full", "label": "c"},
                  {"kind": "sqlite", "layout": "apollo", "journal": "delete", "synchronous": "full", "label": "a"},
                  {"kind": "sqlite", "layout": "rows", "journal": "wal", "synchronous": "normal", "label": "r"}]}
      """#)
    let all = Metric.tier3Scenarios.map(\.name)
    // A floor times the SQL of what its store does through its own code; compact's has no insert or update.
    let floor = ["insert_one_field", "select_exact_key", "select_type_selection_set_ordered", "update_composite_key"]
    let compactFloor = ["select_exact_key", "select_type_selection_set_ordered"]
    let expected: [String: [String]] = [
      "c": all, "a": all, "r": all, "limit-compact-delete-full": compactFloor, "limit-apollo-delete-full": floor,
      "limit-rows-wal-normal": floor,
    ]
    for (store, scenarios) in expected {
      let rows = result.rows.filter { $0.key.store == store && $0.key.phase == .tier3 }
      #expect(rows.filter { $0.unit == .ns && $0.key.metric != "build_store" }.map(\.key.metric) == scenarios, "\(store)")
      #expect(rows.filter { $0.unit == .ns && $0.key.metric != "build_store" }.allSatisfy { $0.summary.n == 2 }, "\(store)")
      let built = rows.first { $0.key.metric == "store_records" }
      #expect(store.hasPrefix("limit-") ? built == nil : built?.summary.p50 == 300, "\(store)")
    }
    #expect(result.table.contains("iPhone 16 Pro"))
    #expect(result.table.contains("select_exact_key"))
    #expect(result.table.contains("< 0.200 ms"))
  }

  @Test("keep: each store's file is left in the directory as <label>.sqlite, holding the records built, replaced by the next run")
  func keep() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tier3-keep-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for records in [300, 200] {
      _ = try runWorkload(
        #"""
        {"name": "t", "seed": 1, "apolloTier3": {"records": \#(records), "keep": "\#(directory)/files"}, "repetitions": 1, "warmup": 0,
         "stores": [{"kind": "sqlite", "layout": "rows", "journal": "delete", "synchronous": "full", "label": "r"},
                    {"kind": "sqlite", "layout": "compact", "journal": "delete", "synchronous": "full", "label": "c"}]}
        """#)
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/files").sorted() == ["c.sqlite", "r.sqlite"])
      for (label, layout) in [("r", SQLiteNormalizedCache.Layout.rows), ("c", .compact)] {
        let operations = try Tier3Operations(
          path: "\(directory)/files/\(label).sqlite", layout: layout, journal: .delete, synchronous: .full)
        #expect(try operations.recordCount() == records, "\(label)")
      }
      let store = try SQLiteNormalizedCache(path: directory + "/files/r.sqlite", options: .init(layout: .rows))
      let planet = try #require(try store.loadRecords(forKeys: ["Planet:0"])["Planet:0"])
      #expect(Set(planet.fields.map(\.key)) == Set(ApolloTier3Records.fields))
    }
    // With sizes, a file a size, its name carrying the size.
    _ = try runWorkload(
      #"""
      {"name": "t", "seed": 1, "apolloTier3": {"sizes": [[100, 5], [200, 10]], "keep": "\#(directory)/sized"}, "repetitions": 1, "warmup": 0,
       "stores": [{"kind": "sqlite", "layout": "compact", "journal": "delete", "synchronous": "full", "label": "c"}]}
      """#)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/sized").sorted() == ["c-100x5.sqlite", "c-200x10.sqlite"])
    for records in [100, 200] {
      let operations = try Tier3Operations(
        path: "\(directory)/sized/c-\(records)x\(records == 100 ? 5 : 10).sqlite", layout: .compact, journal: .delete, synchronous: .full)
      #expect(try operations.recordCount() == records)
    }
  }
}
