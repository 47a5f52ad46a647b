import Generator
import NormalizedCache
import Support

/// The records of the store-level benchmark: `Item:0` … `Item:N-1`, ten fields each: three strings,
/// an Int, a Double, a Bool, a reference, a list of three strings, a list of two references, and a
/// field with arguments holding a reference.
enum ItemRecords {
  static let words = [
    "amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "haven", "islet", "jade", "karst", "lumen",
    "maple", "north", "onyx", "pearl", "quartz", "ridge", "slate", "tidal", "umber", "vale", "willow", "zephyr",
  ]

  /// - Parameter writtenAt: the date of every field (docs/records.md#dates); nil: no dates.
  static func make(count: Int, seed: UInt64, writtenAt: Int? = nil) -> RecordSet {
    var random = SplitMix64(seed: seed)
    func word() -> String { random.pick(words) }
    func below(_ bound: Int) -> Int { random.int(below: max(1, bound)) }
    var records: [Record] = []
    records.reserveCapacity(count)
    for index in 0..<count {
      var builder = Record.Builder(key: "Item:\(index)", capacity: 256, writtenAt: writtenAt)
      builder.append("name", .string("Item \(index)"))
      builder.append("title", .string("\(word().capitalized) \(word()) \(word())"))
      builder.append("description", .string("A \(word()) \(word()) of \(word()) and \(word())"))
      builder.append("count", .int(below(100_000)))
      builder.append("price", .double(Double(below(100_000)) / 100))
      builder.append("inStock", .bool(random.next() & 1 == 0))
      builder.append("owner", .reference("User:\(below(max(1, count / 10)))"))
      builder.append("tags", .list([.string(word()), .string(word()), .string(word())]))
      builder.append("related", .list([.reference("Item:\(below(count))"), .reference("Item:\(below(count))")]))
      builder.append("friends(first:3)", .reference("Item:\(below(count))"))
      records.append(builder.build())
    }
    return RecordSet(records: records)
  }
}

extension String {
  fileprivate var capitalized: String { prefix(1).uppercased() + dropFirst() }
}
