import Foundation
import Support

/// Ranks `0..<count` drawn with probability proportional to `1 / (rank + 1)^exponent`: exponent 0
/// is uniform, 1 is classic Zipf (rank 0 twice as likely as rank 1), larger is more skewed.
///
/// ```swift
/// let zipf = ZipfDistribution(count: 100, exponent: 1)
/// var random = SplitMix64(seed: 7)
/// let rank = zipf.rank(forUniform: random.double())   // 0 most often
/// ```
/// - Complexity: O(count) memory and set-up; O(log count) per draw (a binary search of the
///   cumulative weights).
package struct ZipfDistribution: Sendable {
  let count: Int
  let exponent: Double
  /// Cumulative weights, normalized to end at 1; empty for the uniform case.
  private let cumulative: [Double]

  package init(count: Int, exponent: Double) {
    precondition(count > 0, "a Zipf distribution needs at least one rank")
    self.count = count
    self.exponent = exponent
    guard exponent > 0, count > 1 else {
      cumulative = []
      return
    }
    var weights = [Double](repeating: 0, count: count)
    var total = 0.0
    for rank in 0..<count {
      total += 1 / pow(Double(rank + 1), exponent)
      weights[rank] = total
    }
    for rank in 0..<count { weights[rank] /= total }
    weights[count - 1] = 1
    cumulative = weights
  }

  /// The rank a uniform value in `0..<1` falls on.
  package func rank(forUniform uniform: Double) -> Int {
    guard !cumulative.isEmpty else { return min(Int(uniform * Double(count)), count - 1) }
    // The first rank whose cumulative weight exceeds the uniform value.
    var low = 0
    var high = count - 1
    while low < high {
      let middle = (low + high) / 2
      if cumulative[middle] > uniform { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
