import Foundation

/// How a cost grows with a size: the exponent k of cost ∝ nᵏ fitted over several sizes, and the
/// cost at the largest size over the cost at a reference one (docs/metrics.md#growth).
///
/// ```swift
/// let growth = try Growth([(10, 5), (100, 50), (1_000, 500)])
/// growth.exponent        // 1.0: linear
/// growth.referenceSize   // 1000, the reference when the sizes include it
/// growth.ratio           // 1.0: cost(1000) / cost(1000)
/// ```
///
/// Definitions, for m ≥ 2 points (nᵢ, cᵢ) of distinct sizes nᵢ ≥ 1 and costs cᵢ > 0, with
/// xᵢ = ln nᵢ and yᵢ = ln cᵢ:
/// - `exponent` k is the least-squares slope of y on x:
///   k = Σ(xᵢ − x̄)(yᵢ − ȳ) / Σ(xᵢ − x̄)². Costs that are exactly c·nᵏ give exactly k (up to
///   floating point); a flat series gives 0; k < 0 when the cost falls with the size.
/// - `ratio` is c(largest size) / c(reference size), the reference being 1,000 when the sizes
///   include it and the smallest size otherwise: "a load at 500k within 1.3× of its cost at 1k".
package struct Growth: Sendable, Hashable {
  /// k, the least-squares slope of ln(cost) on ln(size).
  package let exponent: Double
  /// cost(``largestSize``) / cost(``referenceSize``).
  package let ratio: Double
  /// The size the ratio divides by: 1,000 when among the sizes, else the smallest.
  package let referenceSize: Int
  /// The largest size.
  package let largestSize: Int

  /// The size the ratio prefers as its reference.
  package static let preferredReference = 1_000

  /// Fits `points`, each a size and its cost (a p50, in any unit).
  ///
  /// - Throws: ``GrowthError`` for fewer than two points, a size below 1 or given twice, or a cost
  ///   that is not a finite number above 0 (its logarithm is not one).
  package init(_ points: [(size: Int, cost: Double)]) throws(GrowthError) {
    guard points.count >= 2 else { throw .tooFewSizes(points.count) }
    var seen: Set<Int> = []
    for point in points {
      guard point.size >= 1 else { throw .badSize(point.size) }
      guard seen.insert(point.size).inserted else { throw .repeatedSize(point.size) }
      guard point.cost.isFinite, point.cost > 0 else { throw .badCost(size: point.size, cost: point.cost) }
    }
    // Distinct sizes, so the x values differ and the slope exists.
    exponent = Statistics.slope(x: points.map { log(Double($0.size)) }, y: points.map { log($0.cost) })!
    let sizes = points.map(\.size)
    largestSize = sizes.max()!
    referenceSize = seen.contains(Self.preferredReference) ? Self.preferredReference : sizes.min()!
    let cost = { (size: Int) in points.first { $0.size == size }!.cost }
    ratio = cost(largestSize) / cost(referenceSize)
  }
}

/// Why costs cannot be fitted (``Growth``).
package enum GrowthError: Error, Hashable, CustomStringConvertible {
  /// Fewer than two sizes: no slope.
  case tooFewSizes(Int)
  /// A size below 1.
  case badSize(Int)
  /// A size given twice.
  case repeatedSize(Int)
  /// A cost that is 0, negative or not finite.
  case badCost(size: Int, cost: Double)

  package var description: String {
    switch self {
    case .tooFewSizes(let count): "a growth needs costs at two sizes at least, got \(count)"
    case .badSize(let size): "a growth's size must be 1 or more, got \(size)"
    case .repeatedSize(let size): "a growth's size \(size) is given twice"
    case .badCost(let size, let cost): "a growth's cost must be above 0, got \(cost) at size \(size)"
    }
  }
}

extension MetricSamples {
  /// Appends `<phase>/growth_<name>` and `<phase>/growth_ratio_<name>` (``Metric/growth(_:phase:)``),
  /// fitted to the p50 of each size's timing `metrics`; nothing when fewer than two sizes have
  /// samples or a p50 is 0 (no logarithm), and the fit, when there is one.
  @discardableResult
  package mutating func appendGrowth(_ name: String, phase: Phase, over metrics: [(size: Int, metric: Metric)]) -> Growth? {
    let points = metrics.compactMap { size, metric in Summary(self[metric]).map { (size: size, cost: $0.p50) } }
    guard let growth = try? Growth(points) else { return nil }
    append(growth.exponent, to: .growth(name, phase: phase))
    append(growth.ratio, to: .growthRatio(name, phase: phase))
    return growth
  }
}
