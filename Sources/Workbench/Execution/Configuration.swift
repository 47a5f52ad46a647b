import NormalizedCache
import Workloads

/// One configuration a run measures: a store under a key strategy on one variant's source.
struct Configuration {
  let variant: String
  let spec: StoreSpec
  let strategy: NamedStrategy
  let source: PreparedVariant
  /// The variant's read section (a sweep of a read key sets it).
  let read: Workload.ReadSettings
  /// The variant's traffic section (a sweep of a traffic key sets it), or nil.
  let traffic: TrafficSettings?
  /// The clock every write into the store is dated by, nil for a store without dates.
  let clock: WriteClock?

  init(variant: Workload.Variant, spec: StoreSpec, strategy: NamedStrategy, source: PreparedVariant) {
    self.variant = variant.name
    self.spec = spec
    self.strategy = strategy
    self.source = source
    read = variant.read
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
  /// `path`, and the workload's programmatic provider for the programmatic strategies; projecting
  /// its loads when the variant's `read.projectedReads` says so.
  func makeReader(_ cache: any NormalizedCache, workload: Workload) -> CacheReader {
    strategy.makeReader(cache, workload: workload, projectsFields: read.projectedReads)
  }

  /// `default [duplication=0.5], sqlite-wal × typePolicy`: where a failure happened.
  func context(workload: String) -> String {
    "\(workload)\(variant.isEmpty ? "" : " [\(variant)]"), \(spec.label) × \(strategy.name)"
  }
}

extension NamedStrategy {
  /// A reader of `cache` with this strategy's field policies: the directives for every strategy
  /// but `path`, and the workload's programmatic provider for the programmatic strategies;
  /// projecting its loads with `projectsFields` (a variant's `read.projectedReads`).
  func makeReader(_ cache: any NormalizedCache, workload: Workload, projectsFields: Bool) -> CacheReader {
    CacheReader(
      cache: cache, useFieldPolicies: kind != .path,
      fieldPolicyProvider: kind == .programmatic ? workload.fieldPolicyProvider?.provider : nil,
      projectsFields: projectsFields)
  }
}
