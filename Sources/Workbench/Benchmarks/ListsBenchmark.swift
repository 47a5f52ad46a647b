import Measurement
import NormalizedCache
import Results
import Workloads

/// The list scenarios (docs/metrics.md#lists), ADR 0006's for Apollo iOS 3.0's storage: for each
/// kind of element and each list size N, on the records of ``ListRecords``, three scenarios run as
/// Apollo's Tier-2 scenarios run (``IteratedBenchmark``), each in a store of its own:
///
/// 1. `read_<elements>_<N>` (`read-record-with-list-of-N`): `loadRecords(forKeys:)` of the record,
///    in a store holding it.
/// 2. `write_<elements>_<N>` (`write-list-of-N`): the record merged under a key new to the store
///    each iteration (`Owner:<elements>_<N>_<i>`), so every merge writes; the store keeps them all.
/// 3. `mutate_<elements>_<N>` (`mutate-element-at-position-K-in-list-of-N`): the record merged
///    with element K changed to the iteration's own value, into a store holding it, so every merge
///    changes exactly one element; afterwards the store must hold N elements and the last value at K.
///
/// Every record is built before the clock starts: the clock times the store alone. Then, in a
/// pass of its own, `bytes_per_record_<elements>_<N>`: a fresh store holding ⌈10,000 / N⌉ such
/// records (deterministic). Last, with two sizes or more, `growth_<operation>_<elements>` and
/// `growth_ratio_<operation>_<elements>`: how each scenario's p50 grows with N (``Growth``). Its
/// rows carry the key strategy `typePolicy`.
struct ListsBenchmark: IteratedBenchmark {
  let configuration: Configuration
  let context: ExecutionContext
  let lists: ListsConfig

  init?(_ configuration: Configuration, _ context: ExecutionContext) {
    guard case .lists(let lists) = configuration.source else { return nil }
    self.configuration = configuration
    self.context = context
    self.lists = lists
  }

  /// The elements the footprint's store holds across its records, about.
  static let footprintElements = 10_000

  func measure(into sink: inout MetricSamples) throws {
    for elements in ListScenario.Elements.allCases {
      for size in lists.sizes {
        try measureRead(elements, size: size, into: &sink)
        try measureWrite(elements, size: size, into: &sink)
        try measureMutate(elements, size: size, into: &sink)
      }
    }
    for elements in ListScenario.Elements.allCases {
      for size in lists.sizes { try measureFootprint(elements, size: size, into: &sink) }
    }
    // How each operation's p50 grows with N, over the run's sizes (docs/metrics.md#growth).
    for elements in ListScenario.Elements.allCases {
      for operation in ListScenario.Operation.allCases {
        sink.appendGrowth(
          "\(operation.rawValue)_\(elements.rawValue)", phase: .lists,
          over: lists.sizes.map { ($0, ListScenario(operation, elements, size: $0).metric) })
      }
    }
  }

  /// Scenario 1: one store holding the record; each iteration loads it.
  private func measureRead(_ elements: ListScenario.Elements, size: Int, into sink: inout MetricSamples) throws {
    defer { factory.removeFiles() }
    let store = try factory.make(configuration)
    let key = ListRecords.key(elements, size: size)
    try store.merge(records: RecordSet(records: [ListRecords.record(key: key, elements, size: size)]))
    var last: Record?
    try iterate(ListScenario(.read, elements, size: size).metric, into: &sink) { _ in
      let (loaded, ns) = try MonotonicClock.timed { try store.loadRecords(forKeys: [key]) }
      last = loaded[key]
      try expect(last != nil, "did not load \(key)")
      return ns
    }
    let count = ListRecords.elements(of: last?[ListRecords.listField], elements)?.count
    try expect(count == size, "loaded \(key) with \(count.map(String.init) ?? "no") list of its \(size) elements")
  }

  /// Scenario 2: one store; each iteration merges the record under a new key.
  private func measureWrite(_ elements: ListScenario.Elements, size: Int, into sink: inout MetricSamples) throws {
    defer { factory.removeFiles() }
    let store = try factory.make(configuration)
    try iterate(ListScenario(.write, elements, size: size).metric, into: &sink) { iteration in
      let records = RecordSet(records: [
        ListRecords.record(key: ListRecords.key(elements, size: size, index: iteration), elements, size: size)
      ])
      return try MonotonicClock.time { _ = try store.merge(records: records) }
    }
    let written = (0..<iterations).map { ListRecords.key(elements, size: size, index: $0) }
    let held = try store.loadRecords(forKeys: written).count
    try expect(held == written.count, "holds \(held) of the \(written.count) records with a list of \(size) \(elements) written")
  }

  /// Scenario 3: one store holding the record; each iteration merges it with element K changed
  /// to a value of its own: one changed field per merge, and the stored list as the last wrote it.
  private func measureMutate(_ elements: ListScenario.Elements, size: Int, into sink: inout MetricSamples) throws {
    defer { factory.removeFiles() }
    let store = try factory.make(configuration)
    let key = ListRecords.key(elements, size: size)
    let position = lists.changedIndex(size: size)
    try store.merge(records: RecordSet(records: [ListRecords.record(key: key, elements, size: size)]))
    try iterate(ListScenario(.mutate, elements, size: size).metric, into: &sink) { iteration in
      let change = ListRecords.Change(index: position, iteration: iteration)
      let records = RecordSet(records: [ListRecords.record(key: key, elements, size: size, change: change)])
      let (changed, ns) = try MonotonicClock.timed { try store.merge(records: records) }
      // The limit stores replace records whole and report no changed keys (docs/metrics.md#limits).
      let field = "\(key).\(ListRecords.listField)"
      try expect(
        configuration.spec.isLimit || Set(changed) == [field],
        "changed \(Array(Set(changed)).sorted()) changing element \(position) of \(field)")
      return ns
    }
    let stored = ListRecords.elements(of: try store.loadRecords(forKeys: [key])[key]?[ListRecords.listField], elements)
    let last = ListRecords.changedValue(elements, iteration: iterations - 1)
    try expect(
      stored?.count == size && stored?[position] == last,
      "holds \(key) with \(stored?.count ?? 0) elements and \(stored.map { "\($0[min(position, $0.count - 1)])" } ?? "nothing") at \(position); expected \(size), and \(last) from the last change"
    )
  }

  /// `bytes_per_record_<elements>_<N>`: a fresh store's bytes after merging ⌈10,000 / N⌉ records
  /// with a list of N, checkpointed where the store has a steady state, per record.
  private func measureFootprint(_ elements: ListScenario.Elements, size: Int, into sink: inout MetricSamples) throws {
    let count = max(1, (Self.footprintElements + size - 1) / size)
    let keys = { (0..<count).map { ListRecords.key(elements, size: size, index: $0) } }
    var footprint: Footprint?
    let harness = Harness(warmup: 0, repetitions: 1)
    _ = try harness.run(make: { try factory.make(configuration) }, cleanUp: factory.removeFiles) { store, repetition in
      // Released before the live bytes are read, so that the store owns the buffers, as after a real write.
      var records: RecordSet? = RecordSet(records: keys().map { ListRecords.record(key: $0, elements, size: size) })
      try store.merge(records: records!)
      records = nil
      footprint = try store.footprint(of: keys, liveBytes: try repetition.liveBytes())
      footprint?.settledBytes = try store.capabilities.footprint?.settledBytes()
    }
    guard let footprint else { return }
    try expect(
      footprint.recordCount == count, "holds \(footprint.recordCount) records after merging \(count) with a list of \(size) \(elements)")
    let bytes = Double(footprint.settledBytes ?? footprint.storeBytes) / Double(count)
    sink.append(bytes, to: .listBytesPerRecord(elements, size: size))
  }
}
