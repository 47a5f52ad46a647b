import Generator
import Support

/// The order of a paired run's steps, from one seed (the workload's): in each round every row
/// once, the rows in a fresh random order, and in each pair a coin decides which build goes
/// first, so that neither build is always the one that meets a warm cache or a cold one. Both
/// builds perform the same step of a row, and each row walks its steps from a random start.
///
/// ```swift
/// var schedule = PairedSchedule(seed: 42, sizes: [40, 40, 1_200], counts: [1, 1, 50])
/// for step in schedule.nextRound() { ... }   // step.row, step.index, step.count, step.baseFirst
/// ```
package struct PairedSchedule: Sendable {
  package struct Step: Sendable, Hashable {
    package let row: Int
    /// The first step of the row this pair performs; `count` in all.
    package let index: Int
    package let count: Int
    package let baseFirst: Bool
  }

  private var random: SplitMix64
  private let sizes: [Int]
  /// Steps per pair of each row (more for rows whose single step is too short to time well).
  package var counts: [Int]
  private var cursors: [Int]

  /// - Parameters:
  ///   - sizes: each row's number of distinct steps (positive).
  ///   - counts: steps per pair of each row (positive).
  package init(seed: UInt64, sizes: [Int], counts: [Int]) {
    precondition(sizes.count == counts.count && sizes.allSatisfy { $0 > 0 } && counts.allSatisfy { $0 > 0 })
    random = SplitMix64(seed: seed ^ 0xAB5E_ED00)
    self.sizes = sizes
    self.counts = counts
    var cursors: [Int] = []
    for size in sizes { cursors.append(random.int(below: size)) }
    self.cursors = cursors
  }

  /// The pairs of the next round, every row once.
  package mutating func nextRound() -> [Step] {
    var order = Array(sizes.indices)
    for index in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(index, random.int(below: index + 1)) }
    return order.map { row in
      let step = Step(row: row, index: cursors[row], count: counts[row], baseFirst: random.next() & 1 == 0)
      cursors[row] = (cursors[row] + counts[row]) % sizes[row]
      return step
    }
  }
}
