import Foundation
import Testing

@testable import Results

/// Issue 33: a results, samples or comparison CSV may hold any finite number the parser accepts,
/// up to 1.8e308 and down to 5e-324; nothing that reads one may trap (`report` died with SIGILL
/// converting a p50 of 1e308 to Int; `compare --out` on a ratio that overflowed), and a value that
/// cannot be shown is shown as such.
@Suite("Extreme values in results files")
struct ExtremeValuesTests {
  static let extremes: [Double] = [1e308, -1e308, 9.3e18, 5e-324, -5e-324, 0, 1, Double.greatestFiniteMagnitude]

  /// Every metric kind the report draws, at one value.
  static func rows(_ value: Double, runID: String = "r1") -> [MetricRow] {
    let metrics: [(Phase, String, MetricUnit, Bool)] = [
      (.write, "latency", .ns, false), (.read, "latency", .ns, false), (.dedup, "records", .count, true),
      (.dedup, "store_bytes", .bytes, true), (.dedup, "object_ratio", .ratio, true), (.footprint, "bytes_per_record", .bytes, true),
      (.write, "instructions", .count, true), (.traffic, "hit_ratio", .ratio, true),
      (.concurrency, "reads_per_second", .perSecond, false),
    ]
    var rows: [MetricRow] = []
    for keys in ["path", "typePolicy"] {
      for variant in ["maxSizeBytes=10%", "maxSizeBytes=50%"] {
        for (phase, metric, unit, deterministic) in metrics {
          let summary = Summary(n: 3, min: value, p50: value, p90: value, p99: value, max: value, mean: value, stddev: abs(value))
          rows.append(
            MetricRow(
              run: RunInfo(runID: runID, timestamp: "2025-11-22T07:39:12Z", gitRev: "a", host: "h"),
              key: MetricKey(workload: "w", variant: variant, store: "memory", keys: keys, phase: phase, metric: metric),
              unit: unit, better: .lower, deterministic: deterministic, summary: summary))
        }
      }
    }
    return rows
  }

  @Test("compare, ab's judgement, the verdict CSV, export and the report take them whole, both ways", arguments: extremes)
  func noTrap(value: Double) throws {
    for other in Self.extremes {
      let (base, current) = (Self.rows(other), Self.rows(value))
      let comparison = try Comparison(baseline: base, current: current)
      _ = comparison.report()
      let csv = CSV.document(comparison.verdicts)
      let readBack = try CSV.rows(Verdict.self, from: csv, file: "verdicts.csv")
      #expect(readBack.count == comparison.verdicts.count)
      for verdict in comparison.verdicts { #expect(verdict.ratio.map(\.isFinite) ?? true) }
      let repeated = try RepeatedComparison(base: [base, base], current: [current, current])
      _ = repeated.report()
      _ = CSV.document(repeated.verdicts)
      let samples = [SampleRow(runID: "r1", key: current[0].key, unit: .ns, index: 0, value: value)]
      let page = HTMLReport(rows: current, samples: samples, verdicts: comparison.verdicts, generator: "test").render()
      #expect(page.hasSuffix("</html>\n"))
      // Every coordinate a number a browser draws.
      #expect(page.firstMatch(of: try Regex(#"="-?(nan|inf)"#)) == nil)
      _ = ResultsExport.bmf(current)
      _ = ResultsExport.githubActionBenchmark(current, better: .lower)
    }
  }

  @Test("a value past 10^15 is shown in exponent form, never as 300 digits; 1e-308 as a count is 0")
  func shown() {
    #expect(HumanFormat.count(1e308) == "1.0e+308")
    #expect(HumanFormat.bytes(1e308) == "1.0e+296 TB")
    #expect(HumanFormat.nanoseconds(-1e308) == "-1.0e+299 s")
    #expect(HumanFormat.count(1e-308) == "0")
    #expect(HumanFormat.count(2.5) == "2.5")
    #expect(HumanFormat.change(ratio: 1e300) == "1.0e+302%")
    #expect(HumanFormat.ratio(Double.infinity) == "∞")
    #expect(SVGChart.fixed(1e308) == "1000000.0")
    #expect(SVGChart.fixed(.nan) == "0.0")
  }
}
