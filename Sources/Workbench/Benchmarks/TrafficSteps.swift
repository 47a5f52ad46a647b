import Generator
import Support
import Workloads

/// The traffic's steps, drawn from the seed alone: the operations ranked by a seeded shuffle
/// (the first the most popular), each step a refetch with probability `refetchShare`, else a
/// read, of an operation drawn by Zipf over that ranking.
struct TrafficSteps {
  enum Step: Equatable {
    case read(Int)
    case refetch(Int)
  }

  /// The items, most popular first.
  let popularity: [Int]
  private let zipf: ZipfDistribution
  private let refetchShare: Double
  private var random: SplitMix64

  init(settings: TrafficSettings, items: Int, seed: UInt64) {
    random = SplitMix64(seed: seed)
    var order = Array(0..<items)
    for index in stride(from: items - 1, to: 0, by: -1) { order.swapAt(index, random.int(below: index + 1)) }
    popularity = order
    zipf = ZipfDistribution(count: items, exponent: settings.zipf)
    refetchShare = settings.refetchShare
  }

  mutating func next() -> Step {
    let refetch = random.double() < refetchShare
    let item = popularity[zipf.rank(forUniform: random.double())]
    return refetch ? .refetch(item) : .read(item)
  }
}
