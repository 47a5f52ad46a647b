import Foundation

extension Thresholds {
  /// The entries `cachebench thresholds update` writes (docs/gate.md#thresholds-update): one per
  /// row of `baseline`, naming it exactly, with the tolerance the baseline and `runs` (more runs
  /// of the same build, each matched to the baseline by ``MetricKey``) show it needs. Pure: rows in,
  /// entries out, in the baseline's order.
  ///
  /// - A deterministic row is judged on the statistics `compare` judges (every one; `instructions`
  ///   on the mean only). Its `absolute` tolerance is the largest difference between the baseline
  ///   and a run on any of them, 0 without runs; its `relative_percent` is the default `compare`
  ///   applies, 0 (0.5 for `instructions`). Every run given then passes against the baseline.
  /// - A timing is judged on its p50. Its `relative_percent` is the larger of the baseline's own
  ///   spread above its median, (p90 − p50) / p50, and the largest relative move of the p50 from the
  ///   baseline to a run, in percent, rounded up to a tenth; its `absolute` tolerance is 0. A p50 of 0
  ///   has no relative change: the same spreads go to `absolute`, in the metric's unit.
  ///
  /// A run's row whose `n` differs from the baseline's is left out (any other `n` regresses,
  /// whatever the tolerance); a row a run lacks is judged from the others.
  ///
  /// ```swift
  /// let entries = try Thresholds.update(baseline: baselineRows, runs: [secondRun, thirdRun])
  /// try ResultsFile.write(entries, to: "Baselines/gate.thresholds.csv")
  /// ```
  ///
  /// - Throws: ``ComparisonError/changedDefinition(_:column:baseline:current:)`` when a run gives
  ///   a metric another `unit` or `better` than the baseline.
  package static func update(baseline: [MetricRow], runs: [[MetricRow]]) throws(ComparisonError) -> [ThresholdEntry] {
    let indexed = runs.map { rows in Dictionary(rows.map { ($0.key, $0) }) { first, _ in first } }
    var entries: [ThresholdEntry] = []
    entries.reserveCapacity(baseline.count)
    for row in baseline {
      var others: [MetricRow] = []
      for run in indexed {
        guard let other = run[row.key] else { continue }
        if other.unit != row.unit {
          throw .changedDefinition(row.key, column: "unit", baseline: row.unit.rawValue, current: other.unit.rawValue)
        }
        if other.better != row.better {
          throw .changedDefinition(row.key, column: "better", baseline: row.better.rawValue, current: other.better.rawValue)
        }
        if other.summary.n == row.summary.n { others.append(other) }
      }
      entries.append(ThresholdEntry(pattern: MetricPattern(exactly: row.key), tolerance: tolerance(of: row, runs: others)))
    }
    return entries
  }

  /// The tolerance one row needs: see ``update(baseline:runs:)``.
  static func tolerance(of row: MetricRow, runs: [MetricRow]) -> Tolerance {
    if row.deterministic {
      let judged = row.key.isInstructions ? [.mean] : Summary.Statistic.judged
      let largest = runs.flatMap { run in judged.map { abs(run.summary[$0] - row.summary[$0]) } }.max() ?? 0
      let relative = row.key.isInstructions ? ComparisonOptions.instructionTolerance : 0
      return Tolerance(relative: relative, absolute: largest)
    }
    let p50 = row.summary.p50
    let spreads = [row.summary.p90 - p50] + runs.map { abs($0.summary.p50 - p50) }
    let largest = Swift.max(spreads.max() ?? 0, 0)
    guard p50 != 0 else { return Tolerance(relative: 0, absolute: largest) }
    return Tolerance(relativePercent: roundedUpToTenth(largest / abs(p50) * 100), absolute: 0)
  }

  /// `percent` rounded up to a tenth (`12.31` → `12.4`), so that the spread it came from passes.
  static func roundedUpToTenth(_ percent: Double) -> Double {
    let rounded = (percent * 10).rounded(.up) / 10
    // `percent * 10` may round down past a whole number; the next tenth is then the one.
    return rounded >= percent ? rounded : rounded + 0.1
  }
}
