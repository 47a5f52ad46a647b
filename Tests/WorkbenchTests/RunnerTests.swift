import Foundation
import GraphQLLanguage
import NormalizedCache
import Results
import SQLiteCache
import Testing
import Workloads

@testable import Workbench

/// Writes a workload file into a fresh directory, loads it, runs it quickly, and removes the directory.
func runWorkload(_ text: String) throws -> WorkloadResult {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let path = directory.appendingPathComponent("w.json").path
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  let info = RunInfo(runID: "test", timestamp: "2026-11-23T00:00:00Z", gitRev: "abc", host: "h")
  return try WorkloadRunner.run(Workload.load(path), options: RunOptions(progress: false), run: info)
}

private let smallGenerator = #"""
  {"name": "small", "seed": 3, "generator": {"responses": 6, "operations": 2, "depth": 2, "types": 4, "poolSize": 8},
   "stores": [{"kind": "memory"}, {"kind": "sqlite", "label": "sqlite"}],
   "repetitions": 2, "warmup": 1, "read": {"pointLookups": 10, "fieldPolicyLookups": 5}}
  """#

/// Allocation counts are process-wide and other suites run meanwhile, so these tests check what
/// does not depend on them; the end-to-end tests compare two runs' deterministic rows.
@Suite("The runner")
struct RunnerTests {
  @Test("a metric name means one thing: one phase, unit, direction and determinism across benchmarks")
  func oneDefinitionPerName() throws {
    let rows =
      try runWorkload(smallGenerator).rows
      + runWorkload(
        #"{"name": "records", "seed": 1, "storeRecords": {"count": 200, "batch": 50, "pointLoads": 20}, "repetitions": 1, "warmup": 0}"#
      ).rows
      + runWorkload(#"{"name": "tier2", "seed": 1, "apolloTier2": {}, "repetitions": 1, "warmup": 0}"#).rows
      + runWorkload(#"{"name": "lists", "seed": 1, "lists": {"sizes": [4]}, "repetitions": 1, "warmup": 0}"#).rows
    var definitions: [String: Set<String>] = [:]
    for row in rows {
      definitions["\(row.key.phase.rawValue)/\(row.key.metric)", default: []].insert(
        "\(row.unit.rawValue) \(row.better.rawValue) \(row.deterministic)")
    }
    #expect(definitions.values.allSatisfy { $0.count == 1 })
    #expect(definitions["lookup/point_lookup"] == ["ns lower false"])
  }

  @Test("parse is a phase of its own: every response's JSON parsed, timed, in every measured repetition")
  func parsePhase() throws {
    let rows = try runWorkload(smallGenerator).rows
    for store in ["memory", "sqlite"] {
      for keys in ["path", "typePolicy", "programmatic"] {
        let parse = try #require(rows.first { $0.key.store == store && $0.key.keys == keys && $0.key.phase == .parse })
        let write = try #require(
          rows.first { $0.key.store == store && $0.key.keys == keys && $0.key.phase == .write && $0.key.metric == "latency" })
        // 6 responses × 2 measured repetitions, as many as the writes.
        #expect(parse.key.metric == "latency" && parse.unit == .ns && parse.summary.n == 12)
        #expect(write.summary.n == 12)
        #expect(parse.summary.min > 0)
      }
    }
  }

  @Test("the footprint rows are the memory store's live bytes, or SQLite's database, WAL and heap")
  func footprintRows() throws {
    let rows = try runWorkload(smallGenerator).rows
    func names(_ store: String) -> [String] {
      rows.filter { $0.key.store == store && $0.key.keys == "typePolicy" && $0.key.phase == .footprint }.map(\.key.metric)
    }
    // accounted_bytes: what a budget would count (both stores account their bytes, bounded or not).
    #expect(names("memory") == ["live_bytes", "accounted_bytes", "bytes_per_record", "payload_bytes"])
    #expect(
      names("sqlite") == [
        "db_bytes", "wal_bytes", "sqlite_heap_bytes", "accounted_bytes", "db_bytes_checkpointed", "bytes_per_record_checkpointed",
        "bytes_per_record", "payload_bytes",
      ])
    let records = try #require(rows.first { $0.key.store == "memory" && $0.key.keys == "path" && $0.key.metric == "records" })
    let objects = try #require(rows.first { $0.key.store == "memory" && $0.key.keys == "path" && $0.key.metric == "objects" })
    // Path keys deduplicate nothing: one record per object.
    #expect(records.summary.p50 == objects.summary.p50)
  }
}

@Suite("Store footprints")
struct StoreFootprintTests {
  static let records = RecordSet(records: [
    Record(key: "Book:1", ["title": "Emma", "pages": 474]), Record(key: "Book:2", ["title": "Dune"]),
  ])

  @Test("the memory store reports the live bytes it is given, and its records and payload")
  func memory() throws {
    let store = InMemoryNormalizedCache()
    try store.merge(records: Self.records)
    let footprint = try #require(store.footprint(liveBytes: 1_000))
    #expect(footprint.recordCount == 2)
    #expect(footprint.storeBytes == 1_000)
    #expect(footprint.payloadBytes == store.statistics().payloadBytes)
    var samples = MetricSamples()
    samples.append(footprint)
    #expect(samples.metrics.map(\.name) == ["live_bytes", "bytes_per_record", "payload_bytes"])
    #expect(samples.metrics[0...1].map { samples[$0] } == [[1_000], [500]])
    #expect(try store.settledBytes() == nil)
  }

  @Test("the SQLite store reports its database with the WAL, and settles by a checkpoint")
  func sqlite() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("footprint-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SQLiteNormalizedCache(path: directory.appendingPathComponent("f.sqlite").path)
    try store.merge(records: Self.records)
    let statistics = try store.statistics()
    let footprint = try #require(try store.footprint(liveBytes: 1_000))
    #expect(statistics.walBytes > 0)
    #expect(footprint.storeBytes == statistics.databaseBytes + statistics.walBytes)
    #expect(footprint.details.map(\.metric) == ["db_bytes", "wal_bytes", "sqlite_heap_bytes"])
    let settled = try #require(try store.settledBytes())
    #expect(try store.statistics().walBytes == 0)
    #expect(settled == (try store.statistics().databaseBytes))
  }
}

@Suite("Load timer")
struct LoadTimerTests {
  @Test("forwards loads and merges to the store, and hands over the time spent loading once")
  func forwards() throws {
    let store = InMemoryNormalizedCache()
    let timer = LoadTimer(store)
    try timer.merge(records: RecordSet(records: [Record(key: "A", ["x": 1])]))
    #expect(try timer.loadRecords(forKeys: ["A", "B"]).keys.sorted() == ["A"])
    #expect(try timer.loadRecordsInOrder(forKeys: ["B", "A"]).map { $0?.key } == [nil, "A"])
    _ = timer.takeLoadNanoseconds()
    #expect(timer.takeLoadNanoseconds() == 0)
    try timer.clear()
    #expect(store.statistics().recordCount == 0)
  }
}

@Suite("Runner helpers")
struct RunnerHelperTests {
  @Test(
    "JSONDifference names the first path where a read-back differs",
    arguments: [
      (#"{"a": [1, {"b": "x"}]}"#, #"{"a": [1, {"b": "y"}]}"#, #"data.a.1.b: "x" in the response, "y" read back"#),
      (#"{"a": 1, "b": 2}"#, #"{"a": 1}"#, "data.b: missing from the read-back"),
      (#"{"a": 1}"#, #"{"a": 1, "c": 3}"#, "data.c: not in the response"),
      (#"{"a": [1, 2]}"#, #"{"a": [1]}"#, "data.a: 2 elements in the response, 1 read back"),
    ])
  func difference(expected: String, actual: String, message: String) throws {
    let difference = JSONDifference.first(
      between: try JSONParser.parse(expected, file: "e"), and: try JSONParser.parse(actual, file: "a"))
    #expect(difference == message)
  }

  @Test("identical values have no difference")
  func noDifference() throws {
    let value = try JSONParser.parse(#"{"a": [1, {"b": null}]}"#, file: "v")
    #expect(JSONDifference.first(between: value, and: value) == nil)
  }

  @Test(
    "key-field values split on unescaped plus signs",
    arguments: [
      ("123", ["123"]), (#"Ray+Bradbury"#, ["Ray", "Bradbury"]), (#"a\+b+c\\d"#, ["a+b", #"c\d"#]), ("", [""]),
    ])
  func splitEscaped(id: String, parts: [String]) {
    #expect(FieldPolicyLookups.splitEscaped(id) == parts)
  }
}

@Suite("Limit stores")
struct LimitStoreTests {
  @Test("the limit dictionary keeps each record's bytes, replaces records whole and loads in order")
  func dictionary() throws {
    let store = LimitDictionary()
    let records = [Record(key: "Book:1", ["title": "Emma", "pages": 474]), Record(key: "Book:2", ["title": "Dune"])]
    #expect(store.merge(records: RecordSet(records: records)).isEmpty)
    _ = store.merge(records: RecordSet(records: [Record(key: "Book:1", ["title": "Persuasion"])]))
    let loaded = store.loadRecordsInOrder(forKeys: ["Book:2", "Book:3", "Book:1"])
    #expect(loaded.map { $0?.key } == ["Book:2", nil, "Book:1"])
    #expect(loaded[2]?.encodedFields == Record(key: "Book:1", ["title": "Persuasion"]).encodedFields)
    let statistics = store.statistics
    #expect(statistics.records == 2)
    #expect(
      statistics.payloadBytes == 12 + Record(key: "Book:1", ["title": "Persuasion"]).encodedFields.count + records[1].encodedFields.count)
    store.removeRecords(matching: "book:2")
    #expect(store.loadRecords(forKeys: ["Book:1", "Book:2"]).keys.sorted() == ["Book:1"])
  }

  @Test("\"limits\": true measures both limit stores on the same records, and each store against its limit")
  func limitRows() throws {
    let text = smallGenerator.replacingOccurrences(of: #""warmup": 1,"#, with: #""warmup": 1, "limits": true,"#)
    let result = try runWorkload(text)
    let rows = result.rows
    func row(_ store: String, _ keys: String, _ phase: Phase, _ metric: String) -> MetricRow? {
      rows.first { $0.key.store == store && $0.key.keys == keys && $0.key.phase == phase && $0.key.metric == metric }
    }
    for keys in ["path", "typePolicy"] {
      // The limits hold one record per key the store holds: the same keys, replaced whole.
      let records = try #require(row("memory", keys, .dedup, "records")).summary.p50
      #expect(row("limit-dictionary", keys, .dedup, "records")?.summary.p50 == records)
      #expect(row("limit-sqlite", keys, .dedup, "records")?.summary.p50 == records)
      for (store, limit) in [("memory", "limit-dictionary"), ("sqlite", "limit-sqlite")] {
        for phase in [Phase.merge, .read] {
          let ratio = try #require(row(store, keys, phase, "latency_vs_limit"))
          let expected =
            try #require(row(limit, keys, phase, "latency")).summary.p50
            / #require(row(store, keys, phase, "latency")).summary.p50
          #expect(ratio.unit == .ratio && ratio.better == .higher && !ratio.deterministic)
          #expect(ratio.summary.p50 == expected)
        }
      }
      // Limits have no normalizer and no reader: no write, normalize or allocation rows.
      #expect(row("limit-dictionary", keys, .write, "latency") == nil)
      #expect(row("limit-sqlite", keys, .normalize, "latency") == nil)
      #expect(row("limit-sqlite", keys, .merge, "latency_vs_limit") == nil)
    }
    #expect(result.table.contains("Stores against their limit"))
    #expect(result.table.contains("memory × typePolicy vs limit-dictionary: merge "))
    #expect(result.table.contains("sqlite × path vs limit-sqlite: merge "))
    #expect(!result.table.contains("limit-sqlite:\n  typePolicy vs path"))
  }

  @Test("the store-records benchmark measures the limits too, with a ratio per timing")
  func storeRecordsLimits() throws {
    let rows = try runWorkload(
      #"{"name": "records", "seed": 1, "storeRecords": {"count": 200, "batch": 50, "pointLoads": 20}, "stores": [{"kind": "memory"}], "limits": true, "repetitions": 1, "warmup": 0}"#
    ).rows
    #expect(rows.first { $0.key.store == "limit-sqlite" && $0.key.metric == "records" }?.summary.p50 == 200)
    let ratios = rows.filter { $0.key.store == "memory" && $0.key.metric.hasSuffix("_vs_limit") }.map(\.key.metric)
    #expect(
      ratios.sorted() == [
        "load_all_per_key_vs_limit", "load_batch_per_key_vs_limit", "merge_new_per_record_vs_limit",
        "merge_unchanged_per_record_vs_limit", "point_lookup_vs_limit",
      ])
  }
}

@Suite("Named resolvers")
struct NamedResolverRunTests {
  static let generator = #""generator": {"responses": 6, "operations": 2, "depth": 3, "types": 6, "poolSize": 8}"#

  static func records(_ result: WorkloadResult, keys: String) -> Double? {
    result.rows.first { $0.key.keys == keys && $0.key.metric == "records" }?.summary.p50
  }

  @Test("one run compares several programmatic resolvers, each row named by its resolver, each as its own run counts it")
  func severalResolvers() throws {
    let both = try runWorkload(
      #"""
      {"name": "r", "seed": 5, \#(Self.generator), "keys": ["path", "programmatic:id", "programmatic:seed-books"],
       "stores": [{"kind": "memory"}], "repetitions": 1, "warmup": 0, "read": {"pointLookups": 5, "fieldPolicyLookups": 0}}
      """#)
    #expect(Set(both.rows.map(\.key.keys)) == ["path", "programmatic:id", "programmatic:seed-books"])
    for resolver in ["id", "seed-books"] {
      let alone = try runWorkload(
        #"""
        {"name": "r", "seed": 5, \#(Self.generator), "keys": ["programmatic"], "resolver": "\#(resolver)",
         "stores": [{"kind": "memory"}], "repetitions": 1, "warmup": 0, "read": {"pointLookups": 5, "fieldPolicyLookups": 0}}
        """#)
      let expected = try #require(Self.records(alone, keys: "programmatic"))
      #expect(Self.records(both, keys: "programmatic:\(resolver)") == expected, "\(resolver)")
    }
    // Both key entities, so both store fewer records than the path does.
    let path = try #require(Self.records(both, keys: "path"))
    #expect(try #require(Self.records(both, keys: "programmatic:id")) < path)
    #expect(try #require(Self.records(both, keys: "programmatic:seed-books")) < path)
  }
}
