extension Comparison {
  /// The comparison for a terminal: a table each of regressions, improvements and advisory timing
  /// changes, and a summary line. Unchanged, added and removed metrics are only counted.
  ///
  /// ```
  /// Regressions (1):
  /// workload  store   keys  phase  metric       statistic  baseline  current  change
  /// --------  ------  ----  -----  -----------  ---------  --------  -------  ---------------
  /// books     memory  path  write  allocations  max              12       13  +1 (+8.3%)
  ///
  /// 1 regressed, 0 improved, 3 unchanged, 0 advisory, 0 inconclusive, 0 added, 0 removed (...)
  /// ```
  package func report() -> String {
    var text = ""
    let sections: [(VerdictStatus, String)] = [
      (.regressed, "Regressions"),
      (.improved, "Improvements (better than the baseline: refresh it)"),
      (.advisory, "Timing changes (advisory: one run per side cannot tell a change from noise)"),
    ]
    for (status, title) in sections {
      let verdicts = verdicts(status)
      guard !verdicts.isEmpty else { continue }
      text += "\(title) (\(verdicts.count)):\n"
      text += Self.table(verdicts).render()
      text += "\n"
    }
    let counts = VerdictStatus.allCases.map { "\(count($0)) \($0.rawValue)" }
    text += counts.joined(separator: ", ") + " (\(thresholdDescription))\n"
    return text
  }

  /// `deterministic metrics on every statistic, tolerance 0 (instructions 0.5%); timings advisory beyond 10%`,
  /// then `; 250 metrics by Baselines/gate.thresholds.csv` when a thresholds file gave some their own.
  var thresholdDescription: String {
    let tolerance =
      options.deterministicTolerance == 0 ? "0" : "\(HumanFormat.count(options.deterministicTolerance * 100))%"
    let instructions = HumanFormat.count(Swift.max(options.deterministicTolerance, ComparisonOptions.instructionTolerance) * 100)
    var text =
      "deterministic metrics on every statistic, tolerance \(tolerance) (instructions \(instructions)%); "
      + "timings advisory beyond \(HumanFormat.count(options.threshold * 100))%"
    if let file = options.thresholdsFile {
      let count = verdicts.reduce(0) { $0 + (options.tolerances[$1.key] == nil ? 0 : 1) }
      text += "; \(count) metric\(count == 1 ? "" : "s") by \(file)"
    }
    return text
  }

  /// One line per verdict; the variant column only when some metric has a variant.
  static func table(_ verdicts: [Verdict]) -> TextTable {
    let showVariant = verdicts.contains { !$0.key.variantColumn.isEmpty }
    var columns: [TextTable.Column] = ["workload"]
    if showVariant { columns.append("variant") }
    columns += [
      "store", "keys", "phase", "metric", "statistic",
      TextTable.Column("baseline", alignment: .right),
      TextTable.Column("current", alignment: .right),
      TextTable.Column("change", alignment: .right),
    ]
    let rows = verdicts.map { verdict in
      var row = [verdict.key.workload]
      if showVariant { row.append(verdict.key.variantColumn) }
      row += [
        verdict.key.store, verdict.key.keys, verdict.key.phase.rawValue, verdict.key.metric,
        verdict.statistic.rawValue,
        verdict.baseline.map { HumanFormat.value($0, unit: verdict.unit) } ?? "",
        verdict.current.map { HumanFormat.value($0, unit: verdict.unit) } ?? "",
        change(verdict),
      ]
      return row
    }
    return TextTable(columns: columns, rows: rows)
  }

  /// `+1 (+8.3%)` for a deterministic metric: the absolute delta first, since a percentage of a
  /// large count rounds a real change to `0.0%`; `+20.0%` for a timing.
  static func change(_ verdict: Verdict) -> String {
    guard let delta = verdict.delta else { return "" }
    let percent = verdict.ratio.map { HumanFormat.change(ratio: $0) }
    guard verdict.deterministic else { return percent ?? "" }
    let absolute = (delta > 0 ? "+" : "") + HumanFormat.value(delta, unit: verdict.unit)
    return percent.map { "\(absolute) (\($0))" } ?? absolute
  }
}

/// The comparison as CSV (`compare --out`): one row per verdict, docs/gate.md's columns and then
/// the statistic the values are.
///
/// Columns: `workload,variant,store,keys,phase,metric,unit,better,deterministic,baseline,current,
/// ratio,ci_low,ci_high,p_value,status,statistic`; `baseline` is empty for an added metric,
/// `current` for a removed one, `ratio` (current / baseline) when either is missing or the
/// baseline is 0. `ci_low`, `ci_high` and `p_value` come from repeated runs (`cachebench ab`), and
/// are empty from single runs.
extension Verdict: CSVRepresentable {
  package static let columns = [
    "workload", "variant", "store", "keys", "phase", "metric", "unit", "better", "deterministic",
    "baseline", "current", "ratio", "ci_low", "ci_high", "p_value", "status", "statistic",
  ]

  package var csvFields: [String] {
    [
      key.workload, key.variantColumn, key.store, key.keys, key.phase.rawValue, key.metric,
      unit.rawValue, better.rawValue, deterministic ? "true" : "false",
      baseline.map(CSVNumber.format) ?? "", current.map(CSVNumber.format) ?? "",
      ratio.map(CSVNumber.format) ?? "", ciLow.map(CSVNumber.format) ?? "", ciHigh.map(CSVNumber.format) ?? "",
      pValue.map(CSVNumber.format) ?? "", status.rawValue, statistic.rawValue,
    ]
  }

  /// Reads a verdict back; `ratio` is derived from the values, so its column is not read.
  package init(csvFields row: CSVFields) throws(CSVError) {
    self.init(
      key: try MetricKey(csvFields: row),
      unit: try row.value("unit", as: MetricUnit.self),
      better: try row.value("better", as: Better.self),
      deterministic: try row.boolean("deterministic"),
      statistic: try row.value("statistic", as: Summary.Statistic.self),
      baseline: try row.optionalNumber("baseline"),
      current: try row.optionalNumber("current"),
      status: try row.value("status", as: VerdictStatus.self),
      ciLow: try row.optionalNumber("ci_low"), ciHigh: try row.optionalNumber("ci_high"),
      pValue: try row.optionalNumber("p_value"))
  }
}
