import Foundation
import Testing

@testable import Results

/// Thresholds per metric (docs/gate.md#thresholds): the file, its precedence, the verdicts it
/// changes, and the file `thresholds update` writes. Made-up numbers, exact error texts.
@Suite("thresholds: tolerances per metric")
struct ThresholdsTests {
  static let header = "workload,variant,store,keys,phase,metric,relative_percent,absolute\n"

  /// The thresholds of `body` (after the header), read from a scratch file `t.csv`.
  private func thresholds(_ body: String) throws -> Thresholds {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/t.csv"
    try (Self.header + body).write(toFile: path, atomically: true, encoding: .utf8)
    let thresholds = try Thresholds.read(from: path)
    return thresholds
  }

  /// The error reading `body` gives, with the scratch directory taken off the path.
  private func error(_ body: String) throws -> String {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/t.csv"
    try (Self.header + body).write(toFile: path, atomically: true, encoding: .utf8)
    do {
      _ = try Thresholds.read(from: path)
      return "no error"
    } catch {
      return "\(error)".replacingOccurrences(of: directory + "/", with: "")
    }
  }

  @Test("a file reads: wildcards are nil, an empty variant names the rows without one, tolerances in percent and in the unit")
  func reads() throws {
    let file = try thresholds("*,*,*,*,*,instructions,0.5,0\nbooks,,memory,path,write,allocations,0,2\n")
    #expect(file.lines.map(\.line) == [2, 3])
    #expect(
      file.lines[0].entry
        == ThresholdEntry(pattern: MetricPattern(metric: "instructions"), tolerance: Tolerance(relative: 0.005, absolute: 0)))
    #expect(
      file.lines[1].entry
        == ThresholdEntry(
          pattern: MetricPattern(workload: "books", variant: "", store: "memory", keys: "path", phase: .write, metric: "allocations"),
          tolerance: Tolerance(relative: 0, absolute: 2)))
    #expect(try thresholds("").lines.isEmpty)
  }

  @Test(
    "a bad entry: 65's error names the file, the line and the column",
    arguments: [
      ("*,*,*,*,*,allocations,x,0\n", "t.csv:2: column 'relative_percent': expected a number, found 'x'"),
      ("*,*,*,*,*,allocations,1,-2\n", "t.csv:2: column 'absolute': expected a tolerance of 0 or more, found '-2'"),
      ("*,*,*,*,*,allocations,1,inf\n", "t.csv:2: column 'absolute': expected a number, found 'inf'"),
      (
        "*,*,*,*,*,allocations,1,0\n*,*,*,*,*,allocations,2,0\n",
        "t.csv:3: a second entry for */*/*/*/*/allocations: line 2 holds it already"
      ),
      (
        "*,*,*,*,wrte,allocations,1,0\n",
        "t.csv:2: column 'phase': expected * or one of parse, write, normalize, merge, read, fragment, watch, lookup, footprint, dedup, traffic, gc, disk, concurrency, tier2, tier3, lists, ttl, refresh, shard, found 'wrte'"
      ),
      ("*,*,,*,*,allocations,1,0\n", "t.csv:2: column 'store': expected a name, found an empty field"),
      ("*,*,*,*,*,allocations,1\n", "t.csv:2: expected 8 fields as in the header, found 7"),
    ])
  func badEntry(body: String, message: String) throws {
    #expect(try error(body) == message)
  }

  @Test("a file without a column, or cut short, is refused at its line")
  func badFile() throws {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/t.csv"
    try "workload,variant,store,keys,phase,metric,absolute\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: CSVError(file: path, line: 1, message: "missing column 'relative_percent'")) { try Thresholds.read(from: path) }
    try (Self.header + "*,*,*,*,*,allocations,1,0").write(toFile: path, atomically: true, encoding: .utf8)
    #expect(
      throws: CSVError(
        file: path, line: 2,
        message:
          "the last line has no line end: the file was cut short or not written whole (cachebench ends every file it writes with one)")
    ) {
      try Thresholds.read(from: path)
    }
  }

  @Test("the entry that names the most columns wins, wherever it stands; a row no entry matches has none")
  func precedence() throws {
    let file = try thresholds(
      """
      books,,memory,path,write,allocations,0,3
      *,*,*,*,*,allocations,1,0
      *,*,memory,*,*,allocations,2,0
      *,*,*,*,read,*,4,0

      """)
    #expect(try file.tolerance(for: Fixtures.key("allocations")) == Tolerance(relative: 0, absolute: 3))
    #expect(try file.tolerance(for: Fixtures.key("allocations", keys: "typePolicy")) == Tolerance(relativePercent: 2, absolute: 0))
    #expect(
      try file.tolerance(for: Fixtures.key("allocations", store: "sqlite", keys: "typePolicy"))
        == Tolerance(relativePercent: 1, absolute: 0))
    #expect(try file.tolerance(for: Fixtures.key("latency", phase: .read)) == Tolerance(relativePercent: 4, absolute: 0))
    #expect(try file.tolerance(for: Fixtures.key("latency")) == nil)
    // The variant: empty names the rows without one; a concurrency row's is its whole column.
    let variants = try thresholds("*,,*,*,*,*,1,0\n*,readers=2,*,*,*,*,2,0\n")
    #expect(try variants.tolerance(for: Fixtures.key()) == Tolerance(relativePercent: 1, absolute: 0))
    #expect(try variants.tolerance(for: Fixtures.key(variant: "duplication=0.5")) == nil)
    var concurrent = Fixtures.key("reads_per_second", phase: .concurrency)
    concurrent.readers = 2
    #expect(try variants.tolerance(for: concurrent) == Tolerance(relativePercent: 2, absolute: 0))
  }

  @Test("two entries that match a row and name as many columns: an error naming both lines and the row")
  func tie() throws {
    let file = try thresholds("*,*,memory,*,*,allocations,1,0\n*,*,*,path,*,allocations,2,0\nbooks,,memory,path,write,allocations,0,0\n")
    // The most specific entry settles the row both match; another row meets the tie.
    #expect(try file.tolerance(for: Fixtures.key("allocations")) == Tolerance(relative: 0, absolute: 0))
    #expect(
      throws: CSVError(
        file: file.file, line: 3,
        message:
          "line 2 and line 3 both match books/memory/path/read/allocations, each naming 2 columns: add an entry that names more, or remove one"
      )
    ) {
      try file.tolerance(for: Fixtures.key("allocations", phase: .read))
    }
  }

  @Test("an entry naming a metric no row has is an error at its line; one of another workload is not checked")
  func unknownMetric() throws {
    let rows = [Fixtures.row("allocations", p50: 10, unit: .count, deterministic: true)]
    try thresholds("*,*,*,*,write,allocations,1,0\nother,*,*,*,*,alocations,1,0\n").checkMetrics(of: rows)
    let typo = try thresholds("*,*,*,*,*,allocations,1,0\n*,*,*,*,write,alocations,1,0\n")
    #expect(
      throws: CSVError(
        file: typo.file, line: 3, field: "metric", message: "unknown metric 'write/alocations': no row of the files compared has it")
    ) {
      try typo.checkMetrics(of: rows)
    }
    let wrongPhase = try thresholds("*,*,*,*,read,allocations,1,0\n")
    #expect(
      throws: CSVError(
        file: wrongPhase.file, line: 2, field: "metric", message: "unknown metric 'read/allocations': no row of the files compared has it")
    ) {
      try wrongPhase.checkMetrics(of: rows)
    }
  }

  // MARK: - Verdicts

  /// The status of one row from `baseline` to `current`, with the global options and the file's
  /// `tolerance` for the row when given.
  private func status(
    _ baseline: Double, _ current: Double, metric: String = "allocations", deterministic: Bool = true, tolerance: Tolerance? = nil,
    thresholdPercent: Double = 10
  ) throws -> VerdictStatus {
    let row = { (value: Double) in
      Fixtures.row(metric, p50: value, unit: deterministic ? .count : .ns, deterministic: deterministic)
    }
    var options = ComparisonOptions(thresholdPercent: thresholdPercent)
    if let tolerance { options.tolerances = [row(baseline).key: tolerance] }
    return try #require(try Comparison(baseline: [row(baseline)], current: [row(current)], options: options).verdicts.first).status
  }

  @Test("a deterministic row within its own tolerance passes though beyond the default, and fails beyond its own")
  func deterministicVerdicts() throws {
    // The default is equality: 100 to 103 regresses. The file allows 5, or 2% of the baseline.
    #expect(try status(100, 103) == .regressed)
    #expect(try status(100, 103, tolerance: Tolerance(relativePercent: 2, absolute: 5)) == .unchanged)
    #expect(try status(100, 105, tolerance: Tolerance(relativePercent: 2, absolute: 5)) == .unchanged)  // exactly the bound
    #expect(try status(100, 106, tolerance: Tolerance(relativePercent: 2, absolute: 5)) == .regressed)
    #expect(try status(100, 94, tolerance: Tolerance(relativePercent: 2, absolute: 5)) == .improved)
    // The relative part serves large values: 2% of 1000 is 20.
    #expect(try status(1000, 1020, tolerance: Tolerance(relativePercent: 2, absolute: 5)) == .unchanged)
    #expect(try status(1000, 1021, tolerance: Tolerance(relativePercent: 2, absolute: 5)) == .regressed)
    // A baseline of 0 takes the absolute tolerance.
    #expect(try status(0, 5, tolerance: Tolerance(relativePercent: 50, absolute: 5)) == .unchanged)
    #expect(try status(0, 6, tolerance: Tolerance(relativePercent: 50, absolute: 5)) == .regressed)
  }

  @Test("instructions: a file's tolerance replaces the 0.5%, tighter or wider, still on the mean only")
  func instructionVerdicts() throws {
    #expect(try status(1_000_000, 1_003_000, metric: "instructions") == .unchanged)
    #expect(try status(1_000_000, 1_003_000, metric: "instructions", tolerance: Tolerance(relativePercent: 0.1, absolute: 0)) == .regressed)
    #expect(try status(1_000_000, 1_020_000, metric: "instructions") == .regressed)
    #expect(try status(1_000_000, 1_020_000, metric: "instructions", tolerance: Tolerance(relativePercent: 3, absolute: 0)) == .unchanged)
  }

  @Test("a timing: its own tolerance in place of --threshold, both ways; still advisory, never failing")
  func timingVerdicts() throws {
    // Beyond the global 10%, within its own 30%: unchanged.
    #expect(try status(1000, 1200, deterministic: false) == .advisory)
    #expect(try status(1000, 1200, deterministic: false, tolerance: Tolerance(relativePercent: 30, absolute: 0)) == .unchanged)
    // Within the global 10%, beyond its own 2%: advisory.
    #expect(try status(1000, 1050, deterministic: false) == .unchanged)
    #expect(try status(1000, 1050, deterministic: false, tolerance: Tolerance(relativePercent: 2, absolute: 0)) == .advisory)
    #expect(try status(1000, 1050, deterministic: false, tolerance: Tolerance(relativePercent: 2, absolute: 50)) == .unchanged)
  }

  @Test("the report names the file and how many metrics it decided")
  func reportLine() throws {
    let rows = [Fixtures.row("allocations", p50: 10, unit: .count, deterministic: true), Fixtures.row(p50: 10)]
    var options = ComparisonOptions()
    options.tolerances = [rows[0].key: Tolerance(relative: 0, absolute: 1)]
    options.thresholdsFile = "t.csv"
    let report = try Comparison(baseline: rows, current: rows, options: options).report()
    #expect(
      report
        == "0 regressed, 0 improved, 2 unchanged, 0 advisory, 0 inconclusive, 0 added, 0 removed (deterministic metrics on every "
        + "statistic, tolerance 0 (instructions 0.5%); timings advisory beyond 10%; 1 metric by t.csv)\n")
  }

  // MARK: - thresholds update

  /// A row of `metric` with every statistic given.
  private func row(
    _ metric: String, deterministic: Bool, n: Int = 4, min: Double, p50: Double, p90: Double, max: Double, mean: Double
  ) -> MetricRow {
    MetricRow(
      run: Fixtures.run, key: Fixtures.key(metric), unit: deterministic ? .count : .ns, better: .lower, deterministic: deterministic,
      summary: Summary(n: n, min: min, p50: p50, p90: p90, p99: max, max: max, mean: mean, stddev: 1))
  }

  @Test("update: deterministic rows get the largest difference a run shows, timings their spread, each checked by hand")
  func update() throws {
    let baseline = [
      row("allocations", deterministic: true, min: 10, p50: 20, p90: 30, max: 40, mean: 25),
      row("instructions", deterministic: true, min: 900, p50: 1000, p90: 1100, max: 1200, mean: 1050),
      row("latency", deterministic: false, min: 800, p50: 1000, p90: 1123, max: 2000, mean: 1100),
      row("bytes", deterministic: true, min: 5, p50: 5, p90: 5, max: 5, mean: 5),
    ]
    let second = [
      // max 40 → 43 is the largest move: 3.
      row("allocations", deterministic: true, min: 11, p50: 19, p90: 30, max: 43, mean: 26),
      // The mean only: 1050 → 1058 (min's 900 → 800 is not judged).
      row("instructions", deterministic: true, min: 800, p50: 1000, p90: 1100, max: 1200, mean: 1058),
      // p50 1000 → 1080: 8%, under the baseline's own (1123 − 1000) / 1000 = 12.3%.
      row("latency", deterministic: false, min: 700, p50: 1080, p90: 1500, max: 3000, mean: 1200),
      // Another n: left out.
      row("bytes", deterministic: true, n: 5, min: 9, p50: 9, p90: 9, max: 9, mean: 9),
    ]
    let third = [
      row("allocations", deterministic: true, min: 10, p50: 22, p90: 30, max: 40, mean: 25),
      row("instructions", deterministic: true, min: 900, p50: 1000, p90: 1100, max: 1200, mean: 1041),
      // p50 1000 → 851: 14.9%, more than the spread.
      row("latency", deterministic: false, min: 700, p50: 851, p90: 1500, max: 3000, mean: 1200),
    ]
    let entries = try Thresholds.update(baseline: baseline, runs: [second, third])
    #expect(entries.map(\.pattern) == baseline.map { MetricPattern(exactly: $0.key) })
    #expect(
      entries.map(\.tolerance) == [
        Tolerance(relative: 0, absolute: 3), Tolerance(relative: 0.005, absolute: 9), Tolerance(relativePercent: 14.9, absolute: 0),
        Tolerance(relative: 0, absolute: 0),
      ])
    // Without runs: the baseline's own spread for the timing (12.3, rounded up to 12.3), 0 for the rest.
    let alone = try Thresholds.update(baseline: baseline, runs: [])
    #expect(
      alone.map(\.tolerance) == [
        Tolerance(relative: 0, absolute: 0), Tolerance(relative: 0.005, absolute: 0), Tolerance(relativePercent: 12.3, absolute: 0),
        Tolerance(relative: 0, absolute: 0),
      ])
    // Every run given passes against the baseline with the file written.
    var options = ComparisonOptions()
    options.tolerances = Dictionary(uniqueKeysWithValues: zip(baseline.map(\.key), entries.map(\.tolerance)))
    for run in [second, third] {
      let comparison = try Comparison(baseline: baseline, current: run, options: options)
      #expect(comparison.verdicts.filter { $0.key.metric != "bytes" }.allSatisfy { $0.status == .unchanged })
    }
    // As CSV: the columns of the file compare reads.
    #expect(
      CSV.document(entries) == Self.header
        + "books,,memory,path,write,allocations,0,3\nbooks,,memory,path,write,instructions,0.5,9\n"
        + "books,,memory,path,write,latency,14.9,0\nbooks,,memory,path,write,bytes,0,0\n")
  }

  @Test("update: a timing with a p50 of 0 gets its spread as an absolute tolerance; a run that redefines a metric is refused")
  func updateEdges() throws {
    let zero = row("latency", deterministic: false, min: 0, p50: 0, p90: 7, max: 9, mean: 3)
    #expect(try Thresholds.update(baseline: [zero], runs: []).map(\.tolerance) == [Tolerance(relative: 0, absolute: 7)])
    var redefined = zero
    redefined.better = .higher
    #expect(throws: ComparisonError.changedDefinition(zero.key, column: "better", baseline: "lower", current: "higher")) {
      try Thresholds.update(baseline: [zero], runs: [[redefined]])
    }
    #expect(Thresholds.roundedUpToTenth(12.31) == 12.4)
    #expect(Thresholds.roundedUpToTenth(12.3) == 12.3)
    #expect(Thresholds.roundedUpToTenth(0) == 0)
  }
}
