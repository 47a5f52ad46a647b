import NormalizedCache

/// Runs a bounded store and ``ReferenceEviction`` side by side over random steps, and names the
/// first step where they disagree: a store of your own that keeps to a ``CacheBudget`` can run it.
///
/// ```swift
/// let failure = try EvictionModelCheck.run(
///   budget: budget, accountedBytes: ReferenceEviction.keyAndFields(overhead: MyStore.overhead), seed: 7, steps: 3_000
/// ) {
///   try MyStore(budget: $0)
/// }
/// #expect(failure == nil)
/// ```
/// Each step merges a few records (of 40 keys, with fields that grow and shrink), loads a few keys
/// (repeats included), removes one, or moves the clock. After each it checks:
/// - the records evicted or expired are exactly the ones the model names, in its order;
/// - a load returns exactly the model's records: never one that was evicted or expired;
/// - the store is within its budget after every merge, and its accounted bytes are the model's.
public enum EvictionModelCheck {
  /// - Parameter accountedBytes: what the store counts for a record (see
  ///   ``ReferenceEviction/keyAndFields(overhead:)``); reckoned apart from the store's own count.
  public static func run(
    budget: CacheBudget, accountedBytes: @escaping (Record) throws -> Int, seed: UInt64, steps: Int,
    makeStore: (CacheBudget) throws -> any BoundedNormalizedCache
  ) throws -> String? {
    var budget = budget
    budget.reportsEvictedKeys = true
    let store = try makeStore(budget)
    var model = ReferenceEviction(budget: budget, accountedBytes: accountedBytes)
    var random = SplitMix(seed: seed)
    let keys = [RootKey.query] + (1..<40).map { "Item:\($0)" }
    var clock = 0
    for step in 0..<steps {
      let roll = random.below(100)
      let what: String
      var expectedGone: [CacheKey] = []
      if roll < 45 {
        // Distinct keys, so that the set merges them in this order, as the model does.
        var batchKeys: [CacheKey] = []
        for _ in 0..<1 + random.below(4) {
          let key = keys[random.below(keys.count)]
          if !batchKeys.contains(key) { batchKeys.append(key) }
        }
        let batch = batchKeys.map { randomRecord($0, &random) }
        what = "merge of \(batch.map(\.key))"
        guard let gone = try model.merge(batch) else {
          do {
            try store.merge(records: RecordSet(records: batch))
            return "step \(step): \(what) holds a record larger than the budget, and the store took it"
          } catch is CacheBudgetError {
            continue
          }
        }
        expectedGone = gone
        try store.merge(records: RecordSet(records: batch))
        if let limit = budget.maxSizeBytes, try store.accountedBytes() > limit {
          return "step \(step): \(what) left \(try store.accountedBytes()) bytes, past the budget of \(limit)"
        }
      } else if roll < 85 {
        let wanted = (0..<1 + random.below(6)).map { _ in keys[random.below(keys.count)] }
        what = "load of \(wanted)"
        let (expected, gone) = model.load(wanted)
        expectedGone = gone
        let loaded = try store.loadRecordsInOrder(forKeys: wanted)
        for (position, key) in wanted.enumerated() where loaded[position] != expected[position] {
          return "step \(step): \(what) gave \(loaded[position].map(\.description) ?? "nothing") for \(key), the model \(expected[position].map(\.description) ?? "nothing")"
        }
      } else if roll < 92 {
        let key = keys[random.below(keys.count)]
        what = "removal of \(key)"
        model.remove(key)
        try store.removeRecord(for: key)
      } else {
        clock += 1 + random.below(3)
        what = "clock to \(clock)"
        model.advance(to: clock)
        try store.advanceClock(to: clock)
      }
      let report = try store.takeEvictions()
      if report.keys != expectedGone {
        return "step \(step): \(what) evicted \(report.keys), the model \(expectedGone)"
      }
      if try store.accountedBytes() != model.bytes {
        return "step \(step): after \(what) the store accounts \(try store.accountedBytes()) bytes, the model \(model.bytes)"
      }
    }
    // Everything the model holds (and has not expired), the store holds, and nothing else.
    let all = Array(Set(keys)).sorted()
    let held = try store.loadRecordsInOrder(forKeys: all)
    let expected = model.load(all).records
    for (position, key) in all.enumerated() where held[position] != expected[position] {
      return "at the end the store \(held[position] == nil ? "lacks" : "holds") \(key)"
    }
    return nil
  }

  /// A record of 1 to 5 of ten fields, with values of varied sizes.
  static func randomRecord(_ key: CacheKey, _ random: inout SplitMix) -> Record {
    var fields: [(String, RecordValue)] = []
    for field in 0..<10 where random.below(10) < 4 || fields.isEmpty && field == 9 {
      let value: RecordValue =
        switch random.below(4) {
        case 0: .int(random.below(1_000))
        case 1: .string(String(repeating: "s", count: random.below(120)))
        case 2: .reference("Item:\(random.below(40))")
        default: .list((0..<random.below(4)).map { _ in .string("e") })
        }
      fields.append(("f\(field)", value))
    }
    return Record(key: key, fields: fields)
  }
}
