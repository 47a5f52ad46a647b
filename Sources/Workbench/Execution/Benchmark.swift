import Measurement
import NormalizedCache
import Results
import Workloads

/// One configuration a run measures: a store under a key strategy on one variant's source.
struct Configuration {
  let variant: String
  let spec: StoreSpec
  let strategy: NamedStrategy
  let source: PreparedVariant
  /// The variant's traffic section (a sweep of a traffic key sets it), or nil.
  let traffic: TrafficSettings?
  /// The clock every write into the store is dated by, nil for a store without dates.
  let clock: WriteClock?

  init(variant: Workload.Variant, spec: StoreSpec, strategy: NamedStrategy, source: PreparedVariant) {
    self.variant = variant.name
    self.spec = spec
    self.strategy = strategy
    self.source = source
    traffic = variant.traffic
    // Without a traffic section, the clock starts at the default `traffic.startAt`.
    let session = variant.traffic ?? TrafficSettings()
    clock = spec.dates ? WriteClock(startAt: session.startAt, secondsPerStep: session.secondsPerStep) : nil
  }

  /// The configuration of one entry of the run's sequence, on its variant's prepared source.
  init(_ entry: ConfigurationSequence.Entry, source: PreparedVariant) {
    self.init(variant: entry.variant, spec: entry.spec, strategy: entry.strategy, source: source)
  }

  /// The date of the write and read phases' writes: the clock's start; nil without dates.
  var writtenAt: Int? { clock?.startAt }

  var scope: Scope { Scope(variant: variant, store: spec.label, keys: strategy.name) }

  /// A reader of `cache` with the strategy's field policies: the directives for every strategy but
  /// `path`, and the workload's programmatic provider for the programmatic strategies.
  func makeReader(_ cache: any NormalizedCache, workload: Workload) -> CacheReader {
    strategy.makeReader(cache, workload: workload)
  }

  /// `default [duplication=0.5], sqlite-wal × typePolicy`: where a failure happened.
  func context(workload: String) -> String {
    "\(workload)\(variant.isEmpty ? "" : " [\(variant)]"), \(spec.label) × \(strategy.name)"
  }
}

/// The dates the workbench writes into a store with dates (docs/ttl.md#the-workbenchs-clock):
/// every write of the write and read phases at ``startAt``, step `s` of the traffic (and refetch
/// `s` of the watchers) at `startAt + s × secondsPerStep`.
struct WriteClock: Sendable, Hashable {
  let startAt: Int
  let secondsPerStep: Int

  /// The time of step `step`, in seconds.
  func time(atStep step: Int) -> Int { startAt + step * secondsPerStep }
}

/// A variant's source, prepared once and shared by every store and strategy.
enum PreparedVariant {
  /// Responses, generated or recorded, with their plans.
  case responses(PreparedSource)
  /// The store-level benchmark's records, built without the normalizer.
  case storeRecords(StoreRecordsConfig)
  /// Apollo iOS's Tier-2 scenarios, whose records each scenario builds as theirs does.
  case apolloTier2
  /// The list scenarios, whose records each scenario builds.
  case lists(ListsConfig)

  /// Generates or reads (and parses, and plans) a variant's responses: the one way a run and the
  /// paired run's worker prepare them.
  init(_ source: Workload.Source, workload: Workload, progress: Progress) throws {
    switch source {
    case .storeRecords(let config): self = .storeRecords(config)
    case .apolloTier2: self = .apolloTier2
    case .lists(let config): self = .lists(config)
    case .generator(let config): self = .responses(try PreparedSource.generated(seed: workload.seed, config: config, progress: progress))
    case .recorded(let recorded): self = .responses(try PreparedSource.recorded(recorded, progress: progress))
    }
  }
}

extension NamedStrategy {
  /// A reader of `cache` with this strategy's field policies: the directives for every strategy
  /// but `path`, and the workload's programmatic provider for the programmatic strategies;
  /// projecting its loads when the workload's `read.projectedReads` says so.
  func makeReader(_ cache: any NormalizedCache, workload: Workload) -> CacheReader {
    CacheReader(
      cache: cache, useFieldPolicies: kind != .path,
      fieldPolicyProvider: kind == .programmatic ? workload.fieldPolicyProvider?.provider : nil,
      projectsFields: workload.read.projectedReads)
  }
}

/// What every benchmark of a run shares: the workload, the stores' factory, progress.
struct ExecutionContext {
  let workload: Workload
  let factory: StoreFactory
  let progress: Progress
}

/// One kind of measurement the executor runs a configuration through (as package-benchmark runs
/// every benchmark through one runner): each says whether it applies to a configuration, measures
/// it into samples, and may count its instructions under callgrind.
protocol Benchmark {
  /// The benchmark of this configuration, nil when it does not apply.
  init?(_ configuration: Configuration, _ context: ExecutionContext)

  /// Appends its samples; nothing by default.
  func measure(into samples: inout MetricSamples) throws

  /// The configurations of its own it measured, not samples of the configuration it runs on (the
  /// concurrency phase's, one per reader count, under the variant `readers=N`); none by default.
  func measureScopes() throws -> [MeasuredConfiguration]

  /// Appends the instructions of what it measures (`run --instructions`); nothing by default.
  func countInstructions(into samples: inout MetricSamples, counter: inout InstructionCounter) throws
}

extension Benchmark {
  func measure(into samples: inout MetricSamples) throws {}
  func measureScopes() throws -> [MeasuredConfiguration] { [] }
  func countInstructions(into samples: inout MetricSamples, counter: inout InstructionCounter) throws {}
}
