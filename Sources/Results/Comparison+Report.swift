extension Comparison {
  /// The comparison for a terminal: a table of regressions, a table of improvements, and a summary
  /// line. Metrics that did not change, and added or removed ones, are only counted.
  ///
  /// ```
  /// Regressions (1):
  /// workload  store   keys  phase  metric   baseline  current  change
  /// --------  ------  ----  -----  -------  --------  -------  ------
  /// books     memory  path  write  latency   10.0 µs  12.0 µs  +20.0%
  ///
  /// 1 regressed, 0 improved, 3 unchanged, 0 added, 0 removed (threshold 10%; deterministic metrics must be equal)
  /// ```
  public func report() -> String {
    var text = ""
    for (title, verdicts) in [("Regressions", regressions), ("Improvements", improvements)]
    where !verdicts.isEmpty {
      text += "\(title) (\(verdicts.count)):\n"
      text += Self.table(verdicts).render()
      text += "\n"
    }
    let counts = VerdictStatus.regressionOrder.map { "\(count($0)) \($0.rawValue)" }
    text += counts.joined(separator: ", ") + " (\(thresholdDescription))\n"
    return text
  }

  /// `threshold 10%; deterministic metrics must be equal`.
  var thresholdDescription: String {
    let timing = "threshold \(HumanFormat.count(options.threshold * 100))%"
    let deterministic =
      options.deterministicTolerance == 0
      ? "deterministic metrics must be equal"
      : "deterministic tolerance \(HumanFormat.count(options.deterministicTolerance * 100))%"
    return "\(timing); \(deterministic)"
  }

  /// One line per verdict; the variant column only when some metric has a variant.
  static func table(_ verdicts: [Verdict]) -> TextTable {
    let showVariant = verdicts.contains { !$0.key.variant.isEmpty }
    var columns: [TextTable.Column] = ["workload"]
    if showVariant { columns.append("variant") }
    columns += [
      "store", "keys", "phase", "metric",
      TextTable.Column("baseline", alignment: .right),
      TextTable.Column("current", alignment: .right),
      TextTable.Column("change", alignment: .right),
    ]
    let rows = verdicts.map { verdict in
      var row = [verdict.key.workload]
      if showVariant { row.append(verdict.key.variant) }
      row += [
        verdict.key.store, verdict.key.keys.rawValue, verdict.key.phase.rawValue,
        verdict.key.metric,
        verdict.baseline.map { HumanFormat.value($0, unit: verdict.unit) } ?? "",
        verdict.current.map { HumanFormat.value($0, unit: verdict.unit) } ?? "",
        verdict.ratio.map { HumanFormat.change(ratio: $0) } ?? "",
      ]
      return row
    }
    return TextTable(columns: columns, rows: rows)
  }
}

extension VerdictStatus {
  /// The order the summary counts them in.
  static let regressionOrder: [VerdictStatus] = [
    .regressed, .improved, .unchanged, .added, .removed,
  ]
}

/// The comparison as CSV (`compare --out`): one row per verdict.
///
/// Columns: `workload,variant,store,keys,phase,metric,unit,better,deterministic,baseline_p50,
/// current_p50,ratio,status`; `baseline_p50` is empty for an added metric, `current_p50` for a
/// removed one, `ratio` (current / baseline) when either is missing or the baseline is 0.
extension Verdict: CSVRepresentable {
  public static let columns = [
    "workload", "variant", "store", "keys", "phase", "metric", "unit", "better", "deterministic",
    "baseline_p50", "current_p50", "ratio", "status",
  ]

  public var csvFields: [String] {
    [
      key.workload, key.variant, key.store, key.keys.rawValue, key.phase.rawValue, key.metric,
      unit.rawValue, better.rawValue, deterministic ? "true" : "false",
      baseline.map(CSVNumber.format) ?? "", current.map(CSVNumber.format) ?? "",
      ratio.map(CSVNumber.format) ?? "", status.rawValue,
    ]
  }

  /// Reads a verdict back; `ratio` is derived from the medians, so its column is not read.
  public init(csvFields row: CSVFields) throws(CSVError) {
    self.init(
      key: try MetricKey(csvFields: row),
      unit: try row.value("unit", as: MetricUnit.self),
      better: try row.value("better", as: Better.self),
      deterministic: try row.boolean("deterministic"),
      baseline: try row.optionalNumber("baseline_p50"),
      current: try row.optionalNumber("current_p50"),
      status: try row.value("status", as: VerdictStatus.self))
  }
}
