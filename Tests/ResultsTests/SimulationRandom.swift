import Foundation
import Generator
import Support

/// Draws for the verdicts' simulations, over the project's seeded generator.
extension SplitMix64 {
  /// Uniform in `0..<1`.
  mutating func uniform() -> Double { double() }

  /// Standard normal, by Box-Muller.
  mutating func normal() -> Double {
    let u = max(uniform(), 1e-300)
    return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * uniform())
  }
}
