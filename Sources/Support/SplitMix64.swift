/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014): the
/// one source of randomness of the workbench, the generator, the model checks and the crash test,
/// so that one seed gives one byte-identical output, and a failing seed fails again.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let length = random.int(in: 2...5)
/// if random.chance(0.25) { ... }
/// ```
/// Every helper here is written out rather than taken from the standard library
/// (`Int.random(in:using:)`, `shuffled(using:)`), whose algorithms may change between Swift
/// releases: the same seed must give the same workload on every toolchain.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  public private(set) var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  @inline(__always)
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  /// SplitMix64's finalizer: a bijection of 64-bit values that scatters nearby inputs, so distinct
  /// inputs always give distinct outputs.
  @inline(__always)
  public static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in `0..<bound`, by the high half of a 128-bit product (bias below 2⁻⁴⁰
  /// for any bound the workbench uses).
  @inline(__always)
  public mutating func int(below bound: Int) -> Int {
    precondition(bound > 0, "int(below:) needs a positive bound")
    return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// A uniform integer in a closed range.
  @inline(__always)
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + int(below: range.upperBound - range.lowerBound + 1)
  }

  /// A uniform double in `0..<1`, from the top 53 bits.
  @inline(__always)
  public mutating func double() -> Double {
    Double(next() >> 11) * 0x1p-53
  }

  /// True with probability `percent` in 100 (the model checks' draws).
  @inline(__always)
  public mutating func chance(percent: Int) -> Bool { int(below: 100) < percent }

  /// True with probability `probability`; always draws one value, so that the draws after it do
  /// not depend on the probability.
  @inline(__always)
  public mutating func chance(_ probability: Double) -> Bool {
    double() < probability
  }

  /// A uniformly chosen element of a non-empty array.
  public mutating func pick<Element>(_ elements: [Element]) -> Element {
    elements[int(below: elements.count)]
  }

  /// Fisher-Yates, from the last element down.
  public mutating func shuffle<Element>(_ elements: inout [Element]) {
    guard elements.count > 1 else { return }
    for index in stride(from: elements.count - 1, to: 0, by: -1) {
      elements.swapAt(index, int(below: index + 1))
    }
  }

  /// `count` distinct indices of `0..<population`, in the order drawn (a partial Fisher-Yates).
  ///
  /// - Complexity: O(population).
  public mutating func sample(_ count: Int, of population: Int) -> [Int] {
    var indices = Array(0..<population)
    let count = min(count, population)
    for index in 0..<count {
      indices.swapAt(index, index + int(below: population - index))
    }
    return Array(indices[0..<count])
  }
}
