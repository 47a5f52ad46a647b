/// The statistics of one metric's samples, as the CSV's `n,min,p50,p90,p99,max,mean,stddev`
/// columns carry them (docs/csv.md).
///
/// ```swift
/// let summary = Summary([1, 2, 3, 4])!
/// summary.p50     // 2.5
/// summary.p90     // 3.7
/// summary.stddev  // 1.2909944487358056
/// ```
///
/// Definitions:
/// - percentiles interpolate linearly between the closest ranks, as numpy's default (`linear`,
///   Hyndman & Fan type 7): for sorted samples `x[0...n-1]` the p-th percentile is at the
///   fractional rank `h = (n - 1) * p / 100`, that is `x[⌊h⌋] + (h - ⌊h⌋) * (x[⌊h⌋+1] - x[⌊h⌋])`.
///   `p50` is the median; `min` and `max` are `p0` and `p100`.
/// - `mean` is the arithmetic mean.
/// - `stddev` is the sample standard deviation, `sqrt(Σ(x - mean)² / (n - 1))`.
///
/// A single value (`n == 1`) fills every statistic with that value, `stddev` included, as
/// docs/csv.md says ("single values fill n=1 and every statistic with the value"): read `stddev`
/// only where `n > 1`. (``Statistics/sampleStandardDeviation(_:)`` itself returns 0 for one
/// sample.)
package struct Summary: Sendable, Hashable {
  package var n: Int
  package var min: Double
  package var p50: Double
  package var p90: Double
  package var p99: Double
  package var max: Double
  package var mean: Double
  package var stddev: Double

  /// The statistics of `samples`, or nil when there are none: an empty metric has no row.
  ///
  /// Samples must be finite (a NaN or an infinity is a bug in what produced it, and traps).
  ///
  /// - Complexity: O(n log n), for the sort.
  package init?(_ samples: [Double]) {
    guard !samples.isEmpty else { return nil }
    precondition(samples.allSatisfy(\.isFinite), "a sample is not a finite number")
    let sorted = samples.sorted()
    self.n = sorted.count
    self.min = sorted[0]
    self.p50 = Statistics.percentile(50, ofSorted: sorted)
    self.p90 = Statistics.percentile(90, ofSorted: sorted)
    self.p99 = Statistics.percentile(99, ofSorted: sorted)
    self.max = sorted[sorted.count - 1]
    self.mean = Statistics.mean(sorted)
    // docs/csv.md: a single value fills every statistic, the spread included; read stddev only
    // where n > 1.
    self.stddev = sorted.count == 1 ? sorted[0] : Statistics.sampleStandardDeviation(sorted)
  }

  /// The statistics of integer samples (nanoseconds, counts, bytes).
  package init?<T: BinaryInteger>(_ samples: [T]) {
    self.init(samples.map { Double($0) })
  }

  /// One value: `n` is 1 and every statistic is `value`, `stddev` included, as docs/csv.md says
  /// ("single values fill n=1 and every statistic with the value"); read stddev only where n > 1.
  package init(single value: Double) {
    self.init(
      n: 1, min: value, p50: value, p90: value, p99: value, max: value, mean: value, stddev: value)
  }

  /// Every statistic as given (for rows read back from a CSV).
  package init(
    n: Int, min: Double, p50: Double, p90: Double, p99: Double, max: Double, mean: Double,
    stddev: Double
  ) {
    self.n = n
    self.min = min
    self.p50 = p50
    self.p90 = p90
    self.p99 = p99
    self.max = max
    self.mean = mean
    self.stddev = stddev
  }
}

/// The arithmetic behind ``Summary``: pure functions over samples.
package enum Statistics {
  /// The `p`-th percentile (0...100) of ascending `sorted` samples, interpolated linearly between
  /// the closest ranks (numpy's default). `sorted` must not be empty.
  ///
  /// ```swift
  /// Statistics.percentile(90, ofSorted: [1, 2, 3, 4])  // 3.7
  /// ```
  package static func percentile(_ p: Double, ofSorted sorted: [Double]) -> Double {
    precondition(!sorted.isEmpty, "the percentile of no samples")
    precondition((0...100).contains(p), "percentile \(p) is outside 0...100")
    let rank = Double(sorted.count - 1) * p / 100
    let lower = Int(rank.rounded(.down))
    let fraction = rank - Double(lower)
    guard fraction > 0, lower + 1 < sorted.count else { return sorted[lower] }
    return lerp(sorted[lower], sorted[lower + 1], fraction)
  }

  /// The arithmetic mean. `samples` must not be empty.
  package static func mean(_ samples: [Double]) -> Double {
    precondition(!samples.isEmpty, "the mean of no samples")
    return samples.reduce(0, +) / Double(samples.count)
  }

  /// The sample standard deviation, with Bessel's correction (divides by n - 1); 0 for one sample.
  /// Two passes (deviations from the mean), which keeps precision for samples far from zero.
  package static func sampleStandardDeviation(_ samples: [Double]) -> Double {
    precondition(!samples.isEmpty, "the standard deviation of no samples")
    guard samples.count > 1 else { return 0 }
    let mean = mean(samples)
    let squares = samples.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
    return (squares / Double(samples.count - 1)).squareRoot()
  }

  /// The slope of the least-squares line through the points `(x, y)`: how much `y` grows per unit
  /// of `x`. Nil for fewer than two points or when every `x` is the same.
  ///
  /// ```swift
  /// Statistics.slope(x: [0, 1, 2, 3], y: [10, 12, 14, 16])   // 2
  /// ```
  /// - Complexity: O(n), in two passes (deviations from the means, for precision far from zero).
  package static func slope(x: [Double], y: [Double]) -> Double? {
    precondition(x.count == y.count, "a slope of \(x.count) x values against \(y.count) y values")
    guard x.count >= 2 else { return nil }
    let meanX = mean(x)
    let meanY = mean(y)
    var covariance = 0.0
    var variance = 0.0
    for (a, b) in zip(x, y) {
      covariance += (a - meanX) * (b - meanY)
      variance += (a - meanX) * (a - meanX)
    }
    return variance == 0 ? nil : covariance / variance
  }

  /// `a + t (b - a)`, computed from the nearer end as numpy does, so that equal neighbours give
  /// exactly their value and `t` near 1 does not overshoot `b`.
  private static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double {
    let difference = b - a
    return t < 0.5 ? a + t * difference : b - (1 - t) * difference
  }
}
