import Foundation

/// Numbers as a person reads them in a table: `812 ns`, `3.4 µs`, `12.1 ms`, `1.2 MB`.
///
/// Rules: values below 1000 of the base unit are whole (`812 ns`, `640 B`); above, the largest unit
/// that keeps the value below 1000 is used, with one decimal below 100 (`3.4 µs`, `12.1 ms`) and
/// none from 100 on (`250 ms`). Bytes use decimal (SI) units: 1 kB = 1000 B, 1 MB = 10⁶ B. A value
/// that would round up to 1000 moves to the next unit (`999.96 µs` is `1.0 ms`).
package enum HumanFormat {
  /// `812 ns`, `3.4 µs`, `12.1 ms`, `250 ms`, `1.5 s`.
  package static func nanoseconds(_ value: Double) -> String {
    scaled(value, units: ["ns", "µs", "ms", "s"])
  }

  /// `640 B`, `1.2 kB`, `1.2 MB`, `3.0 GB`.
  package static func bytes(_ value: Double) -> String {
    scaled(value, units: ["B", "kB", "MB", "GB", "TB"])
  }

  /// A whole count as digits (`1234`); a fractional one (a mean, a per-read average) with up to two
  /// decimals (`3.5`, `2.25`).
  package static func count(_ value: Double) -> String {
    if let text = unshowable(value) { return text }
    if value == value.rounded() { return String(format: "%.0f", value) }
    var text = String(format: "%.2f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text == "-0" ? "0" : text
  }

  /// Three decimals: `0.812`, `1.000`.
  package static func ratio(_ value: Double) -> String {
    unshowable(value) ?? String(format: "%.3f", value)
  }

  /// `value` in the style of its unit.
  package static func value(_ value: Double, unit: MetricUnit) -> String {
    switch unit {
    case .ns: nanoseconds(value)
    case .bytes: bytes(value)
    case .count: count(value)
    case .ratio: ratio(value)
    case .perSecond: perSecond(value)
    case .exponent: exponent(value)
    }
  }

  /// A growth's exponent, two decimals: `0.02`, `1.00`, `-0.05`.
  package static func exponent(_ value: Double) -> String {
    if let text = unshowable(value) { return text }
    let text = String(format: "%.2f", value)
    return text == "-0.00" ? "0.00" : text
  }

  /// A rate: `812/s`, `45.3 k/s`, `1.2 M/s`.
  package static func perSecond(_ value: Double) -> String {
    scaled(value, units: ["/s", "k/s", "M/s", "G/s"]).replacingOccurrences(of: " /s", with: "/s")
  }

  /// A ratio of current to baseline as a signed change: `1.2` is `+20.0%`, `0.95` is `-5.0%`,
  /// `1.0` is `0.0%`.
  package static func change(ratio: Double) -> String {
    let percent = (ratio - 1) * 100
    if let text = unshowable(percent) { return text + "%" }
    if abs(percent) < 0.05 { return "0.0%" }
    return String(format: "%+.1f%%", percent)
  }

  /// Beyond 10¹⁵ of any unit (a results file can hold any finite number, up to 1.8e308), digits
  /// stop meaning anything: `1.0e+308`; not finite, `∞`, `-∞` or `NaN`. Nil for a value shown plainly.
  static func unshowable(_ value: Double) -> String? {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "∞" : "-∞" }
    return abs(value) >= 1e15 ? String(format: "%.1e", value) : nil
  }

  private static func scaled(_ value: Double, units: [String]) -> String {
    if let text = unshowable(value / pow(1000, Double(units.count - 1))) { return text + " " + units[units.count - 1] }
    if abs(value) < 999.5 { return String(format: "%.0f", value) + " " + units[0] }
    var scaled = value
    for (index, unit) in units.enumerated().dropFirst() {
      scaled /= 1000
      let isLast = index == units.count - 1
      if abs(scaled) < 99.95 { return String(format: "%.1f", scaled) + " " + unit }
      if abs(scaled) < 999.5 || isLast { return String(format: "%.0f", scaled) + " " + unit }
    }
    fatalError("unreachable: the last unit returns")
  }
}
