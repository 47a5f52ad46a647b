import Foundation

/// One timing row of a paired run (`cachebench ab --paired`): the two builds' times of the same
/// steps, taken in turns, nanoseconds per operation, in the order they were taken.
package struct PairedSamples: Sendable, Hashable {
  package var key: MetricKey
  /// `base[i]` and `current[i]` timed the same step, one right after the other.
  package var base: [Double]
  package var current: [Double]

  package init(key: MetricKey, base: [Double], current: [Double]) {
    precondition(base.count == current.count, "paired samples come in pairs")
    self.key = key
    self.base = base
    self.current = current
  }
}

/// Timing verdicts from two builds measured in lockstep (`cachebench ab --paired`). Pure: pairs in,
/// verdicts out.
///
/// ```swift
/// let comparison = PairedComparison(rows)   // [PairedSamples]
/// print(comparison.report())
/// ```
///
/// Each pair gives a log-ratio `ln(current / base)`. The pairs of a row are cut into blocks of
/// ``Options/blockSize`` consecutive pairs, and each block is summarised by its median: a block
/// median ignores the odd step a neighbour's burst slowed (up to half a block), and blocks, being
/// further apart than neighbouring steps, carry most of the autocorrelation a drifting machine
/// leaves inside them. The row is then tested with the sign test over its block medians: under
/// "no change" every block median is as likely above 0 as below, because each pair's order was
/// drawn at random, so the binomial p-value is exact whatever the distribution of the noise
/// (no normality, no variance to estimate from few blocks, no outlier can move it more than one
/// block's sign). The ratio is `exp` of the median of the block medians, with its
/// distribution-free interval from the order statistics (the sign test inverted). P-values are
/// adjusted with Holm over every row, and the level is split evenly over the ``Options/looks``
/// (Bonferroni), so a run that looks at the data several times and stops early still holds its
/// false-alarm rate.
///
/// A row is `regressed` (or `improved`) when its adjusted p is under the level and its ratio
/// beyond ``Options/threshold``; `inconclusive` when beyond the threshold without that; otherwise
/// `unchanged`. It is *decided* when regressed or improved, or when its interval lies within the
/// threshold either way.
package struct PairedComparison: Sendable {
  package struct Options: Sendable, Hashable {
    /// The smallest relative change that can count (0.03 for 3%).
    package var threshold: Double
    /// The false-alarm rate over all rows and all looks together.
    package var alpha: Double
    /// Consecutive pairs summarised by one median.
    package var blockSize: Int
    /// How many times the run judges the pairs (and may stop): the level of each look is
    /// `alpha / looks`.
    package var looks: Int

    package init(threshold: Double = 0.03, alpha: Double = 0.05, blockSize: Int = 8, looks: Int = 1) {
      precondition(blockSize >= 1 && looks >= 1)
      self.threshold = threshold
      self.alpha = alpha
      self.blockSize = blockSize
      self.looks = looks
    }

    /// The false-alarm rate of one look.
    package var level: Double { alpha / Double(looks) }
  }

  /// What one row's pairs say.
  package struct Row: Sendable, Hashable {
    package var key: MetricKey
    /// Pairs and whole blocks of them.
    package var pairs: Int
    package var blocks: Int
    /// `current / base`, the median of the block medians; 1 without blocks.
    package var ratio: Double
    /// The distribution-free 95% interval of `ratio`; nil with too few blocks for one.
    package var interval: ClosedRange<Double>?
    /// The sign test's p-value after Holm over every row.
    package var p: Double
    /// The smallest relative change this row would show as significant 80% of the time with these
    /// blocks (from their spread); nil with too few blocks.
    package var detectableChange: Double?
    package var status: VerdictStatus
    /// Regressed, improved, or with its interval within the threshold.
    package var decided: Bool
  }

  package let options: Options
  package let rows: [Row]
  /// One verdict per row, for the CSV and Markdown `compare` and `ab` write: `baseline` is the
  /// base's median per operation, `current` that times the paired ratio.
  package let verdicts: [Verdict]

  package init(_ samples: [PairedSamples], options: Options = Options()) {
    self.options = options
    let blockMedians = samples.map { Self.blockMedians($0, blockSize: options.blockSize) }
    let tests = blockMedians.map { SignTest($0) }
    let adjusted = RepeatedComparison.holm(tests.map(\.p))
    var rows: [Row] = []
    var verdicts: [Verdict] = []
    for (index, row) in samples.enumerated() {
      let test = tests[index]
      let medians = blockMedians[index]
      let ratio = medians.isEmpty ? 1 : exp(Statistics.median(medians))
      let interval = test.interval(level: 0.95).map { exp($0.lowerBound)...exp($0.upperBound) }
      let status = RepeatedComparison.status(
        ratio: ratio, p: adjusted[index], better: .lower,
        options: .init(threshold: options.threshold, alpha: options.level))
      let within = interval.map { $0.lowerBound >= 1 - options.threshold && $0.upperBound <= 1 + options.threshold } ?? false
      let detectable = Self.detectableChange(medians, level: options.level / Double(max(1, samples.count)))
      rows.append(
        Row(
          key: row.key, pairs: row.base.count, blocks: medians.count, ratio: ratio, interval: interval, p: adjusted[index],
          detectableChange: detectable, status: status, decided: status == .regressed || status == .improved || within))
      let base = row.base.isEmpty ? nil : Statistics.median(row.base)
      verdicts.append(
        Verdict(
          key: row.key, unit: .ns, better: .lower, deterministic: false, baseline: base, current: base.map { $0 * ratio },
          status: status, ciLow: interval?.lowerBound, ciHigh: interval?.upperBound, pValue: adjusted[index]))
    }
    self.rows = rows
    self.verdicts = verdicts
  }

  /// Whether any row regressed.
  package var hasRegressions: Bool { rows.contains { $0.status == .regressed } }

  /// Whether every row is decided: more pairs would change no verdict that matters.
  package var allDecided: Bool { rows.allSatisfy(\.decided) }

  /// The median over rows of each row's smallest detectable change.
  package var detectableChange: Double? {
    let changes = rows.compactMap(\.detectableChange)
    return changes.isEmpty ? nil : Statistics.median(changes)
  }

  /// The median log-ratio of every whole block of `blockSize` consecutive pairs; the pairs after
  /// the last whole block wait for the next look. Pairs with a time of 0 or less are skipped.
  static func blockMedians(_ samples: PairedSamples, blockSize: Int) -> [Double] {
    let logRatios = zip(samples.base, samples.current).compactMap { base, current in
      base > 0 && current > 0 ? log(current / base) : nil
    }
    return stride(from: 0, to: logRatios.count - blockSize + 1, by: blockSize).map { start in
      Statistics.median(Array(logRatios[start..<start + blockSize]))
    }
  }

  /// The relative change the sign test over these blocks detects 80% of the time at `level`
  /// (two-sided), by the normal approximation: a shift `δ` makes a block median positive with
  /// probability `q = Φ(δ/σ)`, and the test needs `q ≥ ½ + (z₁₋ₗₑᵥₑₗ/₂ + z₀.₈) / (2√k)` with `k`
  /// blocks; `σ` is the blocks' spread (1.4826 × their median absolute deviation). Nil with fewer
  /// than 4 blocks, or when even a certain sign would not suffice.
  static func detectableChange(_ blockMedians: [Double], level: Double) -> Double? {
    let k = Double(blockMedians.count)
    guard blockMedians.count >= 4 else { return nil }
    let center = Statistics.median(blockMedians)
    let sigma = 1.4826 * Statistics.median(blockMedians.map { abs($0 - center) })
    let z = Normal.quantile(1 - level / 2) + Normal.quantile(0.8)
    let q = 0.5 + z / (2 * k.squareRoot())
    guard q < 1 else { return nil }
    return exp(sigma * Normal.quantile(q)) - 1
  }
}

/// The sign test of "the median is 0" over some values (Dixon and Mood, 1946): how many are above
/// 0 against a fair coin. Zeros are dropped.
struct SignTest: Sendable {
  /// The values, sorted.
  let sorted: [Double]
  let above: Int
  let below: Int

  init(_ values: [Double]) {
    sorted = values.sorted()
    above = values.count { $0 > 0 }
    below = values.count { $0 < 0 }
  }

  /// The two-sided p-value: twice the probability of a count at least as lopsided, at most 1.
  var p: Double {
    let n = above + below
    guard n > 0 else { return 1 }
    return min(1, 2 * Binomial.upperTail(max(above, below), trials: n))
  }

  /// The distribution-free interval of the median at `level` (the sign test inverted): the
  /// `d`-th smallest and `d`-th largest values, with `d` the largest count such that
  /// `P(X < d) ≤ (1 − level) / 2` for X ~ Binomial(n, ½). Nil when even the extremes give less.
  func interval(level: Double) -> ClosedRange<Double>? {
    let n = sorted.count
    guard n > 0 else { return nil }
    var depth = 0
    while depth + 1 <= n / 2, Binomial.lowerTail(depth + 1, trials: n) <= (1 - level) / 2 { depth += 1 }
    guard depth >= 1 else { return nil }
    return sorted[depth - 1]...sorted[n - depth]
  }
}

/// The binomial distribution with probability ½.
enum Binomial {
  /// P(X ≥ k) for X ~ Binomial(n, ½).
  static func upperTail(_ k: Int, trials n: Int) -> Double {
    guard k > 0 else { return 1 }
    guard k <= n else { return 0 }
    return (k...n).reduce(0) { $0 + probability($1, trials: n) }
  }

  /// P(X < k) for X ~ Binomial(n, ½).
  static func lowerTail(_ k: Int, trials n: Int) -> Double {
    guard k > 0 else { return 0 }
    return (0..<min(k, n + 1)).reduce(0) { $0 + probability($1, trials: n) }
  }

  /// P(X = k), through logarithms so that large n does not overflow.
  static func probability(_ k: Int, trials n: Int) -> Double {
    exp(lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1)) - Double(n) * log(2.0))
  }
}

/// The standard normal distribution.
enum Normal {
  /// The z such that P(Z ≤ z) = probability: Student's t with a million degrees of freedom, whose
  /// quantiles agree with the normal's to six digits.
  static func quantile(_ probability: Double) -> Double {
    StudentT.quantile(probability, degreesOfFreedom: 1e6)
  }
}
