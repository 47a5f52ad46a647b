import Testing

@testable import Results

@Suite("comparison: the regression gate")
struct ComparisonTests {
  private func status(
    _ baseline: Double, _ current: Double, better: Better = .lower, deterministic: Bool = false,
    options: ComparisonOptions = ComparisonOptions()
  ) throws -> VerdictStatus {
    let comparison = try Comparison(
      baseline: [Fixtures.row(p50: baseline, better: better, deterministic: deterministic)],
      current: [Fixtures.row(p50: current, better: better, deterministic: deterministic)],
      options: options)
    return try #require(comparison.verdicts.only).status
  }

  @Test("a timing 5% slower under a 10% threshold is unchanged")
  func fivePercentSlower() throws {
    #expect(try status(1000, 1050) == .unchanged)
  }

  @Test("a timing 20% slower regressed")
  func twentyPercentSlower() throws {
    #expect(try status(1000, 1200) == .regressed)
  }

  @Test("a timing 20% faster improved")
  func twentyPercentFaster() throws {
    #expect(try status(1000, 800) == .improved)
  }

  @Test("a change of exactly the threshold is unchanged")
  func atThreshold() throws {
    #expect(try status(1000, 1100) == .unchanged)
    #expect(try status(1000, 900) == .unchanged)
  }

  @Test("a wider threshold tolerates more")
  func widerThreshold() throws {
    #expect(try status(1000, 1200, options: ComparisonOptions(thresholdPercent: 25)) == .unchanged)
    #expect(ComparisonOptions(thresholdPercent: 25).threshold == 0.25)
    #expect(ComparisonOptions().threshold == 0.10)
  }

  @Test("a higher-is-better metric that drops regressed; one that rises improved")
  func higherIsBetter() throws {
    #expect(try status(0.9, 0.7, better: .higher) == .regressed)
    #expect(try status(0.9, 0.86, better: .higher) == .unchanged)
    #expect(try status(0.5, 0.9, better: .higher) == .improved)
  }

  @Test("a deterministic metric that changes at all regressed, in either direction")
  func deterministic() throws {
    #expect(try status(100, 100, deterministic: true) == .unchanged)
    #expect(try status(100, 101, deterministic: true) == .regressed)
    #expect(try status(100, 99, deterministic: true) == .regressed)
    #expect(try status(0.3, 0.1 + 0.2, deterministic: true) == .unchanged)  // floating-point noise
  }

  @Test("a deterministic tolerance lets small changes through")
  func deterministicTolerance() throws {
    let options = ComparisonOptions(thresholdPercent: 10, deterministicTolerancePercent: 2)
    #expect(try status(100, 101, deterministic: true, options: options) == .unchanged)
    #expect(try status(100, 97, deterministic: true, options: options) == .regressed)
  }

  @Test("a zero baseline: equal is unchanged, anything more regressed")
  func zeroBaseline() throws {
    #expect(try status(0, 0) == .unchanged)
    #expect(try status(0, 5) == .regressed)
  }

  @Test("metrics on one side only are added or removed, and do not fail the gate")
  func addedAndRemoved() throws {
    let comparison = try Comparison(
      baseline: [
        Fixtures.row(p50: 1000), Fixtures.row("records", phase: .dedup, p50: 40, unit: .count),
      ],
      current: [Fixtures.row(p50: 1000), Fixtures.row("point_lookup", phase: .lookup, p50: 90)])
    #expect(comparison.verdicts.map(\.key.metric) == ["latency", "point_lookup", "records"])
    #expect(comparison.verdicts.map(\.status) == [.unchanged, .added, .removed])
    #expect(comparison.verdicts[1].baseline == nil)
    #expect(comparison.verdicts[2].current == nil)
    #expect(comparison.verdicts[1].ratio == nil)
    #expect(!comparison.hasRegressions)
  }

  @Test("the gate fails on any regression and counts every status")
  func gate() throws {
    let comparison = try Comparison(
      baseline: [
        Fixtures.row(p50: 1000), Fixtures.row(p50: 1000, store: "sqlite"),
        Fixtures.row("allocations", p50: 12, unit: .count, deterministic: true),
      ],
      current: [
        Fixtures.row(p50: 1200), Fixtures.row(p50: 700, store: "sqlite"),
        Fixtures.row("allocations", p50: 12, unit: .count, deterministic: true),
      ])
    #expect(comparison.hasRegressions)
    #expect(comparison.regressions.map(\.key.store) == ["memory"])
    #expect(comparison.improvements.map(\.key.store) == ["sqlite"])
    #expect(VerdictStatus.allCases.map(comparison.count) == [1, 1, 1, 0, 0])
    #expect(comparison.verdicts[0].ratio == 1.2)
  }

  @Test(
    "the verdict follows the pure status function",
    arguments: [
      (100.0, 111.0, Better.lower, false, VerdictStatus.regressed),
      (100.0, 89.0, Better.lower, false, VerdictStatus.improved),
      (100.0, 89.0, Better.higher, false, VerdictStatus.regressed),
      (100.0, 111.0, Better.higher, false, VerdictStatus.improved),
      (100.0, 100.5, Better.higher, true, VerdictStatus.regressed),
    ])
  func statusFunction(
    baseline: Double, current: Double, better: Better, deterministic: Bool, expected: VerdictStatus
  ) {
    let status = Comparison.status(
      baseline: baseline, current: current, better: better, deterministic: deterministic,
      options: ComparisonOptions())
    #expect(status == expected)
  }

  @Test("two rows for one metric on one side are an error naming it")
  func duplicate() {
    #expect(throws: ComparisonError.duplicate(Fixtures.key(), .baseline)) {
      try Comparison(baseline: [Fixtures.row(p50: 1), Fixtures.row(p50: 2)], current: [])
    }
    #expect(
      ComparisonError.duplicate(Fixtures.key(), .baseline).description
        == "the baseline has two rows for books/memory/path/write/latency")
  }

  @Test("a metric whose unit changed cannot be compared")
  func changedUnit() {
    do {
      _ = try Comparison(
        baseline: [Fixtures.row(p50: 1, unit: .ns)], current: [Fixtures.row(p50: 1, unit: .bytes)])
      Issue.record("compared a metric whose unit changed")
    } catch {
      #expect(
        error.description
          == "books/memory/path/write/latency has unit 'ns' in the baseline but 'bytes' in the current run"
      )
    }
  }

  @Test("the report tables the regressions and improvements and counts the rest")
  func report() throws {
    let comparison = try Comparison(
      baseline: [
        Fixtures.row(p50: 10_000), Fixtures.row(p50: 2_000_000, store: "sqlite"),
        Fixtures.row(
          "live_bytes", phase: .footprint, p50: 1_200_000, unit: .bytes, deterministic: true),
        Fixtures.row("hit_ratio", phase: .lookup, p50: 1, unit: .ratio, better: .higher),
      ],
      current: [
        Fixtures.row(p50: 12_000), Fixtures.row(p50: 1_000_000, store: "sqlite"),
        Fixtures.row(
          "live_bytes", phase: .footprint, p50: 1_150_000, unit: .bytes, deterministic: true),
      ])
    #expect(
      comparison.report() == """
        Regressions (2):
        workload  store   keys  phase      metric      baseline  current  change
        --------  ------  ----  ---------  ----------  --------  -------  ------
        books     memory  path  write      latency      10.0 µs  12.0 µs  +20.0%
        books     memory  path  footprint  live_bytes    1.2 MB   1.1 MB   -4.2%

        Improvements (1):
        workload  store   keys  phase  metric   baseline  current  change
        --------  ------  ----  -----  -------  --------  -------  ------
        books     sqlite  path  write  latency    2.0 ms   1.0 ms  -50.0%

        2 regressed, 1 improved, 0 unchanged, 0 added, 1 removed (threshold 10%; deterministic metrics must be equal)

        """)
  }

  @Test("an unchanged comparison reports only its summary")
  func quietReport() throws {
    let comparison = try Comparison(
      baseline: [Fixtures.row(p50: 100)], current: [Fixtures.row(p50: 101)],
      options: ComparisonOptions(thresholdPercent: 5, deterministicTolerancePercent: 0.5))
    #expect(
      comparison.report()
        == "0 regressed, 0 improved, 1 unchanged, 0 added, 0 removed (threshold 5%; deterministic tolerance 0.5%)\n"
    )
  }

  @Test("verdicts write as CSV and read back")
  func csv() throws {
    let comparison = try Comparison(
      baseline: [
        Fixtures.row(p50: 1000), Fixtures.row("records", phase: .dedup, p50: 40, unit: .count),
      ],
      current: [
        Fixtures.row(p50: 1250), Fixtures.row("objects", phase: .dedup, p50: 90, unit: .count),
      ])
    let text = CSV.document(comparison.verdicts)
    #expect(
      text == """
        workload,variant,store,keys,phase,metric,unit,better,deterministic,baseline_p50,current_p50,ratio,status
        books,,memory,path,write,latency,ns,lower,false,1000,1250,1.25,regressed
        books,,memory,path,dedup,objects,count,lower,false,,90,,added
        books,,memory,path,dedup,records,count,lower,false,40,,,removed

        """)
    #expect(try CSV.rows(Verdict.self, from: text, file: "c.csv") == comparison.verdicts)
  }
}

extension Array {
  /// The single element, or nil.
  fileprivate var only: Element? { count == 1 ? first : nil }
}
