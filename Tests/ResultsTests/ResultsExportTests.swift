import Foundation
import Testing

@testable import Results

@Suite("Exports for continuous-benchmarking services")
struct ResultsExportTests {
  /// A timing of 3 samples, a deterministic count, a throughput (higher is better), one of a
  /// variant, and a store label with a quote and a backslash, which the JSON must escape.
  static let rows: [MetricRow] = {
    var timing = Fixtures.row(p50: 200)
    timing.summary = Summary([100, 200, 900])!
    var allocations = Fixtures.row("allocations", p50: 12, unit: .count, deterministic: true)
    allocations.summary = Summary([12])!
    var throughput = Fixtures.row("reads_per_second", phase: .read, p50: 5_000, unit: .perSecond, better: .higher)
    throughput.key.variant = "readers=2"
    return [
      timing, allocations, throughput,
      Fixtures.row("records", phase: .dedup, p50: 7, unit: .count, deterministic: true, store: #"my "odd" \store"#),
    ]
  }()

  static func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }

  /// BMF's published JSON schema: an object of benchmarks, each an object of measures, each an
  /// object with a number `value` and optional numbers `lower_value` and `upper_value`, nothing else.
  @Test("BMF: the published shape; a benchmark per workload[variant]/store/keys/phase, a measure per metric, p50 within its range")
  func bmf() throws {
    let object = try #require(try Self.json(ResultsExport.bmf(Self.rows)) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "books/memory/path/write", "books[readers=2]/memory/path/read", #"books/my "odd" \store/path/dedup"#,
      ])
    var measures = 0
    for (name, benchmark) in object {
      #expect(name.count <= 1024)
      let benchmark = try #require(benchmark as? [String: Any])
      for (measure, metric) in benchmark {
        #expect(measure.count <= 64)
        let metric = try #require(metric as? [String: Any])
        #expect(Set(metric.keys).isSubset(of: ["value", "lower_value", "upper_value"]))
        let value = try #require(metric["value"] as? Double)
        if let lower = metric["lower_value"] as? Double, let upper = metric["upper_value"] as? Double {
          #expect(lower <= value && value <= upper)
        }
        measures += 1
      }
    }
    #expect(measures == Self.rows.count)
    let write = try #require(object["books/memory/path/write"] as? [String: [String: Double]])
    #expect(write["latency"] == ["value": 200, "lower_value": 100, "upper_value": 900])
    #expect(write["allocations"] == ["value": 12])
  }

  /// github-action-benchmark's custom tools read an array of objects with a string `name` and
  /// `unit`, a number `value`, and optional strings `range` and `extra`.
  @Test("github-action-benchmark: the custom tools' shape, one direction a file, the p50 and ± the standard deviation")
  func githubActionBenchmark() throws {
    let lower = try #require(try Self.json(ResultsExport.githubActionBenchmark(Self.rows, better: .lower)) as? [[String: Any]])
    let higher = try #require(try Self.json(ResultsExport.githubActionBenchmark(Self.rows, better: .higher)) as? [[String: Any]])
    #expect(lower.count == 3 && higher.count == 1)
    for entry in lower + higher {
      #expect(Set(entry.keys).isSubset(of: ["name", "unit", "value", "range", "extra"]))
      #expect(entry["name"] is String && entry["unit"] is String && entry["value"] is Double)
      #expect(entry["range"] == nil || entry["range"] is String)
    }
    #expect(lower[0]["name"] as? String == "books/memory/path/write/latency")
    #expect(lower[0]["value"] as? Double == 200)
    // The standard deviation of 100, 200, 900, by hand: mean 400, deviations -300, -200, 500;
    // squares 90,000 + 40,000 + 250,000 = 380,000 over n - 1 = 2: 190,000, whose root is 435.89.
    let range = try #require(lower[0]["range"] as? String)
    #expect(range.hasPrefix("± 435.889"))
    #expect(lower[1]["range"] == nil, "a single sample has no spread")
    #expect(higher[0]["name"] as? String == "books[readers=2]/memory/path/read/reads_per_second")
    #expect(higher[0]["unit"] as? String == "per_s")
  }

  @Test("nothing to export is an empty object or array, still valid JSON")
  func empty() throws {
    #expect(try Self.json(ResultsExport.bmf([])) as? [String: Any] != nil)
    #expect(try Self.json(ResultsExport.githubActionBenchmark([], better: .lower)) as? [Any] != nil)
  }

  /// The exports' strings go through GraphQLLanguage's one escaper. Ordinary text comes out as
  /// the exports' own escaper wrote it; U+0008 and U+000C, `\u0008` and `\u000c` before, are now
  /// `\b` and `\f`, which read the same.
  @Test("strings escape as before: quotes, backslashes, \\n \\r \\t, other controls as \\u00XX; \\b and \\f short")
  func strings() {
    #expect(JSONText.string("Dune \"1\"\n\r\t\\ é 😀 a/b \u{1}\u{1F}") == #""Dune \"1\"\n\r\t\\ é 😀 a/b \u0001\u001f""#)
    #expect(JSONText.string("\u{8}\u{C}") == #""\b\f""#)
  }
}
