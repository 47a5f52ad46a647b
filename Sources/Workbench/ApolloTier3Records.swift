import NormalizedCache
import Support

/// The records of Apollo iOS's Tier-3 scenarios (docs/apollo.md#tier-3): the perf plan's "500k
/// records × ~10 fields", which it does not spell out, built here deterministically from the
/// workload's seed.
///
/// Record `i` is of type ``types``[`i % 10`], key `<Type>:<i / 10>` (`Planet:0`, `Person:0`, …,
/// `Planet:1`), so each type holds a tenth of the store. Its ten fields, in this order:
/// `__typename` (the type), `id` (the key's number, a string), `name`, `mass` (an Int from the
/// seed: what the CTE sort orders by), `height`, `rank` (Ints), `score` (a Double), `active` (a
/// Bool), `created` (a string) and `homeworld` (a reference to a `Planet`).
///
/// ```swift
/// ApolloTier3Records.record(0, seed: 42).key     // "Planet:0"
/// ApolloTier3Records.chunk(0..<1_000, seed: 42)  // the first 1,000, as a build merges them
/// ```
enum ApolloTier3Records {
  /// The object types, a tenth of the records each; no name a prefix of another's key range.
  static let types = ["Planet", "Person", "Starship", "Species", "Vehicle", "Film", "Droid", "Moon", "Comet", "Galaxy"]
  /// The fields of every record, in the order they are written.
  static let fields = ["__typename", "id", "name", "mass", "height", "rank", "score", "active", "created", "homeworld"]
  /// The selection set the "type + selection set" scenario asks of each record of its type.
  static let selection = ["__typename", "id", "name", "mass"]
  /// The Int field the CTE sort orders by and the update sets.
  static let sortField = "mass"
  /// The type whose records the selection-set and sort scenarios read: the first.
  static var scenarioType: String { types[0] }

  /// The key of record `index`.
  static func key(_ index: Int) -> CacheKey {
    "\(types[index % types.count]):\(index / types.count)"
  }

  /// Record `index`: its values drawn from its own stream of the seed, so that any chunk is built
  /// alone, and one seed gives one store. With `fields` below ten, the first `fields` of
  /// ``fields`` (the store sizes of a growth: 100 records of 5 fields), the values the same.
  static func record(_ index: Int, seed: UInt64, fields count: Int = fields.count) -> Record {
    precondition((4...fields.count).contains(count), "a Tier-3 record holds the selection set's four fields to ten, not \(count)")
    var random = SplitMix64(seed: SplitMix64.mix(seed ^ UInt64(index)))
    let type = types[index % types.count]
    let number = index / types.count
    // Every value drawn, whatever the count, so that a field's value does not depend on it.
    let values: [RecordValue] = [
      .string(type), .string(String(number)), .string("\(type) \(number)"),
      .int(random.int(below: 1_000_000)), .int(random.int(below: 10_000)), .int(random.int(below: 100)),
      .double(Double(random.int(below: 1_000_000)) / 1_000), .bool(random.int(below: 2) == 1),
      .string("2026-\(1 + random.int(below: 12))-\(1 + random.int(below: 28))"),
      .reference(CacheReference("Planet:\(random.int(below: max(1, number + 1)))")),
    ]
    var builder = Record.Builder(key: "\(type):\(number)", capacity: 200)
    for (field, value) in zip(fields, values).prefix(count) { builder.append(field, value) }
    return builder.build()
  }

  /// The records of `indices`, as one merge of a build takes them, of `fields` fields each.
  static func chunk(_ indices: Range<Int>, seed: UInt64, fields: Int = fields.count) -> RecordSet {
    RecordSet(records: indices.map { record($0, seed: seed, fields: fields) })
  }

  /// The keys of `type`'s records in a store of `count` records, in key order (as text sorts:
  /// `Planet:0`, `Planet:1`, `Planet:10`, …).
  static func keys(ofType type: String, count: Int) -> [CacheKey] {
    guard let position = types.firstIndex(of: type) else { return [] }
    return stride(from: position, to: count, by: types.count).map(key).sorted()
  }

  // MARK: The scenarios' keys and patterns

  /// The `LIKE` scenarios: a prefix, a middle and a suffix pattern, each a few hundred to a few
  /// thousand keys of a 500,000-record store.
  static let likePatterns: [(name: String, pattern: String)] = [
    ("prefix", "Person:12%"), ("middle", "%et:7%"), ("suffix", "%777"),
  ]

  /// The key an iteration selects exactly: spread over the store, the same for a seed's store.
  static func exactKey(iteration: Int, count: Int) -> CacheKey {
    key(Int(SplitMix64.mix(UInt64(iteration)) % UInt64(count)))
  }

  /// The key an iteration updates: another record of the store.
  static func updateKey(iteration: Int, count: Int) -> CacheKey {
    key(Int(SplitMix64.mix(UInt64(iteration) &+ 0x5EED) % UInt64(count)))
  }

  /// The key an iteration inserts, a record of one field the store does not hold (removed after).
  static func insertKey(iteration: Int) -> CacheKey { "Inserted:\(iteration)" }
}
