import Support
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

  @Test("a timing within the threshold is unchanged; beyond it, either way, advisory: one run cannot fail")
  func timings() throws {
    #expect(try status(1000, 1050) == .unchanged)
    #expect(try status(1000, 1100) == .unchanged)  // exactly the threshold
    #expect(try status(1000, 1200) == .advisory)
    #expect(try status(1000, 800) == .advisory)
    #expect(try status(0.9, 0.7, better: .higher) == .advisory)
    #expect(try status(1000, 1200, options: ComparisonOptions(thresholdPercent: 25)) == .unchanged)
    #expect(ComparisonOptions(thresholdPercent: 25).threshold == 0.25)
    #expect(ComparisonOptions().threshold == 0.10)
  }

  @Test("a deterministic metric that gets worse regressed, one that gets better improved")
  func deterministic() throws {
    #expect(try status(100, 100, deterministic: true) == .unchanged)
    #expect(try status(100, 101, deterministic: true) == .regressed)
    #expect(try status(100, 99, deterministic: true) == .improved)
    #expect(try status(0.9, 0.8, better: .higher, deterministic: true) == .regressed)
    #expect(try status(0.3, 0.1 + 0.2, deterministic: true) == .unchanged)  // floating-point noise
  }

  @Test("a deterministic tolerance lets small changes through")
  func deterministicTolerance() throws {
    let options = ComparisonOptions(thresholdPercent: 10, deterministicTolerancePercent: 2)
    #expect(try status(100, 101, deterministic: true, options: options) == .unchanged)
    #expect(try status(100, 103, deterministic: true, options: options) == .regressed)
    #expect(try status(100, 97, deterministic: true, options: options) == .improved)
  }

  @Test("instructions are judged on the mean, within 0.5%: 1% more is caught, 0.3% is not")
  func instructions() throws {
    func status(_ baseline: Double, _ current: Double) throws -> VerdictStatus {
      let row = { (value: Double) in Fixtures.row("instructions", p50: value, unit: .count, deterministic: true) }
      return try #require(try Comparison(baseline: [row(baseline)], current: [row(current)]).verdicts.only).status
    }
    #expect(try status(1_000_000, 1_010_000) == .regressed)
    #expect(try status(1_000_000, 1_003_000) == .unchanged)
    #expect(try status(1_000_000, 990_000) == .improved)
    // Single samples move with the binary's layout: min, p50 and max alone are not judged.
    var base = Fixtures.row("instructions", p50: 1_000_000, unit: .count, deterministic: true)
    var current = base
    current.summary.min = 980_000
    current.summary.p50 = 1_008_000
    current.summary.max = 1_020_000
    #expect(try Comparison(baseline: [base], current: [current]).verdicts.only?.status == .unchanged)
    base.summary.mean = 1_000_000
    current.summary.mean = 1_006_000
    #expect(try Comparison(baseline: [base], current: [current]).verdicts.only?.statistic == .mean)
  }

  @Test("a zero baseline: equal is unchanged, anything more regressed")
  func zeroBaseline() throws {
    #expect(try status(0, 0, deterministic: true) == .unchanged)
    #expect(try status(0, 5, deterministic: true) == .regressed)
  }

  /// A deterministic row of allocations whose samples summarize as given.
  private func allocations(_ summary: Summary) -> MetricRow {
    var row = Fixtures.row("allocations", p50: 0, unit: .count, deterministic: true)
    row.summary = summary
    return row
  }

  @Test("a deterministic change in max or in mean alone is caught, and named")
  func everyStatistic() throws {
    let base = Summary([10, 10, 10, 10, 20])!
    let maxOnly = Summary([10, 10, 10, 10, 21])!  // min, p50 equal; p90, p99, max, mean worse
    let comparison = try Comparison(baseline: [allocations(base)], current: [allocations(maxOnly)])
    let verdict = try #require(comparison.verdicts.only)
    #expect(verdict.status == .regressed)
    #expect(verdict.statistic == .p90)
    #expect(verdict.baseline == 16)  // 10 + 0.6 × (20 - 10), by hand
    #expect(verdict.current == 16.6)
    #expect(comparison.hasRegressions)

    var meanOnly = base
    meanOnly.mean += 0.5
    let mean = try Comparison(baseline: [allocations(base)], current: [allocations(meanOnly)])
    #expect(mean.verdicts.map(\.statistic) == [.mean])
    #expect(mean.verdicts.map(\.status) == [.regressed])

    var fewer = base
    fewer.n = 4
    #expect(try Comparison(baseline: [allocations(base)], current: [allocations(fewer)]).verdicts.map(\.statistic) == [.n])
  }

  @Test("better on one statistic and worse on another regressed: worse wins")
  func mixed() throws {
    let base = Summary([10, 20, 30])!
    let current = Summary([9, 20, 31])!
    let verdict = try #require(try Comparison(baseline: [allocations(base)], current: [allocations(current)]).verdicts.only)
    #expect(verdict.status == .regressed)
    #expect(verdict.statistic == .p90)
    let better = try #require(
      try Comparison(baseline: [allocations(base)], current: [allocations(Summary([9, 20, 30])!)]).verdicts.only)
    #expect(better.status == .improved)
    #expect(better.statistic == .min)
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

  @Test("the gate fails on a deterministic regression only, and counts every status")
  func gate() throws {
    let comparison = try Comparison(
      baseline: [
        Fixtures.row(p50: 1000), Fixtures.row(p50: 1000, store: "sqlite"),
        Fixtures.row("allocations", p50: 12, unit: .count, deterministic: true),
        Fixtures.row("records", phase: .dedup, p50: 40, unit: .count, deterministic: true),
      ],
      current: [
        Fixtures.row(p50: 1200), Fixtures.row(p50: 1000, store: "sqlite"),
        Fixtures.row("allocations", p50: 13, unit: .count, deterministic: true),
        Fixtures.row("records", phase: .dedup, p50: 39, unit: .count, deterministic: true),
      ])
    #expect(comparison.hasRegressions)
    #expect(comparison.verdicts(.regressed).map(\.key.metric) == ["allocations"])
    #expect(comparison.verdicts(.improved).map(\.key.metric) == ["records"])
    #expect(comparison.verdicts(.advisory).map(\.key.store) == ["memory"])
    #expect(VerdictStatus.allCases.map(comparison.count) == [1, 1, 1, 1, 0, 0, 0])
    #expect(comparison.verdicts[0].ratio == 1.2)
    let timingsOnly = try Comparison(baseline: [Fixtures.row(p50: 1000)], current: [Fixtures.row(p50: 5000)])
    #expect(!timingsOnly.hasRegressions)
  }

  @Test(
    "the verdict follows the pure status function",
    arguments: [
      (100.0, 111.0, Better.lower, false, VerdictStatus.advisory),
      (100.0, 105.0, Better.lower, false, VerdictStatus.unchanged),
      (100.0, 100.5, Better.higher, true, VerdictStatus.improved),
      (100.0, 99.5, Better.higher, true, VerdictStatus.regressed),
      (100.0, 100.5, Better.lower, true, VerdictStatus.regressed),
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

  @Test("a baseline of another workload is an error, not a list of added and removed rows")
  func otherWorkload() {
    var other = Fixtures.row(p50: 1)
    other.key.workload = "calendar"
    let error = #expect(throws: ComparisonError.self) { try Comparison(baseline: [other], current: [Fixtures.row(p50: 1)]) }
    #expect(error?.description == "the baseline is of workload 'calendar' and the current run of 'books': nothing to compare")
    #expect(error.map { ExitCode(for: $0) } == .dataError)
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

  @Test("the report tables regressions, improvements and advisory timings, with absolute changes")
  func report() throws {
    let comparison = try Comparison(
      baseline: [
        Fixtures.row(p50: 10_000), Fixtures.row(p50: 2_000_000, store: "sqlite"),
        Fixtures.row("live_bytes", phase: .footprint, p50: 1_200_000, unit: .bytes, deterministic: true),
        Fixtures.row("allocations", p50: 1_000_000, unit: .count, deterministic: true),
        Fixtures.row("hit_ratio", phase: .lookup, p50: 1, unit: .ratio, better: .higher),
      ],
      current: [
        Fixtures.row(p50: 12_000), Fixtures.row(p50: 1_000_000, store: "sqlite"),
        Fixtures.row("live_bytes", phase: .footprint, p50: 1_150_000, unit: .bytes, deterministic: true),
        Fixtures.row("allocations", p50: 1_000_001, unit: .count, deterministic: true),
      ])
    #expect(
      comparison.report() == """
        Regressions (1):
        workload  store   keys  phase  metric       statistic  baseline  current     change
        --------  ------  ----  -----  -----------  ---------  --------  -------  ---------
        books     memory  path  write  allocations  min         1000000  1000001  +1 (0.0%)

        Improvements (better than the baseline: refresh it) (1):
        workload  store   keys  phase      metric      statistic  baseline  current            change
        --------  ------  ----  ---------  ----------  ---------  --------  -------  ----------------
        books     memory  path  footprint  live_bytes  min          1.2 MB   1.1 MB  -50.0 kB (-4.2%)

        Timing changes (advisory: one run per side cannot tell a change from noise) (2):
        workload  store   keys  phase  metric   statistic  baseline  current  change
        --------  ------  ----  -----  -------  ---------  --------  -------  ------
        books     memory  path  write  latency  p50         10.0 µs  12.0 µs  +20.0%
        books     sqlite  path  write  latency  p50          2.0 ms   1.0 ms  -50.0%

        1 regressed, 1 improved, 0 unchanged, 2 advisory, 0 inconclusive, 0 added, 1 removed (deterministic metrics on every statistic, tolerance 0 (instructions 0.5%); timings advisory beyond 10%)

        """)
  }

  @Test("an unchanged comparison reports only its summary")
  func quietReport() throws {
    let comparison = try Comparison(
      baseline: [Fixtures.row(p50: 100)], current: [Fixtures.row(p50: 101)],
      options: ComparisonOptions(thresholdPercent: 5, deterministicTolerancePercent: 0.5))
    #expect(
      comparison.report()
        == "0 regressed, 0 improved, 1 unchanged, 0 advisory, 0 inconclusive, 0 added, 0 removed (deterministic metrics on every statistic, tolerance 0.5% (instructions 0.5%); timings advisory beyond 5%)\n"
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
        workload,variant,store,keys,phase,metric,unit,better,deterministic,baseline,current,ratio,ci_low,ci_high,p_value,status,statistic
        books,,memory,path,write,latency,ns,lower,false,1000,1250,1.25,,,,advisory,p50
        books,,memory,path,dedup,objects,count,lower,false,,90,,,,,added,p50
        books,,memory,path,dedup,records,count,lower,false,40,,,,,,removed,p50

        """)
    #expect(try CSV.rows(Verdict.self, from: text, file: "c.csv") == comparison.verdicts)
  }
}

extension Array {
  /// The single element, or nil.
  fileprivate var only: Element? { count == 1 ? first : nil }
}
