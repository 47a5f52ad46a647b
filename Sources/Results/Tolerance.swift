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
  /// A fraction of the baseline's value (0.005 for 0.5%).
  package let relative: Double
  /// In the metric's unit (nanoseconds, bytes, a count, a ratio).
  package let absolute: Double

  /// - Parameters:
  ///   - relative: a fraction, 0 or more (`0.005` for 0.5%).
  ///   - absolute: in the metric's unit, 0 or more.
  package init(relative: Double, absolute: Double) {
    precondition(relative >= 0 && relative.isFinite && absolute >= 0 && absolute.isFinite, "a tolerance is a finite number, 0 or more")
    self.relative = relative
    self.absolute = absolute
  }

  /// A relative tolerance given in percent, as a thresholds file gives it.
  package init(relativePercent: Double, absolute: Double) {
    self.init(relative: relativePercent / 100, absolute: absolute)
  }

  /// The relative tolerance in percent (`0.5` for 0.5%).
  package var relativePercent: Double { relative * 100 }

  /// The largest change from `baseline` that passes.
  package func bound(baseline: Double) -> Double {
    Swift.max(absolute, relative * abs(baseline))
  }
}
