import NormalizedCache
import Results
import SQLiteCache
import Testing

@testable import Workbench

/// Apollo iOS's Tier-2 scenarios (docs/apollo.md): their records, and one row per scenario and
/// store with a sample per measured iteration.
@Suite("Apollo's Tier-2 scenarios")
struct ApolloTier2Tests {
  /// Fields `field_0` … `field_9` of a record, as (name, value) in order.
  static func fields(_ record: Record) -> [String] {
    record.fields.map { "\($0.key)=\($0.value)" }
  }

  @Test("the records are BenchmarkWorkloads.syntheticRecords': record_N, even fields value_N_F, odd fields N*100+F")
  func syntheticRecords() throws {
    let records = ApolloTier2Records.synthetic(count: 3).records
    #expect(records.map(\.key) == ["record_0", "record_1", "record_2"])
    let last = try #require(records.last)
    #expect(last.fieldCount == 10)
    #expect(last["field_0"] == .string("value_2_0"))
    #expect(last["field_1"] == .int(201))
    #expect(last["field_8"] == .string("value_2_8"))
    #expect(last["field_9"] == .int(209))
    #expect(ApolloTier2Records.syntheticKeys(count: 3) == ["record_0", "record_1", "record_2"])
  }

  @Test("the single-record merge's record of iteration 7 is merge_iter_7 with ten string fields value_7_F")
  func mergeRecord() throws {
    let record = try #require(ApolloTier2Records.mergeRecord(iteration: 7).records.first)
    #expect(record.key == "merge_iter_7")
    #expect(record.fieldCount == 10)
    #expect(record["field_0"] == .string("value_7_0"))
    #expect(record["field_9"] == .string("value_7_9"))
  }

  @Test("the pattern delete's seed: 10,000 User_ records of ten strings, 1,000 Other_ of one; User_ matches exactly the first")
  func patternDeleteSeed() throws {
    let records = ApolloTier2Records.patternDeleteSeed().records
    #expect(records.count == 11_000)
    #expect(records[9_999].key == "User_9999")
    #expect(records[9_999]["field_9"] == .string("value_9999_9"))
    #expect(records[10_000].key == "Other_0")
    #expect(records[10_999].fieldCount == 1)
    #expect(records[10_999]["field_0"] == .string("value_999"))
    #expect(records.count { KeyPattern.matches($0.key, ApolloTier2Records.pattern) } == 10_000)
  }

  @Test("the projected list load's records are 100 lists of 100 references; the over-fetch's record holds one type case's 8 fields")
  func projectedRecords() throws {
    let lists = ApolloTier2Records.lists().records
    #expect(lists.map(\.key) == (0..<100).map { "List:\($0)" })
    #expect(lists[0]["title"] == "a list")
    #expect(lists[99]["items"] == .list((0..<100).map { .reference("Item:\($0)") }))
    let node = try #require(ApolloTier2Records.overfetchRecord().records.first)
    #expect(node.key == "Node:0" && node.fieldCount == 9 && node["__typename"] == "Case0")
    #expect(node["case0_field_0"] == "value_case0_0" && node["case0_field_7"] == 7)
    let asked = ApolloTier2Records.overfetchFields
    #expect(asked.count == 41 && Set(asked).count == 41 && asked.last == "case4_field_7")
    #expect(node.fields.map(\.key).allSatisfy(asked.contains))
  }

  @Test(
    "the matched-type-case-only baseline asks exactly its type case's 8 fields and reads the same values as the over-fetch's 8, in every store"
  )
  func matchedTypeCaseOnly() throws {
    let scenarios = ProjectedScenario.all
    let overfetch = try #require(scenarios.first { $0.metric == .tier2InlineFragmentOverfetch })
    let matched = try #require(scenarios.first { $0.metric == .tier2MatchedTypeCaseOnly })
    #expect(matched.projection.sets.map(\.fieldKeys) == [(0..<8).map { "case0_field_\($0)" }])
    #expect(matched.keys == overfetch.keys && matched.records == overfetch.records && matched.fieldsAsked == 8)
    #expect(Set(matched.projection.sets[0].fieldKeys).isSubset(of: overfetch.projection.sets[0].fieldKeys))
    let stores: [any NormalizedCache] =
      try [InMemoryNormalizedCache()]
      + SQLiteNormalizedCache.Layout.allCases.map {
        try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: $0))
      }
    for store in stores {
      try store.merge(records: overfetch.records)
      let read = { (scenario: ProjectedScenario) in
        try store.withConsistentRead { snapshot in
          var lent = LentRecords()
          try snapshot.lendRecords(forKeys: scenario.keys, projection: scenario.projection, to: &lent)
          return try #require(lent[0].map { try Record(key: scenario.keys[0], encodedFields: Array($0)) })
        }
      }
      let (wide, narrow) = (try read(overfetch), try read(matched))
      // What the benchmark counts (tier2/<scenario>_fields): 9 and 8, deterministic.
      #expect(
        try overfetch.load(from: store, countingFields: true) == 9 && matched.load(from: store, countingFields: true) == 8, "\(store)")
      #expect(Set(narrow.fieldKeys) == Set(matched.projection.sets[0].fieldKeys), "\(store)")
      for name in narrow.fieldKeys { #expect(narrow[name] != nil && narrow[name] == wide[name], "\(store) \(name)") }
    }
  }

  @Test("every store and layout gets one row per scenario, a sample per measured iteration, and the footprint of 1,000 records")
  func rows() throws {
    let result = try runWorkload(
      #"""
      {"name": "t", "seed": 1, "apolloTier2": {}, "repetitions": 3, "warmup": 1,
       "stores": [{"kind": "memory"}, {"kind": "sqlite", "layout": "apollo", "journal": "delete", "synchronous": "full", "label": "sqlite-apollo"},
                  {"kind": "sqlite", "layout": "compact", "label": "sqlite-compact"}]}
      """#)
    // The payload of the 1,000 records, keys and fields as each store keeps them: in memory their
    // encoded fields, from the records themselves; in Apollo's layout their JSON text, 209,780
    // bytes with the keys (Python: sum(len(f"record_{i}") + len(json.dumps({f"field_{f}":
    // f"value_{i}_{f}" if f % 2 == 0 else i * 100 + f for f in range(10)}, separators=(",", ":")))
    // for i in range(1000))).
    let encoded = ApolloTier2Records.synthetic(count: 1_000).records.reduce(0) { $0 + $1.key.utf8.count + $1.encodedFields.count }
    let payloads = ["memory": Double(encoded), "sqlite-apollo": 209_780]
    for store in ["memory", "sqlite-apollo", "sqlite-compact"] {
      let rows = result.rows.filter { $0.key.store == store }
      #expect(Set(rows.map(\.key.keys)) == ["typePolicy"])
      let scenarios = rows.filter { $0.key.phase == .tier2 && $0.unit == .ns }
      #expect(scenarios.map(\.key.metric) == Metric.tier2Scenarios.map(\.name), "\(store)")
      // What SQLite asked of the disk, per measured iteration: loads nothing; with a rollback
      // journal and synchronous FULL a merge syncs the journal twice (its content, then its
      // header) and the database once (sqlite.org/atomiccommit.html, 3.7-3.11); memory nothing.
      let io = { (scenario: Metric, what: String) in
        rows.first { $0.key.phase == .tier2 && $0.key.metric == scenario.name + what }.map { ($0.summary.n, $0.summary.max) }
      }
      for scenario in [Metric.tier2SingleKeyLoad, .tier2BatchLoad] {
        #expect(io(scenario, "_fsyncs")! == (3, 0) && io(scenario, "_writes")! == (3, 0), "\(store)")
      }
      if store == "memory" {
        #expect(io(.tier2SingleRecordMerge, "_fsyncs")! == (3, 0) && io(.tier2PatternDelete, "_writes")! == (3, 0))
      }
      if store == "sqlite-apollo" {
        let merges = try #require(rows.first { $0.key.metric == "single_record_merge_10_fields_fsyncs" })
        #expect(merges.summary.min == 3 && merges.summary.max == 3 && merges.deterministic)
        #expect(io(.tier2SingleRecordMerge, "_writes")!.1 >= 3)
      }
      // The fields a projected load lent: every store the 3 asked of each record (the in-memory
      // store too, since ADR 0007's amendment of 2026-07-16); all of List:0's two; Node:0's 9
      // for the over-fetch (__typename and its type case's 8; the other 32 asked it lacks), and
      // its type case's 8 for the matched-type-case-only baseline.
      let lentFields = Metric.tier2ProjectedScenarios.map { scenario in
        rows.first { $0.key.metric == scenario.name + "_fields" }.map { $0.summary.p50 }
      }
      #expect(lentFields == [3, 300, 2, 9, 8], "\(store)")
      // The over-fetch gate's ratio, one a store: the two means' quotient.
      let gate = try #require(rows.first { $0.key.metric == Metric.tier2OverfetchGateRatio.name }, "\(store)")
      let means = [Metric.tier2InlineFragmentOverfetch, .tier2MatchedTypeCaseOnly].compactMap { metric in
        scenarios.first { $0.key.metric == metric.name }?.summary.mean
      }
      #expect(
        gate.summary.n == 1 && gate.unit == .ratio && abs(gate.summary.p50 / (means[0] / means[1]) - 1) < 1e-3,
        "\(store) \(gate.summary.p50) \(means)")
      #expect(scenarios.allSatisfy { $0.summary.n == 3 && $0.summary.min > 0 && $0.unit == .ns && !$0.deterministic }, "\(store)")
      #expect(rows.first { $0.key.phase == .dedup && $0.key.metric == "records" }?.summary.p50 == 1_000, "\(store)")
      if let payload = payloads[store] {
        #expect(rows.first { $0.key.metric == "payload_bytes" }?.summary.p50 == payload, "\(store)")
      }
    }
    #expect(result.table.contains("sqlite-compact  pattern_delete_10k_records"))
    // The gate's verdict beside the pair, on the baseline's line.
    let gateLines = result.table.split(separator: "\n").filter { $0.contains("inline_fragment_matched_type_case_only_8_fields") }
    #expect(gateLines.count == 3 && gateLines.allSatisfy { $0.contains(": pass, neither lands") || $0.contains(": regression, ") })
  }

  @Test("with \"limits\": true the limit stores run the scenarios too, and each store gets a ratio per scenario")
  func limits() throws {
    let rows = try runWorkload(
      #"{"name": "t", "seed": 1, "apolloTier2": {}, "stores": [{"kind": "memory"}], "limits": true, "repetitions": 1, "warmup": 0}"#
    ).rows
    #expect(rows.filter { $0.key.store == "limit-sqlite" && $0.key.phase == .tier2 && $0.unit == .ns }.count == 10)
    let ratios = rows.filter { $0.key.store == "memory" && $0.key.metric.hasSuffix("_vs_limit") }.map(\.key.metric)
    #expect(ratios == Metric.tier2Scenarios.map { $0.name + "_vs_limit" })
  }

  @Test("with \"limits\": \"layouts\" each SQLite layout runs beside its floor, which holds the same records")
  func layoutFloors() throws {
    let result = try runWorkload(
      #"""
      {"name": "t", "seed": 1, "apolloTier2": {}, "limits": "layouts", "repetitions": 1, "warmup": 0,
       "stores": [{"kind": "sqlite", "layout": "compact", "journal": "delete", "synchronous": "full", "label": "c"},
                  {"kind": "sqlite", "layout": "rows", "journal": "wal", "synchronous": "normal", "label": "r"}]}
      """#)
    let rows = result.rows
    for floor in ["limit-compact-delete-full", "limit-rows-wal-normal"] {
      // The run checks every load's count and the 1,000 records of the footprint.
      #expect(rows.filter { $0.key.store == floor && $0.key.phase == .tier2 && $0.unit == .ns }.count == 10, "\(floor)")
      #expect(rows.first { $0.key.store == floor && $0.key.metric == "records" }?.summary.p50 == 1_000, "\(floor)")
    }
    #expect(!rows.contains { $0.key.store == "limit-sqlite" })
    for store in ["c", "r"] {
      let ratios = rows.filter { $0.key.store == store && $0.key.metric.hasSuffix("_vs_limit") }.map(\.key.metric)
      #expect(ratios == Metric.tier2Scenarios.map { $0.name + "_vs_limit" }, "\(store)")
    }
    #expect(result.table.contains("c × typePolicy vs limit-compact-delete-full"))
  }
}
