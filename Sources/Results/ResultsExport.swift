import JSON

/// A run's rows as the JSON that continuous-benchmarking services read (`cachebench export`);
/// Apollo iOS's dataset is ``ApolloDataset``'s.
///
/// - **Bencher Metric Format** ([BMF](https://bencher.dev/docs/reference/bencher-metric-format)):
///   one object per benchmark, named `workload[variant]/store/keys/phase`, holding one measure per
///   metric, named as the metric (`latency`, the slug of Bencher's built-in measure in
///   nanoseconds; `reads_per_second`, ...): `value` is the p50, and `lower_value` and
///   `upper_value` the samples' range (min and max) where the row has more than one sample.
///   ```json
///   {"default/memory/path/write": {"latency": {"value": 343000, "lower_value": 117885, "upper_value": 4375792}}}
///   ```
/// - **github-action-benchmark**'s custom JSON (tools `customSmallerIsBetter` and
///   `customBiggerIsBetter`): an array of `{"name", "unit", "value", "range", "extra"}`, named
///   `workload[variant]/store/keys/phase/metric`, `value` the p50, `range` `± stddev` where the row
///   has more than one sample, `extra` its n, p90 and p99. One file holds one direction: the rows
///   whose `better` is `lower` for the first tool, `higher` for the second.
///   ```json
///   [{"name": "default/memory/path/write/latency", "unit": "ns", "value": 343000, "range": "± 2711492.1", "extra": "n=2000 p90=2023664.4 p99=4375792.4"}]
///   ```
package enum ResultsExport {
  /// The formats `export` writes.
  package enum Format: String, Sendable, CaseIterable {
    case bmf
    case githubActionBenchmark = "github-action-benchmark"
    /// Apollo iOS's performance dataset (``ApolloDataset``).
    case apollo
    /// A results CSV again (docs/csv.md), through the one reader and writer: with
    /// `--deterministic-only`, the gate's filter (scripts/gate), which a quoted comma in a field
    /// cannot shift as it shifted `awk -F,`.
    case csv
  }

  /// The benchmark a row belongs to: `workload[variant]/store/keys/phase`.
  package static func benchmarkName(_ key: MetricKey) -> String {
    let variant = key.variantColumn.isEmpty ? "" : "[\(key.variantColumn)]"
    return "\(key.workload)\(variant)/\(key.store)/\(key.keys)/\(key.phase.rawValue)"
  }

  /// Bencher Metric Format JSON of `rows`, benchmarks and measures in the order the rows give.
  package static func bmf(_ rows: [MetricRow]) -> String {
    var benchmarks: [(name: String, measures: [String])] = []
    var index: [String: Int] = [:]
    for row in rows {
      let name = benchmarkName(row.key)
      var measure = "\(JSONText.string(row.key.metric)): {\"value\": \(JSONText.number(row.summary.p50))"
      if row.summary.n > 1 {
        measure += ", \"lower_value\": \(JSONText.number(row.summary.min)), \"upper_value\": \(JSONText.number(row.summary.max))"
      }
      measure += "}"
      if let position = index[name] {
        benchmarks[position].measures.append(measure)
      } else {
        index[name] = benchmarks.count
        benchmarks.append((name, [measure]))
      }
    }
    let body = benchmarks.map { name, measures in
      "  \(JSONText.string(name)): {\n    " + measures.joined(separator: ",\n    ") + "\n  }"
    }
    return body.isEmpty ? "{}\n" : "{\n" + body.joined(separator: ",\n") + "\n}\n"
  }

  /// github-action-benchmark's custom JSON of the rows whose `better` is `better`.
  package static func githubActionBenchmark(_ rows: [MetricRow], better: Better) -> String {
    let entries = rows.filter { $0.better == better }.map { row -> String in
      let summary = row.summary
      var fields = [
        "\"name\": \(JSONText.string(row.key.description))", "\"unit\": \(JSONText.string(row.unit.rawValue))",
        "\"value\": \(JSONText.number(summary.p50))",
      ]
      if summary.n > 1 { fields.append("\"range\": \(JSONText.string("± \(CSVNumber.format(summary.stddev))"))") }
      let extra =
        "n=\(summary.n) p90=\(CSVNumber.format(summary.p90)) p99=\(CSVNumber.format(summary.p99))"
        + (row.deterministic ? " deterministic" : "")
      fields.append("\"extra\": \(JSONText.string(extra))")
      return "  {" + fields.joined(separator: ", ") + "}"
    }
    return entries.isEmpty ? "[]\n" : "[\n" + entries.joined(separator: ",\n") + "\n]\n"
  }
}

/// JSON text of strings and numbers, written by hand so that the output keeps the rows' order.
enum JSONText {
  /// A JSON string literal, as ``JSONString`` escapes it.
  static func string(_ text: String) -> String { JSONString.quoted(text) }

  /// A finite number as JSON: integers without a fraction, others as Swift's shortest form.
  static func number(_ value: Double) -> String { CSVNumber.format(value) }
}
