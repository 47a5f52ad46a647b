import Foundation
import Generator
import GraphQLLanguage
import Measurement
import NormalizedCache
import Results
import Support
import Workloads

/// Reads on several OS threads while writes land (`concurrency`): for each reader count, the
/// readers read operations chosen by popularity until they have read the run's operations between
/// them, first alone and then while writer threads merge refetched responses; then alone again on
/// hot records, every reader the same operations in the same order. So both cases are always
/// measured: readers spread over the operations, and readers on the same records at once
/// (docs/bounded-and-concurrent.md#hot-records). The store holds every response before the first run.
///
/// Each thread has plans of its own (a plan fills its memos as it is used), made from the
/// prepared plans' recipes, and reads each of its operations once before the clock starts. Every
/// thread waits at one start line; a run's reads per second are its reads over the wall time from
/// the start until its last reader finished. The writers normalize a refetch outside the clock
/// and time the merge alone; each stops when the readers have finished or when it has merged
/// `operations` times, whichever comes first, after one merge at least: a run ends even over a
/// store whose merges hold its reads off.
struct ConcurrencyBenchmark: Benchmark {
  let configuration: Configuration
  let source: PreparedSource
  let settings: ConcurrencySettings
  let context: ExecutionContext

  init?(_ configuration: Configuration, _ context: ExecutionContext) {
    guard let settings = context.workload.concurrency, case .cache = configuration.spec.role,
      case .responses(let source) = configuration.source, !source.items.isEmpty
    else { return nil }
    self.configuration = configuration
    self.source = source
    self.settings = settings
    self.context = context
  }

  var workload: Workload { context.workload }

  /// The operations' responses a writer refetches: the most popular, at most this many, parsed
  /// once on the main thread (a response may be generated or read from a file when needed, which
  /// is not for several threads at once).
  static let refetchedItems = 64

  func measureScopes() throws -> [MeasuredConfiguration] {
    defer { context.factory.removeFiles() }
    let store = try context.factory.make(configuration)
    let normalizer = Normalizer(strategy: configuration.strategy.strategy)
    for (index, item) in source.items.enumerated() {
      context.progress.update("concurrency, writing response \(index + 1)/\(source.items.count)")
      try store.merge(records: try normalizer.normalize(try item.response(), plan: item.plan, writtenAt: configuration.writtenAt).records)
    }
    let plan = try RunPlan(source: source, settings: settings, seed: workload.seed, configuration: configuration, workload: workload)
    var byReaders = Dictionary(uniqueKeysWithValues: settings.readers.map { ($0, MetricSamples()) })
    let rounds = workload.warmup + workload.repetitions
    for round in 0..<rounds {
      for readers in settings.readers {
        let label = "concurrency, \(round < workload.warmup ? "warm-up" : "repetition \(round - workload.warmup + 1)"), \(readers) readers"
        context.progress.update(label)
        let alone = try plan.run(store: store, readers: readers, writers: 0, round: round)
        var withWriters: RunOutcome?
        if settings.writers > 0 {
          context.progress.update(label + " and \(settings.writers) writers")
          withWriters = try plan.run(store: store, readers: readers, writers: settings.writers, round: round)
        }
        context.progress.update(label + ", hot records")
        let hot = try plan.run(store: store, readers: readers, writers: 0, round: round, hot: true)
        guard round >= workload.warmup else { continue }
        alone.add(to: &byReaders[readers]!, as: .spread)
        withWriters?.add(to: &byReaders[readers]!, as: .writing)
        hot.add(to: &byReaders[readers]!, as: .hot)
      }
    }
    let scope = configuration.scope
    return settings.readers.map { readers in
      MeasuredConfiguration(
        scope: Scope(variant: scope.variant, store: scope.store, keys: scope.keys, readers: readers), samples: byReaders[readers]!)
    }
  }
}

/// The runs of a reader count, and the metrics of their reads.
private enum RunKind {
  /// Readers alone, each its own draws of the operations.
  case spread
  /// The same, beside the writers.
  case writing
  /// Readers alone, all on the same draws among the most popular operations.
  case hot

  var metrics: (readsPerSecond: Metric, readLatency: Metric, readLockWait: Metric) {
    switch self {
    case .spread: (.readsPerSecond, .concurrentReadLatency, .readLockWait)
    case .writing: (.readsPerSecondWriting, .concurrentReadLatencyWriting, .readLockWaitWriting)
    case .hot: (.readsPerSecondHot, .concurrentReadLatencyHot, .readLockWaitHot)
    }
  }
}

/// What one run measured.
private struct RunOutcome {
  var readLatencies: [Double] = []
  var wallNanoseconds: UInt64 = 0
  var mergeLatencies: [Double] = []
  var waits = LockWaits()

  func add(to samples: inout MetricSamples, as kind: RunKind) {
    let reads = readLatencies.count
    let seconds = Double(max(wallNanoseconds, 1)) / 1e9
    let metrics = kind.metrics
    samples.append(Double(reads) / seconds, to: metrics.readsPerSecond)
    for latency in readLatencies { samples.append(latency, to: metrics.readLatency) }
    samples.append(Double(waits.readNanoseconds) / Double(max(reads, 1)), to: metrics.readLockWait)
    guard case .writing = kind else { return }
    samples.append(Double(mergeLatencies.count) / seconds, to: .writesPerSecond)
    for latency in mergeLatencies { samples.append(latency, to: .concurrentWriteLatency) }
    if !mergeLatencies.isEmpty {
      samples.append(Double(waits.writeNanoseconds) / Double(mergeLatencies.count), to: .writeLockWait)
    }
  }
}

/// The operations the readers of a run read, drawn by popularity from one seeded generator per
/// reader and round: spread, each reader draws of its own among all the operations; hot, every
/// reader the same draws among the `hotOperations` most popular, so that they read the same
/// records at the same time.
struct ReaderDraws: Sendable {
  /// The items, most popular first.
  let popularity: [Int]
  let spread: ZipfDistribution
  /// Over the first `hotOperations` of ``popularity``.
  let hot: ZipfDistribution
  let seed: UInt64

  init(popularity: [Int], settings: ConcurrencySettings, seed: UInt64) {
    self.popularity = popularity
    spread = ZipfDistribution(count: popularity.count, exponent: settings.zipf)
    hot = ZipfDistribution(count: min(settings.hotOperations, popularity.count), exponent: settings.zipf)
    self.seed = seed
  }

  /// The items reader `thread` reads in `round`.
  func items(count: Int, thread: Int, round: Int, hot isHot: Bool) -> [Int] {
    var random = SplitMix64(seed: seed ^ 0x5EAD ^ (isHot ? 0x407 : UInt64(thread) << 20) ^ UInt64(round) << 40)
    let distribution = isHot ? hot : spread
    return (0..<count).map { _ in popularity[distribution.rank(forUniform: random.double())] }
  }
}

/// Everything a run's threads share, all `Sendable`: the operations' recipes, the draws, the
/// writers' responses, the reader's settings.
private struct RunPlan: Sendable {
  let recipes: [OperationPlan.Recipe]
  let draws: ReaderDraws
  /// The writers' popularity over ``refetched``.
  let refetchZipf: ZipfDistribution
  let operations: Int
  let seed: UInt64
  let schema: Schema
  let churn: Double
  let writePause: Int
  /// The writers' items and their responses' data.
  let refetched: [(item: Int, data: JSONObject)]
  let strategy: KeyStrategy
  let useFieldPolicies: Bool
  let provider: (any FieldPolicyProvider)?
  /// A store with dates: refetch `v` of a writer is dated at step `v` of this clock.
  let clock: WriteClock?

  init(source: PreparedSource, settings: ConcurrencySettings, seed: UInt64, configuration: Configuration, workload: Workload) throws {
    recipes = try source.items.map { item in
      guard let recipe = item.plan.recipe else { throw RunError("\(item.label): a fragment's plan cannot be read concurrently") }
      return recipe
    }
    var random = SplitMix64(seed: seed ^ 0xC0C0)
    var order = Array(source.items.indices)
    for index in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(index, random.int(below: index + 1)) }
    draws = ReaderDraws(popularity: order, settings: settings, seed: seed)
    operations = settings.operations
    self.seed = seed
    schema = source.schema
    churn = settings.churn
    writePause = settings.writePauseMicroseconds
    refetched =
      settings.writers == 0
      ? [] : try order.prefix(ConcurrencyBenchmark.refetchedItems).map { ($0, try Normalizer.data(of: try source.items[$0].response())) }
    refetchZipf = ZipfDistribution(count: max(1, refetched.count), exponent: settings.zipf)
    strategy = configuration.strategy.strategy
    clock = configuration.clock
    let reader = configuration.makeReader(InMemoryNormalizedCache(), workload: workload)
    useFieldPolicies = reader.useFieldPolicies
    provider = reader.fieldPolicyProvider
  }

  /// One run: `readers` threads read `operations` between them while `writers` threads merge;
  /// `hot`, all of them the same operations.
  func run(store: any NormalizedCache, readers: Int, writers: Int, round: Int, hot: Bool = false) throws -> RunOutcome {
    let start = StartLine(threads: readers + writers)
    let stop = Flag()
    let results = Lock(RunOutcome())
    let failures = Lock<[String]>([])
    var readerThreads: [JoinableThread] = []
    _ = store.capabilities.lockWaits?.takeLockWaits()
    for thread in 0..<readers {
      let share = operations / readers + (thread < operations % readers ? 1 : 0)
      readerThreads.append(
        JoinableThread {
          do {
            let items = draws.items(count: share, thread: thread, round: round, hot: hot)
            let latencies = try read(store: store, items: items, start: start)
            results.withLock { $0.readLatencies += latencies }
          } catch {
            start.abandon()
            failures.withLock { $0.append("reader \(thread): \(error)") }
          }
        })
    }
    var writerThreads: [JoinableThread] = []
    for thread in 0..<writers {
      writerThreads.append(
        JoinableThread {
          do {
            let latencies = try write(store: store, thread: thread, round: round, start: start, stop: stop)
            results.withLock { $0.mergeLatencies += latencies }
          } catch {
            start.abandon()
            failures.withLock { $0.append("writer \(thread): \(error)") }
          }
        })
    }
    let began = start.waitForEveryone()
    for thread in readerThreads { thread.join() }
    let ended = MonotonicClock.now()
    stop.set()
    for thread in writerThreads { thread.join() }
    if let failure = failures.withLock({ $0.first }) { throw RunError("concurrency, \(readers) readers, \(writers) writers: \(failure)") }
    var outcome = results.withLock { $0 }
    outcome.wallNanoseconds = ended - began
    outcome.waits = store.capabilities.lockWaits?.takeLockWaits() ?? LockWaits()
    return outcome
  }

  /// A reader: plans of its own, each operation read once, then `items` read, each timed. Nothing
  /// in the timed loop is shared with another thread but the store: the reader, its plans and the
  /// latencies are the thread's own, and each response is dropped where it was read.
  private func read(store: any NormalizedCache, items: [Int], start: StartLine) throws -> [Double] {
    let plans = recipes.map(OperationPlan.init)
    let reader = CacheReader(cache: store, useFieldPolicies: useFieldPolicies, fieldPolicyProvider: provider)
    for plan in plans { _ = try reader.read(plan) }
    var latencies: [Double] = []
    latencies.reserveCapacity(items.count)
    guard start.arrive() else { return [] }
    for item in items {
      let begin = MonotonicClock.now()
      _ = try reader.read(plans[item])
      latencies.append(Double(MonotonicClock.now() - begin))
    }
    return latencies
  }

  /// A writer: refetches of the popular operations, normalized outside the clock, each merge timed;
  /// until the readers are done, at most ``operations`` merges (at least one).
  private func write(store: any NormalizedCache, thread: Int, round: Int, start: StartLine, stop: Flag) throws -> [Double] {
    let normalizer = Normalizer(strategy: strategy)
    var plans: [Int: OperationPlan] = [:]
    var server = Server(schema: schema, churn: churn, seed: seed ^ 0x3A17 ^ UInt64(thread) << 20, shrinksLists: false)
    var random = SplitMix64(seed: seed ^ 0x3A17 ^ UInt64(thread) << 20 ^ UInt64(round) << 40)
    var latencies: [Double] = []
    var version = round << 24
    func next() throws -> RecordSet {
      let (item, data) = refetched[refetchZipf.rank(forUniform: random.double())]
      version += 1
      let plan = plans[item] ?? OperationPlan(recipes[item])
      plans[item] = plan
      let response = try server.respond(data: data, place: String(item), version: version, changing: true)
      return try normalizer.normalize(response, plan: plan, writtenAt: clock?.time(atStep: version)).records
    }
    var records = try next()
    guard start.arrive() else { return [] }
    // At least one merge, so that a run's rows do not depend on whether the readers were quicker;
    // at most `operations`, so that a store that lets no read in while merges come still ends.
    latencies.reserveCapacity(min(operations, 4_096))
    while true {
      let begin = MonotonicClock.now()
      try store.merge(records: records)
      latencies.append(Double(MonotonicClock.now() - begin))
      if latencies.count >= operations || stop.isSet { return latencies }
      records = try next()
      if writePause > 0 { usleep(UInt32(writePause)) }
    }
  }

}

/// An OS thread (the cooperative pool has one a core) that is joined: when ``join()`` returns the
/// thread has exited, its thread-local caches released. A thread that is only waited for (a
/// dispatch group's leave) may still be freeing them, in jemalloc's process-wide counts, while
/// the next configuration counts its allocations and live bytes.
private final class JoinableThread {
  private var thread = pthread_t()

  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  init(_ body: @escaping @Sendable () -> Void) {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, 8 << 20)
    defer { pthread_attr_destroy(&attributes) }
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let code = pthread_create(
      &thread, &attributes,
      { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, context)
    precondition(code == 0, "pthread_create failed: \(code)")
  }

  func join() {
    pthread_join(thread, nil)
  }
}

/// Where a run's threads wait until all are ready; the main thread lets them go and notes when.
private final class StartLine: Sendable {
  private struct State {
    var arrived = 0
    var started = false
    var abandoned = false
  }
  private let threads: Int
  private let state = Lock(State())
  private let go = DispatchSemaphore(value: 0)
  private let ready = DispatchSemaphore(value: 0)

  init(threads: Int) { self.threads = threads }

  /// A thread is ready: waits for the start. False when another thread failed before it.
  func arrive() -> Bool {
    let everyone = state.withLock { state -> Bool in
      state.arrived += 1
      return state.arrived == threads
    }
    if everyone { ready.signal() }
    go.wait()
    go.signal()
    return !state.withLock { $0.abandoned }
  }

  /// A thread failed before arriving: counts as arrived, and the run is off.
  func abandon() {
    let everyone = state.withLock { state -> Bool in
      guard !state.started else { return false }
      state.abandoned = true
      state.arrived += 1
      return state.arrived == threads
    }
    if everyone { ready.signal() }
  }

  /// Waits until every thread is ready, starts them, and returns the time of the start.
  func waitForEveryone() -> UInt64 {
    ready.wait()
    state.withLock { $0.started = true }
    let now = MonotonicClock.now()
    go.signal()
    return now
  }
}

/// A flag one thread sets and others read.
private final class Flag: Sendable {
  private let value = Lock(false)
  var isSet: Bool { value.withLock { $0 } }
  func set() { value.withLock { $0 = true } }
}
