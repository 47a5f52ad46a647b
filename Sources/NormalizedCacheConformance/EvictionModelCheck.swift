import NormalizedCache
import Support

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
    var run = Run(
      store: try makeStore(budget), model: ReferenceEviction(budget: budget, accountedBytes: accountedBytes),
      random: SplitMix64(seed: seed))
    for step in 0..<steps {
      let (what, expectedGone): (String, [CacheKey])
      switch try run.step() {
      case .failed(let failure): return "step \(step): \(failure)"
      case .refused: continue
      case .done(let done, let gone): (what, expectedGone) = (done, gone)
      }
      let report = try run.store.takeEvictions()
      if report.keys != expectedGone {
        return "step \(step): \(what) evicted \(report.keys), the model \(expectedGone)"
      }
      if try run.store.accountedBytes() != run.model.bytes {
        return "step \(step): after \(what) the store accounts \(try run.store.accountedBytes()) bytes, the model \(run.model.bytes)"
      }
    }
    return try run.compareAll()
  }

  /// The store and the model side by side, and the random steps they take.
  private struct Run {
    let store: any BoundedNormalizedCache
    var model: ReferenceEviction
    var random: SplitMix64
    let keys = [RootKey.query] + (1..<40).map { "Item:\($0)" }
    var clock = 0

    /// What a step did: its description and the records the model says went; or a record too
    /// large that both refused (nothing to compare); or the store's first disagreement.
    enum Outcome {
      case done(String, gone: [CacheKey])
      case refused
      case failed(String)
    }

    /// One random step: a merge (45%), a load (40%), a removal (7%) or the clock moved (8%).
    mutating func step() throws -> Outcome {
      let roll = random.int(below: 100)
      if roll < 45 { return try merge() }
      if roll < 85 { return try load() }
      if roll < 92 {
        let key = keys[random.int(below: keys.count)]
        model.remove(key)
        try store.removeRecord(for: key)
        return .done("removal of \(key)", gone: [])
      }
      clock += 1 + random.int(below: 3)
      model.advance(to: clock)
      try store.advanceClock(to: clock)
      return .done("clock to \(clock)", gone: [])
    }

    /// A few records merged: within the budget after it; refused by both when one is larger than it.
    mutating func merge() throws -> Outcome {
      // Distinct keys, so that the set merges them in this order, as the model does.
      var batchKeys: [CacheKey] = []
      for _ in 0..<1 + random.int(below: 4) {
        let key = keys[random.int(below: keys.count)]
        if !batchKeys.contains(key) { batchKeys.append(key) }
      }
      let batch = batchKeys.map { randomRecord($0, &random) }
      let what = "merge of \(batch.map(\.key))"
      guard let gone = try model.merge(batch) else {
        do {
          try store.merge(records: RecordSet(records: batch))
          return .failed("\(what) holds a record larger than the budget, and the store took it")
        } catch is CacheBudgetError {
          return .refused
        }
      }
      try store.merge(records: RecordSet(records: batch))
      if let limit = model.budget.maxSizeBytes, try store.accountedBytes() > limit {
        return .failed("\(what) left \(try store.accountedBytes()) bytes, past the budget of \(limit)")
      }
      return .done(what, gone: gone)
    }

    /// A few keys loaded (repeats included): exactly the model's records.
    mutating func load() throws -> Outcome {
      let wanted = (0..<1 + random.int(below: 6)).map { _ in keys[random.int(below: keys.count)] }
      let what = "load of \(wanted)"
      let (expected, gone) = model.load(wanted)
      let loaded = try store.loadRecordsInOrder(forKeys: wanted)
      for (position, key) in wanted.enumerated() where loaded[position] != expected[position] {
        return .failed(
          "\(what) gave \(loaded[position].map(\.description) ?? "nothing") for \(key), the model \(expected[position].map(\.description) ?? "nothing")"
        )
      }
      return .done(what, gone: gone)
    }

    /// Everything the model holds (and has not expired), the store holds, and nothing else.
    mutating func compareAll() throws -> String? {
      let all = Array(Set(keys)).sorted()
      let held = try store.loadRecordsInOrder(forKeys: all)
      let expected = model.load(all).records
      for (position, key) in all.enumerated() where held[position] != expected[position] {
        return "at the end the store \(held[position] == nil ? "lacks" : "holds") \(key)"
      }
      return nil
    }
  }

  /// A record of 1 to 5 of ten fields, with values of varied sizes.
  static func randomRecord(_ key: CacheKey, _ random: inout SplitMix64) -> Record {
    var fields: [(String, RecordValue)] = []
    for field in 0..<10 where random.int(below: 10) < 4 || fields.isEmpty && field == 9 {
      let value: RecordValue =
        switch random.int(below: 4) {
        case 0: .int(random.int(below: 1_000))
        case 1: .string(String(repeating: "s", count: random.int(below: 120)))
        case 2: .reference("Item:\(random.int(below: 40))")
        default: .list((0..<random.int(below: 4)).map { _ in .string("e") })
        }
      fields.append(("f\(field)", value))
    }
    return Record(key: key, fields: fields)
  }
}
