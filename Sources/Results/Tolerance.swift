/// How far one metric may move between a baseline and a current run and still pass
/// (docs/gate.md#thresholds): a statistic passes when
///
/// ```
/// |current − baseline| ≤ max(absolute, relative × |baseline|)
/// ```
///
/// so that a relative tolerance serves large values and an absolute one small values, a baseline
/// of 0 among them (where any relative tolerance is 0).
///
/// ```swift
/// let tolerance = Tolerance(relativePercent: 1, absolute: 4)
/// tolerance.bound(baseline: 100)     // 4: the absolute tolerance is the larger
/// tolerance.bound(baseline: 10_000)  // 100
/// ```
package struct Tolerance: Sendable, Hashable {
  /// A percentage of the baseline's value (`0.5` for 0.5%), as the file writes it: kept as given,
  /// so that a file written reads `14.9`, not the `14.899999999999999` of a fraction times 100.
  package let relativePercent: Double
  /// In the metric's unit (nanoseconds, bytes, a count, a ratio).
  package let absolute: Double

  /// - Parameters:
  ///   - relativePercent: a percentage, 0 or more (`0.5` for 0.5%).
  ///   - absolute: in the metric's unit, 0 or more.
  package init(relativePercent: Double, absolute: Double) {
    precondition(
      relativePercent >= 0 && relativePercent.isFinite && absolute >= 0 && absolute.isFinite,
      "a tolerance is a finite number, 0 or more")
    self.relativePercent = relativePercent
    self.absolute = absolute
  }

  /// A relative tolerance given as a fraction (`0.005` for 0.5%).
  package init(relative: Double, absolute: Double) {
    self.init(relativePercent: relative * 100, absolute: absolute)
  }

  /// The relative tolerance as a fraction (`0.005` for 0.5%).
  package var relative: Double { relativePercent / 100 }

  /// The largest change from `baseline` that passes.
  package func bound(baseline: Double) -> Double {
    Swift.max(absolute, relative * abs(baseline))
  }
}
