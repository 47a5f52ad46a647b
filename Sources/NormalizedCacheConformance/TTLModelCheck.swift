import GraphQLLanguage
import NormalizedCache
import Support

/// Runs a store and the reader beside ``ReferenceTTL`` over random writes and reads at random
/// times (docs/ttl.md#reads-with-a-clock), and names the first step where they disagree: a store
/// of your own can run it.
///
/// ```swift
/// let failure = try TTLModelCheck.run(seed: 1, steps: 3_000) { MyStore() }
/// #expect(failure == nil)
/// ```
/// The operations (``TTLModelSchema``) read a small bookshop with `@cacheControl` on types and
/// fields (0, N, none, `inheritMaxAge`, an interface's), a field policy, nested objects and lists,
/// and a type of 73 fields. The clock moves 0 to 120 seconds a step (8 on average). Each step is
/// - a write (55%): a random part of an operation (a partial refetch), a random response, dated
///   now or, one write in seven, up to 90 seconds earlier (a late response); then the changed
///   keys and every written record's values and dates must be the model's;
/// - or a read (45%): a random part of an operation, aliases and operation `@cacheControl`
///   included, now, strict or permissive; the outcome, the data and every expired and missing
///   path must be the model's.
/// At the end every record the model holds must be the store's.
public enum TTLModelCheck {
  /// - Parameters:
  ///   - strategy: the key strategy the writes normalize under. Reads use field policies except
  ///     under path keys, as the workbench reads.
  ///   - makeStore: a fresh, empty store.
  /// - Returns: the first disagreement (the step, the operation, the time and what differed), or nil.
  /// - Throws: the store's errors.
  ///   - promises: what the store keeps beyond values and dates (``StoreConformance/Promises``):
  ///     without `.fieldOrder`, a record's fields are compared in the order of their names.
  public static func run(
    strategy: KeyStrategy = .typePolicy, seed: UInt64, steps: Int, promises: StoreConformance.Promises = .all,
    makeStore: () throws -> any NormalizedCache
  ) throws -> String? {
    try runCounting(strategy: strategy, seed: seed, steps: steps, promises: promises, makeStore: makeStore).failure
  }

  /// What a run went through, so that a test can see it was not idle: reads by outcome, the
  /// paths they found expired and missing, late writes, writes to records past 64 fields.
  struct Tally {
    var outcomes: [String: Int] = [:]
    var expiredPaths = 0
    var missingPaths = 0
    var lateWrites = 0
    var wideRecords = 0
  }

  /// ``run(strategy:seed:steps:makeStore:)``, with what the run went through.
  static func runCounting(
    strategy: KeyStrategy = .typePolicy, seed: UInt64, steps: Int, promises: StoreConformance.Promises = .all,
    makeStore: () throws -> any NormalizedCache
  ) throws -> (failure: String?, tally: Tally) {
    var check = try Check(strategy: strategy, seed: seed, store: try makeStore(), promises: promises)
    for step in 0..<steps {
      if let failure = try check.step(step) { return (failure, check.tally) }
    }
    return (try check.compareAll(), check.tally)
  }
}

/// One run of the check: the store, the model, the clock.
private struct Check {
  let store: any NormalizedCache
  let schema: Schema
  let normalizer: Normalizer
  let reader: CacheReader
  var model = ReferenceTTL()
  var tally = TTLModelCheck.Tally()
  var random: SplitMix64
  /// Seconds; from a date of early 2026, so that dates take the bytes real ones take.
  var clock: Int

  /// What the store keeps beyond values and dates.
  let promises: StoreConformance.Promises

  init(strategy: KeyStrategy, seed: UInt64, store: any NormalizedCache, promises: StoreConformance.Promises) throws {
    self.store = store
    self.promises = promises
    schema = try Schema(parsing: [Source(name: "ttl-model.graphqls", text: TTLModelSchema.text)])
    normalizer = Normalizer(strategy: strategy)
    reader = CacheReader(cache: store, useFieldPolicies: strategy.name != .path)
    random = SplitMix64(seed: seed)
    clock = 1_767_225_600 + random.int(below: 86_400)
  }

  mutating func step(_ step: Int) throws -> String? {
    let roll = random.int(below: 10)
    clock += roll < 4 ? 0 : roll < 9 ? 1 + random.int(below: 6) : 7 + random.int(below: 114)
    let (name, whole) = TTLModelSchema.operations[random.int(below: TTLModelSchema.operations.count)]
    if random.chance(percent: 55) {
      let selection = TTLModelSchema.withIDs(TTLModelSchema.part(of: whole, write: true, &random), &random)
      return try write(name, selection, step: step)
    }
    let selection = TTLModelSchema.withIDs(TTLModelSchema.part(of: whole, write: false, &random), &random)
    return try read(name, selection, step: step)
  }

  func plan(_ name: String, _ text: String) throws -> OperationPlan {
    try OperationPlan(document: ExecutableDocument(parsing: [Source(name: "\(name).graphql", text: text)]), schema: schema)
  }

  /// A write of a response to `selection`, dated now or a little earlier.
  mutating func write(_ name: String, _ selection: [ReferenceTTL.Selected], step: Int) throws -> String? {
    let text = TTLModelSchema.text(name, selection)
    let response = JSONValue.object(TTLModelSchema.response(selection, type: "Query", id: nil, &random))
    let date = random.int(below: 7) == 0 ? clock - 1 - random.int(below: 90) : clock
    if date < clock { tally.lateWrites += 1 }
    let plan = try plan(name, text)
    let dated = try normalizer.normalize(response, plan: plan, writtenAt: date).records
    // The model dates the records itself: the normalizer's own dates are under test.
    let expectedChanges = model.merge(try normalizer.normalize(response, plan: plan).records, at: date)
    let changes = Set(try store.merge(records: dated))
    tally.wideRecords += dated.keys.count { (model.records[$0]?.count ?? 0) > 64 }
    let what = "step \(step): the write of \(name) at \(date) (`\(text)`)"
    if changes != expectedChanges {
      return "\(what) changed \(changes.subtracting(expectedChanges).sorted()) that the model did not, "
        + "and not \(expectedChanges.subtracting(changes).sorted()) that it did"
    }
    return try compare(dated.keys, after: what)
  }

  /// The records of `keys`, the store's against the model's: fields, values and dates.
  func compare(_ keys: [CacheKey], after what: String) throws -> String? {
    let loaded = try store.loadRecordsInOrder(forKeys: keys)
    for (key, record) in zip(keys, loaded) {
      var expected = model.records[key].map { $0.map { "\($0.name): \($0.value.listingDescription) @\($0.writtenAt)" } }
      let dates = record?.writtenAt?.map(\.writtenAt) ?? record.map { Array(repeating: 0, count: $0.fieldCount) } ?? []
      var held = record.map { zip($0.fields, dates).map { "\($0.key): \($0.value.listingDescription) @\($1)" } }
      if !promises.contains(.fieldOrder) {
        // One order for both: each field once, its name first.
        expected = expected?.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        held = held?.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      }
      if !promises.contains(.emptyRecords), expected == [], held == nil { continue }
      guard held != expected else { continue }
      // The first field that differs, where both have the same fields; else the whole records.
      if let held, let expected, held.count == expected.count, let position = held.indices.first(where: { held[$0] != expected[$0] }) {
        return "\(what): \(key) holds \(held[position]), the model \(expected[position])"
      }
      return "\(what): \(key) holds \(held.map { "\($0)" } ?? "nothing"), the model \(expected.map { "\($0)" } ?? "nothing")"
    }
    return nil
  }

  /// A read of `selection` now, strict or permissive, against the model's.
  mutating func read(_ name: String, _ selection: [ReferenceTTL.Selected], step: Int) throws -> String? {
    let text = TTLModelSchema.text(name, selection)
    let ttl: TTLEnforcement = random.chance(percent: 50) ? .strict : .permissive
    let result = try reader.read(try plan(name, text), clock: ReadClock(now: clock, ttl: ttl))
    let read = ReferenceTTL.Read(
      outcome: result.outcome.name, data: result.data, expired: result.expired.map(ReadResult.spelled),
      missing: result.missing.map(ReadResult.spelled))
    let expected = model.read(
      selection, rootKey: "QUERY_ROOT", rootType: "Query", at: clock, ttl: ttl, policies: reader.useFieldPolicies,
      controls: TTLModelSchema.controls)
    tally.outcomes[read.outcome, default: 0] += 1
    tally.expiredPaths += read.expired.count
    tally.missingPaths += read.missing.count
    guard read != expected else { return nil }
    let what = "step \(step): the \(ttl) read of \(name) at \(clock) (`\(text)`)"
    if read.outcome != expected.outcome { return "\(what) was a \(read.outcome), the model's a \(expected.outcome)" }
    if read.expired != expected.expired { return "\(what) found \(read.expired) expired, the model \(expected.expired)" }
    if read.missing != expected.missing { return "\(what) found \(read.missing) missing, the model \(expected.missing)" }
    let data = { (data: JSONObject?) in data.map { JSONWriter.string(.object($0)) } ?? "null" }
    return "\(what) gave \(data(read.data)), the model \(data(expected.data))"
  }

  /// Every record the model holds, the store's against it.
  func compareAll() throws -> String? {
    try compare(model.records.keys.sorted(), after: "at the end")
  }
}
