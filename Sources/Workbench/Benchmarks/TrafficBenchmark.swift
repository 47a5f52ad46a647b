import Generator
import Measurement
import NormalizedCache
import Results
import Workloads

/// An app session on a store (docs/bounded-and-concurrent.md, `traffic`; see ``TrafficSession``),
/// then garbage collection on what it left and, for a store on database pages, what the file
/// holds after it, after a clear and after a vacuum. What it measures follows the store's
/// ``StoreCapabilities``: the budget's rows for a store that accounts its bytes, the tiers' for two
/// tiers, garbage collection for a store that lists its keys, the disk for a store on pages; a
/// store without one is not measured there (a chain whose back is in memory has no disk).
struct TrafficBenchmark: Benchmark {
  let configuration: Configuration
  let source: PreparedSource
  let settings: TrafficSettings
  let context: ExecutionContext

  init?(_ configuration: Configuration, _ context: ExecutionContext) {
    guard let settings = configuration.traffic, case .cache = configuration.spec.role,
      case .responses(let source) = configuration.source, !source.items.isEmpty
    else { return nil }
    self.configuration = configuration
    self.source = source
    self.settings = settings
    self.context = context
  }

  var workload: Workload { context.workload }

  func measure(into samples: inout MetricSamples) throws {
    defer { context.factory.removeFiles() }
    let store = try context.factory.make(configuration)
    let capabilities = store.capabilities
    var session = TrafficSession(configuration, source: source, settings: settings, workload: workload, store: store)
    for step in 0..<settings.steps {
      if step % 256 == 0 { context.progress.update("traffic, step \(step + 1)/\(settings.steps)") }
      try session.run(step: step)
    }
    session.addRows(into: &samples)
    if settings.gc, let keys = capabilities.keyListing {
      let (report, elapsed) = try MonotonicClock.timed { try GarbageCollection.collect(in: store, keys: keys) }
      samples.append(report.recordsRemoved, to: .gcRecordsRemoved)
      samples.append(report.bytesFreed, to: .gcBytesFreed)
      samples.append(report.danglingReferences, to: .gcDanglingReferences)
      samples.append(Double(elapsed), to: .gcLatency)
    }
    if let pages = capabilities.pages { try measureDisk(store, pages, into: &samples) }
  }

  /// What the session left on disk (after its garbage collection), and what giving it back costs:
  /// the free pages evictions left, by `PRAGMA incremental_vacuum` where the file was made for it,
  /// then the whole file rewritten by `VACUUM`; then a `clear()`, and the file shrunk after it (by
  /// incremental vacuum where it can, else `VACUUM`: Apollo iOS's `shouldVacuumOnClear`). The
  /// clear goes through the store (a chain's front too), the rest to its pages.
  private func measureDisk(_ store: any NormalizedCache, _ pages: any PagedStore, into samples: inout MetricSamples) throws {
    let after = try pages.settledPages()
    samples.append(after.bytes, to: .fileBytes)
    samples.append(after.freeBytes, to: .freeBytes)
    let incremental = try pages.vacuumsIncrementally()
    if incremental {
      let (_, elapsed) = try MonotonicClock.timed { try pages.incrementalVacuum() }
      samples.append(Double(elapsed), to: .incrementalVacuumLatency)
      samples.append(try pages.settledPages().bytes, to: .fileBytesAfterIncrementalVacuum)
    }
    let (_, elapsed) = try MonotonicClock.timed { try pages.vacuum() }
    samples.append(Double(elapsed), to: .vacuumLatency)
    samples.append(try pages.settledPages().bytes, to: .fileBytesAfterVacuum)
    try store.clear()
    let cleared = try pages.settledPages()
    samples.append(cleared.bytes, to: .fileBytesAfterClear)
    samples.append(cleared.freeBytes, to: .freeBytesAfterClear)
    let (_, shrink) = try MonotonicClock.timed { try incremental ? pages.incrementalVacuum() : pages.vacuum() }
    samples.append(Double(shrink), to: .clearVacuumLatency)
    samples.append(try pages.settledPages().bytes, to: .fileBytesAfterClearVacuum)
  }
}
