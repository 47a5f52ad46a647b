import Foundation

/// Timing verdicts from repeated, interleaved runs of two builds (`cachebench ab`, docs/gate.md):
/// each run is one observation, each run's machine shift is removed, and a row is `regressed` only
/// when the change is significant over every row (Holm) and beyond the threshold. Pure: rows in,
/// verdicts out.
///
/// ```swift
/// let comparison = try RepeatedComparison(base: baseRuns, current: currentRuns)  // [[MetricRow]] each
/// print(comparison.report())
/// ```
///
/// For each timing row the observation of a run is `ln(p50)`. A run's shift is the median, over
/// the rows that estimate it (every timing row, or those of ``Options/shiftStores``), of its
/// observation less that row's median over all runs; it is subtracted from every observation of
/// the run, and each observation is pulled to within two typical deviations of its side's median
/// (winsorized). Each row is then tested with a moderated two-sample t-test on the shifted observations
/// of the two sides (its variance shrunk toward the typical row's); p-values are adjusted with
/// Holm's step-down over all timing rows; the ratio is `exp(mean current − mean base)`, with a 95%
/// interval from the same t distribution.
///
/// Deterministic rows are judged as ``Comparison`` judges them, on the first run of each side.
package struct RepeatedComparison: Sendable {
  package struct Options: Sendable, Hashable {
    /// The smallest relative change of a timing that can count (0.05 for 5%).
    package var threshold: Double
    /// The false-alarm rate over all timing rows together.
    package var alpha: Double
    /// The stores whose timing rows estimate each run's shift; empty for every row. When a change
    /// touches most rows (every SQLite store), estimate the shift from the rows it cannot touch.
    package var shiftStores: Set<String>

    package init(threshold: Double = 0.05, alpha: Double = 0.05, shiftStores: Set<String> = []) {
      self.threshold = threshold
      self.alpha = alpha
      self.shiftStores = shiftStores
    }
  }

  package let options: Options
  package let verdicts: [Verdict]
  /// The smallest relative change one timing row would show as regressed 80% of the time with
  /// these runs: from the rows' spread after shift removal and the first step of Holm's correction.
  package let detectableChange: Double?
  /// Each run's shift removed, as a factor (1.1: the run was 10% slow), base runs first.
  package let shifts: [Double]

  /// - Throws: ``ComparisonError`` when a side has no runs, or its runs disagree on a metric's
  ///   definition, as ``Comparison`` does.
  package init(base: [[MetricRow]], current: [[MetricRow]], options: Options = Options()) throws(ComparisonError) {
    guard let firstBase = base.first else { throw .noRuns(.baseline) }
    guard let firstCurrent = current.first else { throw .noRuns(.current) }
    let single = try Comparison(baseline: firstBase, current: firstCurrent)
    let timing = TimingObservations(base: base, current: current, shiftStores: options.shiftStores)
    let typicalVariance = timing.typicalVariance
    let tests = timing.keys.map { timing.test($0, typicalVariance: typicalVariance) }
    let adjusted = Self.holm(tests.map(\.p))
    var byKey: [MetricKey: Verdict] = [:]
    for (index, key) in timing.keys.enumerated() {
      guard var verdict = single.verdicts.first(where: { $0.key == key }) else { continue }
      let test = tests[index]
      verdict.baseline = exp(timing.mean(key, side: .base))
      verdict.current = exp(timing.mean(key, side: .current))
      verdict.ciLow = exp(test.difference - test.halfWidth)
      verdict.ciHigh = exp(test.difference + test.halfWidth)
      verdict.pValue = adjusted[index]
      verdict.status = Self.status(
        ratio: exp(test.difference), p: adjusted[index], better: verdict.better, options: options)
      byKey[key] = verdict
    }
    self.options = options
    verdicts = single.verdicts.map { byKey[$0.key] ?? $0 }
    shifts = timing.shifts.map(exp)
    detectableChange = timing.detectableChange(alpha: options.alpha / Double(max(1, timing.keys.count)))
  }

  /// Whether any row regressed.
  package var hasRegressions: Bool { verdicts.contains { $0.status == .regressed } }

  /// The verdict on one timing row.
  static func status(ratio: Double, p: Double, better: Better, options: Options) -> VerdictStatus {
    guard abs(ratio - 1) > options.threshold else { return .unchanged }
    guard p < options.alpha else { return .inconclusive }
    let worse = better == .lower ? ratio > 1 : ratio < 1
    return worse ? .regressed : .improved
  }

  /// Holm's step-down adjustment: the i-th smallest p-value times (m − i + 1), made monotone.
  static func holm(_ pValues: [Double]) -> [Double] {
    let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
    var adjusted = pValues
    var running = 0.0
    for (rank, index) in order.enumerated() {
      running = Swift.max(running, Swift.min(1, Double(pValues.count - rank) * pValues[index]))
      adjusted[index] = running
    }
    return adjusted
  }
}

/// The logged p50 of every timing row in every run, less each run's shift.
struct TimingObservations {
  enum Side { case base, current }

  /// Timing rows present in every run of both sides, in the first current run's order.
  let keys: [MetricKey]
  /// Base runs first, then current runs: `values[run][key]`, shift removed.
  private(set) var values: [[MetricKey: Double]]
  let baseCount: Int
  /// Each run's shift, in logs.
  private(set) var shifts: [Double] = []

  init(base: [[MetricRow]], current: [[MetricRow]], shiftStores: Set<String>) {
    let runs = (base + current).map { rows in
      Dictionary(rows.filter { !$0.deterministic && $0.summary.p50 > 0 }.map { ($0.key, log($0.summary.p50)) }) { a, _ in a }
    }
    keys = (current.first ?? []).map(\.key).filter { key in runs.allSatisfy { $0[key] != nil } }
    baseCount = base.count
    values = runs
    let reference = Dictionary(uniqueKeysWithValues: keys.map { key in (key, Statistics.median(runs.map { $0[key]! })) })
    let shiftKeys = keys.filter { shiftStores.isEmpty || shiftStores.contains($0.store) }
    for run in runs.indices {
      let shift = shiftKeys.isEmpty ? 0 : Statistics.median(shiftKeys.map { runs[run][$0]! - reference[$0]! })
      shifts.append(shift)
      for key in keys { values[run][key]! -= shift }
    }
    winsorize()
  }

  /// Pulls each observation to within 2 typical deviations of its side's median for that row: one
  /// run in five that a neighbour slowed by half would otherwise decide the row alone.
  private mutating func winsorize() {
    let limit = 2 * typicalVariance.squareRoot()
    guard limit > 0 else { return }
    for key in keys {
      for range in [0..<baseCount, baseCount..<values.count] where !range.isEmpty {
        let median = Statistics.median(range.map { values[$0][key]! })
        for run in range {
          values[run][key] = Swift.min(Swift.max(values[run][key]!, median - limit), median + limit)
        }
      }
    }
  }

  func observations(_ key: MetricKey, side: Side) -> [Double] {
    let runs = side == .base ? values[..<baseCount] : values[baseCount...]
    return runs.map { $0[key]! }
  }

  func mean(_ key: MetricKey, side: Side) -> Double {
    Statistics.mean(observations(key, side: side))
  }

  /// The prior degrees of freedom of the moderated variance: how much a row's own spread is pulled
  /// toward the typical row's (limma's moderated t, Smyth 2004, with a fixed prior).
  static let priorDegreesOfFreedom = 8.0

  /// The typical row's variance of one run's observation: the median over rows of the pooled
  /// within-side variances; 0 without a timing row (none with a positive p50 in every run).
  var typicalVariance: Double {
    keys.isEmpty ? 0 : Statistics.median(keys.map { pooledVariance($0) })
  }

  private func pooledVariance(_ key: MetricKey) -> Double {
    let a = observations(key, side: .base)
    let b = observations(key, side: .current)
    let df = Double(a.count + b.count - 2)
    guard df > 0 else { return 0 }
    return (Statistics.variance(a) * Double(a.count - 1) + Statistics.variance(b) * Double(b.count - 1)) / df
  }

  /// The moderated t-test of one row: the difference of means (current − base), its two-sided
  /// p-value, and the half-width of its 95% interval. The row's pooled variance is shrunk toward
  /// the typical row's, so that five runs a side, with the typical row's spread known from many
  /// rows, give the test enough degrees of freedom, while a row whose own runs scatter more keeps
  /// most of its spread.
  func test(_ key: MetricKey, typicalVariance: Double) -> (difference: Double, p: Double, halfWidth: Double) {
    let a = observations(key, side: .base)
    let b = observations(key, side: .current)
    let difference = Statistics.mean(b) - Statistics.mean(a)
    let rowDegrees = Double(a.count + b.count - 2)
    let prior = Self.priorDegreesOfFreedom
    let variance = (rowDegrees * pooledVariance(key) + prior * typicalVariance) / (rowDegrees + prior)
    let standardError = (variance * (1 / Double(a.count) + 1 / Double(b.count))).squareRoot()
    guard standardError > 0 else { return (difference, difference == 0 ? 1 : 0, 0) }
    let df = rowDegrees + prior
    let p = 2 * StudentT.upperTail(abs(difference) / standardError, degreesOfFreedom: df)
    return (difference, p, StudentT.quantile(0.975, degreesOfFreedom: df) * standardError)
  }

  /// The relative change detectable at 80% power and significance `alpha` (two-sided), from the
  /// median spread of the rows after shift removal.
  func detectableChange(alpha: Double) -> Double? {
    let n = Double(baseCount)
    let m = Double(values.count - baseCount)
    guard baseCount > 1, values.count - baseCount > 1, !keys.isEmpty else { return nil }
    let df = n + m - 2 + Self.priorDegreesOfFreedom
    let z = StudentT.quantile(1 - alpha / 2, degreesOfFreedom: df) + StudentT.quantile(0.8, degreesOfFreedom: df)
    return exp(z * (typicalVariance * (1 / n + 1 / m)).squareRoot()) - 1
  }
}

extension Statistics {
  /// The median (percentile 50, interpolated). `samples` must not be empty.
  package static func median(_ samples: [Double]) -> Double {
    percentile(50, ofSorted: samples.sorted())
  }

  /// The sample variance (n − 1); 0 for one sample.
  package static func variance(_ samples: [Double]) -> Double {
    let deviation = sampleStandardDeviation(samples)
    return deviation * deviation
  }
}

/// Student's t distribution: tail probabilities and quantiles.
enum StudentT {
  /// P(T > t) for t ≥ 0: half the regularized incomplete beta I_x(df/2, 1/2) at x = df/(df + t²).
  static func upperTail(_ t: Double, degreesOfFreedom df: Double) -> Double {
    guard t > 0 else { return 0.5 }
    return 0.5 * regularizedIncompleteBeta(df / (df + t * t), a: df / 2, b: 0.5)
  }

  /// The t such that P(T ≤ t) = probability, by bisection.
  static func quantile(_ probability: Double, degreesOfFreedom df: Double) -> Double {
    if probability == 0.5 { return 0 }
    if probability < 0.5 { return -quantile(1 - probability, degreesOfFreedom: df) }
    var low = 0.0
    var high = 1.0
    while upperTail(high, degreesOfFreedom: df) > 1 - probability { high *= 2 }
    for _ in 0..<100 {
      let middle = (low + high) / 2
      if upperTail(middle, degreesOfFreedom: df) > 1 - probability { low = middle } else { high = middle }
    }
    return (low + high) / 2
  }

  /// I_x(a, b), by the continued fraction of Numerical Recipes (Lentz's method).
  static func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    let logBeta: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
    let logPowers: Double = a * log(x) + b * log(1 - x)
    let front = exp(logBeta + logPowers)
    if x > (a + 1) / (a + b + 2) { return 1 - regularizedIncompleteBeta(1 - x, a: b, b: a) }
    let tiny = 1e-300
    var c = 1.0
    var d = 1 - (a + b) * x / (a + 1)
    d = 1 / (abs(d) < tiny ? tiny : d)
    var result = d
    for m in 1...300 {
      let m = Double(m)
      let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
      d = 1 + even * d
      d = 1 / (abs(d) < tiny ? tiny : d)
      c = 1 + even / c
      c = abs(c) < tiny ? tiny : c
      result *= d * c
      let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
      d = 1 + odd * d
      d = 1 / (abs(d) < tiny ? tiny : d)
      c = 1 + odd / c
      c = abs(c) < tiny ? tiny : c
      let delta = d * c
      result *= delta
      if abs(delta - 1) < 1e-14 { break }
    }
    return front * result / a
  }
}

extension RepeatedComparison {
  /// The comparison for a terminal: regressed, improved and inconclusive rows, with their interval
  /// and p-value, then the counts and the smallest change these runs can detect.
  package func report() -> String {
    var text = ""
    let sections: [(VerdictStatus, String)] = [
      (.regressed, "Regressions"), (.improved, "Improvements"),
      (.inconclusive, "Inconclusive (beyond the threshold, not beyond the noise)"),
    ]
    for (status, title) in sections {
      let rows = verdicts.filter { $0.status == status }
      guard !rows.isEmpty else { continue }
      text += "\(title) (\(rows.count)):\n" + Self.table(rows).render() + "\n"
    }
    let counts = VerdictStatus.allCases.map { status in "\(verdicts.filter { $0.status == status }.count) \(status.rawValue)" }
    text += counts.joined(separator: ", ")
    text += " (timings: threshold \(HumanFormat.count(options.threshold * 100))%, "
    text += "false alarms \(HumanFormat.count(options.alpha * 100))% over all rows, Holm)\n"
    if let detectableChange {
      text += "Smallest timing change these runs detect 80% of the time: \(HumanFormat.change(ratio: 1 + detectableChange))\n"
    }
    return text
  }

  static func table(_ verdicts: [Verdict]) -> TextTable {
    let columns: [TextTable.Column] = [
      "workload", "variant", "store", "keys", "phase", "metric",
      TextTable.Column("base", alignment: .right), TextTable.Column("current", alignment: .right),
      TextTable.Column("change", alignment: .right), TextTable.Column("95% interval", alignment: .right),
      TextTable.Column("p", alignment: .right),
    ]
    let rows = verdicts.map { verdict -> [String] in
      var interval: String?
      if let low = verdict.ciLow, let high = verdict.ciHigh {
        interval = "\(HumanFormat.change(ratio: low))..\(HumanFormat.change(ratio: high))"
      }
      return [
        verdict.key.workload, verdict.key.variantColumn, verdict.key.store, verdict.key.keys,
        verdict.key.phase.rawValue, verdict.key.metric,
        verdict.baseline.map { HumanFormat.value($0, unit: verdict.unit) } ?? "",
        verdict.current.map { HumanFormat.value($0, unit: verdict.unit) } ?? "",
        verdict.ratio.map { HumanFormat.change(ratio: $0) } ?? "", interval ?? "",
        verdict.pValue.map { String(format: "%.4f", $0) } ?? "",
      ]
    }
    return TextTable(columns: columns, rows: rows)
  }
}
