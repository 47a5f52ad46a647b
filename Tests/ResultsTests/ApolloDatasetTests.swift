import Foundation
import Support
import Testing

@testable import Results

/// Apollo iOS's dataset (docs/apollo.md): its verdicts, the names of our rows in it, its
/// statistics as their `BenchmarkResult` computes them, and the errors that end an export.
@Suite("Apollo's dataset")
struct ApolloDatasetTests {
  @Test(
    "a verdict is the change of the mean from the baseline's: -5% or less improved, +5% or more regressed, parity between",
    arguments: [
      // (mean, baseline, change in percent, verdict), worked out by hand.
      (21.0, 20.0, 5.0, ApolloVerdict.regressed),
      (19.0, 20.0, -5.0, .improved),
      (20.99, 20.0, 4.95, .parity),
      (19.01, 20.0, -4.95, .parity),
      (20.0, 20.0, 0, .parity),
      (40.0, 20.0, 100, .regressed),
      (5.0, 20.0, -75, .improved),
    ])
  func verdicts(mean: Double, baseline: Double, change: Double, verdict: ApolloVerdict) throws {
    let computed = try #require(ApolloVerdict.change(mean: mean, baseline: baseline))
    #expect(abs(computed - change) < 1e-9)
    #expect(ApolloVerdict(change: computed) == verdict)
  }

  @Test("a change from a mean of 0, or one past what a Double holds, is no number; a far but finite one is")
  func changesThatAreNoNumber() {
    #expect(ApolloVerdict.change(mean: 1, baseline: 0) == nil)
    #expect(ApolloVerdict.change(mean: 1e308, baseline: 1e-300) == nil)
    // (1e307 − 1e300) × 100 overflows; divided first it is 1e9 % less a hair.
    let far = ApolloVerdict.change(mean: 1e307, baseline: 1e300)
    #expect(far.map { abs($0 / 1e9 - 1) < 1e-6 } == true)
  }

  @Test(
    "a store's backend: memory is inmemory, sqlite-apollo (the 2.x layout) sqlite, others their label in snake case",
    arguments: [
      ("memory", "inmemory"), ("sqlite-apollo", "sqlite"), ("sqlite-compact", "sqlite_compact"), ("sqlite-rows", "sqlite_rows"),
      ("Memory-LRU", "inmemory_lru"), ("limit-sqlite", "limit_sqlite"), ("sqlite.v2 wal", "sqlite_v2_wal"), ("memorybank", "memorybank"),
    ])
  func backends(store: String, backend: String) {
    #expect(ApolloDataset.backend(ofStore: store) == backend)
  }

  @Test("a Tier-2 scenario of one of our backends falls back to its family's; Apollo's own, a variant's and tier 0 have none")
  func families() {
    #expect(ApolloDataset.familyScenario(of: "tier2.sqlite_compact.batch_load_100_records") == "tier2.sqlite.batch_load_100_records")
    #expect(ApolloDataset.familyScenario(of: "tier2.inmemory_lru.single_key_load_10_fields") == "tier2.inmemory.single_key_load_10_fields")
    #expect(ApolloDataset.familyScenario(of: "tier2.sqlite.batch_load_100_records") == nil)
    #expect(ApolloDataset.familyScenario(of: "tier2.sqlite_rows[maxSizeBytes=0.5].batch_load_100_records") == nil)
    #expect(ApolloDataset.familyScenario(of: "books/memory_x/path/write/latency") == nil)
  }

  /// A timing row of `store` and `n` samples, with those samples.
  static func timing(
    _ metric: String, phase: Phase = .tier2, store: String, samples: [Double], run: RunInfo = Fixtures.run
  ) -> (row: MetricRow, samples: [SampleRow]) {
    let key = MetricKey(workload: "apollo-tier2", store: store, keys: "typePolicy", phase: phase, metric: metric)
    let row = MetricRow(run: run, key: key, unit: .ns, better: .lower, deterministic: false, summary: Summary(samples)!)
    return (row, SampleRow.rows(runID: run.runID, key: key, unit: .ns, samples: samples))
  }

  static let sources = ApolloDataset.Sources(results: "r.csv", samples: "s.csv")

  @Test("statistics in milliseconds as BenchmarkResult computes them: mean, std over n − 1, p50, p95, p99 at rank p·(n − 1)")
  func statistics() throws {
    let batch = Self.timing("batch_load_100_records", store: "memory", samples: [22_000, 18_000, 21_000, 19_000])
    let one = Self.timing("single_key_load_10_fields", store: "sqlite-apollo", samples: [600])
    let count = MetricRow(
      run: Fixtures.run, key: Fixtures.key("records", phase: .dedup), unit: .count, better: .lower, deterministic: true,
      summary: Summary([1000])!)
    let dataset = try ApolloDataset.of(
      [batch.row, count, one.row], samples: batch.samples + one.samples, version: "cachebench", device: nil, sources: Self.sources)
    #expect(dataset.capturedAt == "2025-11-22T07:39:12Z" && dataset.gitSHA == "a3f0feb" && dataset.device == "bench-1")
    #expect(dataset.results.map(\.scenario) == ["tier2.inmemory.batch_load_100_records", "tier2.sqlite.single_key_load_10_fields"])
    let result = dataset.results[0]
    // Sorted in ms: 0.018, 0.019, 0.021, 0.022. Mean 0.02; deviations ±0.001, ±0.002, squares
    // 1e-5 in all, over 3: std √(1e-5 / 3) = 0.0018257418583505537. p50 at rank 1.5: 0.02;
    // p95 at 2.85: 0.021 + 0.85 × 0.001 = 0.02185; p99 at 2.97: 0.02197.
    #expect(result.tier == 2 && result.iterations == 4)
    #expect(abs(result.meanMs - 0.02) < 1e-15)
    #expect(abs(result.stdMs - 0.0018257418583505537) < 1e-15)
    #expect(abs(result.p50Ms - 0.02) < 1e-15)
    #expect(abs(result.p95Ms - 0.02185) < 1e-15)
    #expect(abs(result.p99Ms - 0.02197) < 1e-15)
    // One iteration: their variance divides by max(n − 1, 1), so the spread is 0, not the value.
    #expect(dataset.results[1].stdMs == 0 && dataset.results[1].p95Ms == 0.0006)
  }

  @Test("Tier-3 rows are tier 3, named tier3.<backend>.<scenario>, floors by their label")
  func tier3Rows() throws {
    let store = Self.timing("select_exact_key", phase: .tier3, store: "sqlite-rows", samples: [20_000, 40_000])
    let floor = Self.timing("select_exact_key", phase: .tier3, store: "limit-rows-delete-full", samples: [10_000])
    let dataset = try ApolloDataset.of(
      [store.row, floor.row], samples: store.samples + floor.samples, version: "v", device: "M1", sources: Self.sources)
    #expect(dataset.results.map(\.tier) == [3, 3])
    #expect(dataset.results.map(\.scenario) == ["tier3.sqlite_rows.select_exact_key", "tier3.limit_rows_delete_full.select_exact_key"])
    #expect(dataset.results[0].meanMs == 0.03)
  }

  @Test("other timing rows are tier 0, named workload[variant]/store/keys/phase/metric")
  func otherRows() throws {
    let write = Self.timing("latency", phase: .write, store: "memory", samples: [1_000_000, 3_000_000])
    let dataset = try ApolloDataset.of([write.row], samples: write.samples, version: "v", device: "M1", sources: Self.sources)
    #expect(dataset.results.map(\.tier) == [0])
    #expect(dataset.results.map(\.scenario) == ["apollo-tier2/memory/typePolicy/write/latency"])
    #expect(dataset.results[0].meanMs == 2 && dataset.device == "M1")
  }

  @Test("the JSON has §5.1's keys in its order, numbers as the CSV writes them, the baseline's provenance after a comparison")
  func json() throws {
    var dataset = ApolloDataset(
      version: "cachebench", capturedAt: "2025-11-22T07:39:12Z", gitSHA: "a3f0feb", device: "vm",
      results: [
        ApolloDataset.Result(
          tier: 2, scenario: "tier2.sqlite.x", meanMs: 12.5, stdMs: 0.25, p50Ms: 12, p95Ms: 13, p99Ms: 14.75, iterations: 50)
      ])
    #expect(
      dataset.json == """
        {
          "version": "cachebench",
          "captured_at": "2025-11-22T07:39:12Z",
          "git_sha": "a3f0feb",
          "device": "vm",
          "results": [
            {"tier": 2, "scenario": "tier2.sqlite.x", "mean_ms": 12.5, "std_ms": 0.25, "p50_ms": 12, "p95_ms": 13, "p99_ms": 14.75, "iterations": 50}
          ]
        }

        """)
    let baseline = ApolloDataset(
      version: "2.x", capturedAt: "2026-05-19T18:05:58Z", gitSHA: "c3ed76fd", device: "M1 Pro",
      results: [
        ApolloDataset.Result(tier: 2, scenario: "tier2.sqlite.x", meanMs: 10, stdMs: 0, p50Ms: 10, p95Ms: 10, p99Ms: 10, iterations: 50)
      ])
    dataset = try dataset.compared(with: baseline, file: "b.json")
    let text = dataset.json
    #expect(text.contains(#""git_sha": "a3f0feb",\#n  "baseline_version": "2.x",\#n  "baseline_git_sha": "c3ed76fd",\#n  "device": "vm""#))
    #expect(text.contains(#""iterations": 50, "delta_vs_baseline_pct": 25, "verdict": "regressed"}"#))
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    #expect((parsed?["results"] as? [[String: Any]])?.first?["verdict"] as? String == "regressed")
  }

  /// A baseline of these scenarios and means.
  static func baseline(_ means: [(String, Double)]) -> ApolloDataset {
    ApolloDataset(
      version: "2.x", capturedAt: "t", gitSHA: "s", device: "d",
      results: means.map {
        ApolloDataset.Result(tier: 2, scenario: $0, meanMs: $1, stdMs: 0, p50Ms: $1, p95Ms: $1, p99Ms: $1, iterations: 50)
      })
  }

  @Test("each result against the baseline's of its scenario, or of its family's; the baseline's other scenarios left out")
  func comparison() throws {
    let memory = Self.timing("batch_load_100_records", store: "memory", samples: [21_000, 22_000])  // 0.0215 ms
    let compact = Self.timing("batch_load_100_records", store: "sqlite-compact", samples: [1_800_000])  // 1.8 ms
    let dataset = try ApolloDataset.of(
      [memory.row, compact.row], samples: memory.samples + compact.samples, version: "v", device: nil, sources: Self.sources)
    let compared = try dataset.compared(
      with: Self.baseline([
        ("tier1.cache_and_network", 1), ("tier2.inmemory.batch_load_100_records", 0.02), ("tier2.sqlite.batch_load_100_records", 2),
      ]), file: "b.json")
    // 0.0215 against 0.02: +7.5%, regressed; 1.8 against 2 (the compact layout against Apollo's
    // SQLite): -10%, improved.
    #expect(compared.results.map(\.scenario) == ["tier2.inmemory.batch_load_100_records", "tier2.sqlite_compact.batch_load_100_records"])
    #expect(compared.results.map { $0.comparison?.verdict } == [.regressed, .improved])
    let changes = compared.results.compactMap { $0.comparison?.changePercent }
    #expect(changes.count == 2 && abs(changes[0] - 7.5) < 1e-9 && abs(changes[1] + 10) < 1e-9)
    #expect(compared.baseline == ApolloDataset.Provenance(version: "2.x", gitSHA: "s"))
  }

  @Test(
    "a projected load the baseline lacks against the whole load of its records, its family's too; the list load and over-fetch without a verdict"
  )
  func projectedComparison() throws {
    #expect(
      ApolloDataset.wholeLoadScenario(of: "tier2.sqlite_rows.projected_load_3_of_10_fields")
        == "tier2.sqlite_rows.single_key_load_10_fields")
    #expect(
      ApolloDataset.wholeLoadScenario(of: "tier2.inmemory.projected_batch_load_3_of_10_fields_100_records")
        == "tier2.inmemory.batch_load_100_records")
    #expect(ApolloDataset.wholeLoadScenario(of: "tier2.sqlite.projected_list_load_100_elements") == nil)
    #expect(ApolloDataset.wholeLoadScenario(of: "tier2.sqlite.batch_load_100_records") == nil)
    #expect(ApolloDataset.isProjectedScenario("tier2.sqlite_rows.inline_fragment_overfetch_40_fields_8_used"))
    #expect(!ApolloDataset.isProjectedScenario("tier2.sqlite_rows.batch_load_100_records"))
    let rows = Self.timing("projected_load_3_of_10_fields", store: "sqlite-rows", samples: [1_000_000])  // 1 ms
    let memory = Self.timing("projected_batch_load_3_of_10_fields_100_records", store: "memory", samples: [500_000])  // 0.5 ms
    let list = Self.timing("projected_list_load_100_elements", store: "sqlite-rows", samples: [2_000_000])
    let dataset = try ApolloDataset.of(
      [rows.row, memory.row, list.row], samples: rows.samples + memory.samples + list.samples, version: "v", device: nil,
      sources: Self.sources)
    let compared = try dataset.compared(
      with: Self.baseline([("tier2.sqlite.single_key_load_10_fields", 2), ("tier2.inmemory.batch_load_100_records", 0.25)]),
      file: "b.json")
    // 1 ms against Apollo's SQLite whole load of 2 ms (the rows layout's family, its whole load):
    // -50%, improved; 0.5 against 0.25: +100%, regressed; the list load has nothing to meet.
    #expect(compared.results.map { $0.comparison?.changePercent } == [-50, 100, nil])
    #expect(compared.results.map { $0.comparison?.verdict } == [.improved, .regressed, nil])
    // The baseline's own projected load comes first, when it has one.
    let own = try dataset.compared(
      with: Self.baseline([
        ("tier2.sqlite_rows.projected_load_3_of_10_fields", 1), ("tier2.sqlite.single_key_load_10_fields", 2),
        ("tier2.inmemory.projected_batch_load_3_of_10_fields_100_records", 0.5),
      ]), file: "b.json")
    #expect(own.results.map { $0.comparison?.verdict } == [.parity, .parity, nil])
  }

  @Test("a comparison that cannot be made ends with the file and scenario at fault")
  func comparisonErrors() throws {
    let compact = Self.timing("batch_load_100_records", store: "sqlite-compact", samples: [1_900_000])
    let dataset = try ApolloDataset.of([compact.row], samples: compact.samples, version: "v", device: nil, sources: Self.sources)
    let cases: [(ApolloDataset, String)] = [
      (
        Self.baseline([("tier1.cache_and_network", 1)]),
        "b.json has no scenario to compare any result with (not tier2.sqlite_compact.batch_load_100_records nor "
          + "tier2.sqlite.batch_load_100_records): export without --baseline, or against a baseline of these scenarios"
      ),
      (
        Self.baseline([("tier2.sqlite.batch_load_100_records", 2), ("tier2.sqlite.batch_load_100_records", 3)]),
        "b.json: the scenario tier2.sqlite.batch_load_100_records is there twice"
      ),
      (
        Self.baseline([("tier2.sqlite.batch_load_100_records", 0)]),
        "b.json: tier2.sqlite.batch_load_100_records: mean_ms is 0, which no change can be a share of"
      ),
      (
        Self.baseline([("tier2.sqlite.batch_load_100_records", 5e-324)]),
        "tier2.sqlite_compact.batch_load_100_records: the change from the baseline's mean (5e-324 ms, b.json) to 1.9 ms is not a finite number"
      ),
    ]
    for (baseline, message) in cases {
      let error = #expect(throws: ApolloDatasetError.self) { try dataset.compared(with: baseline, file: "b.json") }
      #expect(error?.description == message)
      #expect(error.map { ExitCode(for: $0) } == .dataError)
    }
  }

  @Test("rows that cannot make a dataset end with the files and rows at fault")
  func datasetErrors() throws {
    let memory = Self.timing("batch_load_100_records", store: "memory", samples: [20_000, 22_000])
    let twin = Self.timing("batch_load_100_records", store: "sqlite", samples: [1])
    let apollo = Self.timing("batch_load_100_records", store: "sqlite-apollo", samples: [1])
    let other = RunInfo(runID: "r2", timestamp: "t", gitRev: "b4c0ffee", host: "h")
    let rebuilt = Self.timing("single_key_load_10_fields", store: "memory", samples: [1], run: other)
    // 0 and 1e302 ms: their deviations' squares pass what a Double holds.
    let huge = Self.timing("many_record_merge_1000_records", store: "memory", samples: [0, 1e308])
    let deterministic = MetricRow(
      run: Fixtures.run, key: Fixtures.key("records", phase: .dedup), unit: .count, better: .lower, deterministic: true,
      summary: Summary([1])!)
    let cases: [([MetricRow], [SampleRow], String)] = [
      ([deterministic], [], "r.csv has no timing rows (unit ns) to write as Apollo's dataset"),
      (
        [memory.row, rebuilt.row], memory.samples + rebuilt.samples,
        "r.csv holds rows of several builds (a3f0feb, b4c0ffee): export one build's rows"
      ),
      (
        [memory.row], [],
        "s.csv has no samples of apollo-tier2/memory/typePolicy/tier2/batch_load_100_records (run r1): "
          + "give the --samples file of the run that wrote r.csv"
      ),
      (
        [memory.row], Array(memory.samples.prefix(1)),
        "s.csv has 1 samples of apollo-tier2/memory/typePolicy/tier2/batch_load_100_records (run r1) where r.csv counts 2"
      ),
      (
        [twin.row, apollo.row], twin.samples + apollo.samples,
        "r.csv: the rows apollo-tier2/sqlite/typePolicy/tier2/batch_load_100_records and "
          + "apollo-tier2/sqlite-apollo/typePolicy/tier2/batch_load_100_records are both the scenario tier2.sqlite.batch_load_100_records "
          + "(docs/apollo.md#backends)"
      ),
      (
        [huge.row], huge.samples,
        "s.csv: the samples of apollo-tier2/memory/typePolicy/tier2/many_record_merge_1000_records have statistics past what a Double holds in milliseconds"
      ),
    ]
    for (rows, samples, message) in cases {
      let error = #expect(throws: ApolloDatasetError.self) {
        try ApolloDataset.of(rows, samples: samples, version: "v", device: nil, sources: Self.sources)
      }
      #expect(error?.description == message)
    }
  }
}
