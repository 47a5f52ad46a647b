import Generator
import GraphQLLanguage
import Measurement
import NormalizedCache
import Results
import Support
import Workloads

/// What one step of a paired run does (`cachebench worker`), on one configuration.
package enum StepKind: String, Sendable, Hashable, CaseIterable {
  /// Merges response `i`'s records, alternately as first written and as refetched with a share of
  /// their values changed: every merge changes records (SQLite writes its WAL), and the store swings
  /// between states it has held before instead of growing.
  case merge
  /// Reads operation `i` back through the strategy's reader.
  case read
  /// Loads one record by its key (the `i`-th of the written keys in a seeded order).
  case lookup

  /// The phase its verdict is reported under.
  package var phase: Phase {
    switch self {
    case .merge: .merge
    case .read: .read
    case .lookup: .lookup
    }
  }
}

/// One timing row of a worker: a configuration and a kind of step, with how many distinct steps
/// (indices) it has; index `i` means step `i % size`.
package struct StepRow: Sendable, Hashable {
  package let variant: String
  package let store: String
  package let keys: String
  package let kind: StepKind
  package let size: Int

  package init(variant: String, store: String, keys: String, kind: StepKind, size: Int) {
    self.variant = variant
    self.store = store
    self.keys = keys
    self.kind = kind
    self.size = size
  }
}

/// A workload loaded once, its stores filled once, performing single timed steps on request: one
/// side of `cachebench ab --paired` (see ``StepKind`` for what each step does and why the stores
/// stay in a steady state). Every configuration of the workload (variant × cache store × key
/// strategy; not the limit stores) gives three rows: merge, read and lookup.
///
/// ```swift
/// let worker = try StepWorker(workload: workload, quick: true)
/// let ns = try worker.step(row: 0, index: 12, count: 4)   // merges responses 12 to 15 of row 0
/// ```
package final class StepWorker {
  package let workload: Workload
  package private(set) var rows: [StepRow] = []
  private var configurations: [PreparedConfiguration] = []
  /// Per row: its configuration's position in `configurations`.
  private var rowConfiguration: [Int] = []
  private let slowdown: InjectedSlowdown?
  private let factory: StoreFactory

  /// The share of scalar values a merge step's refetch changes.
  static let churn = 0.25

  /// Prepares every configuration: generates or reads the responses, normalizes each as written and
  /// as refetched, and writes them all into a fresh store of each configuration. The rows come in
  /// the run's one order (``ConfigurationSequence``), three to a cache configuration.
  ///
  /// - Parameter slowdown: a delay added to the matching steps (tests of the paired verdicts).
  /// - Throws: as ``WorkloadRunner/run(_:options:run:)`` does for bad input and store errors.
  package init(workload: Workload, quick: Bool, slowdown: InjectedSlowdown? = nil) throws {
    self.workload = quick ? workload.quick() : workload
    self.slowdown = slowdown
    factory = try StoreFactory()
    for (variant, entries) in try ConfigurationSequence(self.workload).variants {
      guard case .responses(let source) = try PreparedVariant(variant.source, workload: self.workload, progress: Progress(enabled: false))
      else { continue }
      let refetched = try Self.refetches(source, seed: self.workload.seed)
      // Each strategy's records, normalized once for all its stores (with dates or without).
      var normalized: [Normalized: (written: [RecordSet], changed: [RecordSet])] = [:]
      for entry in entries where !entry.spec.isLimit {
        let configuration = Configuration(entry, source: .responses(source))
        let kind = Normalized(strategy: entry.strategy.name, clock: configuration.clock)
        let records = try normalized[kind] ?? Self.normalize(source, refetched: refetched, under: entry.strategy, clock: kind.clock)
        normalized[kind] = records
        let prepared = try PreparedConfiguration(
          configuration, workload: self.workload, factory: factory, written: records.written, changed: records.changed)
        for kind in StepKind.allCases {
          rows.append(
            StepRow(variant: variant.name, store: entry.spec.label, keys: entry.strategy.name, kind: kind, size: prepared.size(of: kind)))
          rowConfiguration.append(configurations.count)
        }
        configurations.append(prepared)
      }
    }
  }

  /// The records of every response under a strategy, with the clock of a store with dates.
  private struct Normalized: Hashable {
    let strategy: String
    let clock: WriteClock?
  }

  /// Every response's records under `strategy`, as written and as refetched; with a clock, written
  /// at its start and refetched a step later, so that every merge step moves the dates.
  private static func normalize(
    _ source: PreparedSource, refetched: [JSONValue], under strategy: NamedStrategy, clock: WriteClock?
  ) throws -> (written: [RecordSet], changed: [RecordSet]) {
    let normalizer = Normalizer(strategy: strategy.strategy)
    let written = try source.items.map { try normalizer.normalize(try $0.response(), plan: $0.plan, writtenAt: clock?.startAt).records }
    let changed = try zip(source.items, refetched).map {
      try normalizer.normalize($1, plan: $0.plan, writtenAt: clock?.time(atStep: 1)).records
    }
    return (written, changed)
  }

  /// Performs steps `index`, `index + 1`, ... (`count` of them, each modulo the row's size) of
  /// `row` and returns the nanoseconds they took together, an injected slowdown included.
  ///
  /// - Throws: ``RunError`` for a row that does not exist; the store's errors; a read's errors.
  package func step(row: Int, index: Int, count: Int) throws -> UInt64 {
    guard rows.indices.contains(row) else { throw RunError("no row \(row): the worker has rows 0 to \(rows.count - 1)") }
    guard index >= 0, count >= 1 else { throw RunError("no step \(index) (count \(count)): steps start at 0, counts at 1") }
    let kind = rows[row].kind
    let configuration = configurations[rowConfiguration[row]]
    let start = MonotonicClock.now()
    try configuration.perform(kind, from: index, count: count)
    let end = MonotonicClock.now()
    guard let slowdown, slowdown.applies(store: rows[row].store, kind: kind) else { return end - start }
    return slowdown.spin(after: end, elapsed: end - start) - start
  }

  /// Every response as the server returns it after changing a share ``churn`` of its values.
  private static func refetches(_ source: PreparedSource, seed: UInt64) throws -> [JSONValue] {
    var refetches = Refetches(schema: source.schema, churn: churn, seed: seed ^ 0x9A1D)
    return try source.items.enumerated().map { index, item in try refetches.refetch(item, index: index) }
  }
}

/// One configuration's filled store, and what its steps write and read.
private final class PreparedConfiguration {
  let store: any NormalizedCache
  let reader: CacheReader
  let plans: [OperationPlan]
  let written: [RecordSet]
  let changed: [RecordSet]
  /// Whether response `i` was last merged as refetched.
  var isChanged: [Bool]
  let lookupKeys: [CacheKey]

  init(
    _ configuration: Configuration, workload: Workload, factory: StoreFactory, written: [RecordSet], changed: [RecordSet]
  ) throws {
    store = try factory.make(configuration)
    reader = configuration.makeReader(store, workload: workload)
    guard case .responses(let source) = configuration.source else { preconditionFailure("a cache configuration has responses") }
    plans = source.items.map(\.plan)
    self.written = written
    self.changed = changed
    isChanged = Array(repeating: false, count: written.count)
    var keys: Set<CacheKey> = []
    for records in written {
      _ = try store.merge(records: records)
      for record in records { keys.insert(record.key) }
    }
    var ordered = keys.sorted()
    var random = SplitMix64(seed: workload.seed ^ 0x9E37)
    for index in stride(from: ordered.count - 1, to: 0, by: -1) { ordered.swapAt(index, random.int(below: index + 1)) }
    lookupKeys = ordered
  }

  func size(of kind: StepKind) -> Int {
    switch kind {
    case .merge, .read: plans.count
    case .lookup: lookupKeys.count
    }
  }

  func perform(_ kind: StepKind, from index: Int, count: Int) throws {
    let size = size(of: kind)
    for step in index..<index + count {
      let i = step % size
      switch kind {
      case .merge:
        isChanged[i].toggle()
        _ = try store.merge(records: isChanged[i] ? changed[i] : written[i])
      case .read:
        _ = try reader.read(plans[i])
      case .lookup:
        _ = try store.loadRecords(forKeys: [lookupKeys[i]])
      }
    }
  }
}
