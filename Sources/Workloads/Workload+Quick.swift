import Generator

extension Workload {
  /// A smaller version for a smoke test (`run --quick`): a tenth of the responses (generated or
  /// recorded) or of the store records, a tenth of the traffic's steps (at least 100), one
  /// repetition, no warm-up, fewer lookups, a tenth of the concurrency phase's reads (at least 100).
  ///
  /// At least two generated responses, one recorded operation of each document and 100 store
  /// records are kept; Apollo's Tier-2 scenarios and the list scenarios keep their records, and
  /// run one iteration each; the Tier-2 scenarios' store sizes keep those of 10,000 records or
  /// fewer; Apollo's Tier-3 scenarios build a store of at most ``ApolloTier3Config/quickRecords``
  /// records, and keep the sizes of that many or fewer.
  public func quick() -> Workload {
    var copy = self
    switch source {
    case .generator(let config):
      copy.source = .generator(Self.quick(config))
    case .storeRecords(var config):
      config.count = max(100, config.count / 10)
      config.pointLoads = min(config.pointLoads, 1_000)
      copy.source = .storeRecords(config)
    case .recorded(var recorded):
      recorded.operations = Self.quick(recorded.operations)
      copy.source = .recorded(recorded)
    case .apolloTier3(let config):
      copy.source = .apolloTier3(config.quick())
    case .apolloTier2(let config):
      // Apollo's records and counts are the scenarios themselves: the iterations shrink, and the
      // store sizes to the small ones.
      copy.source = .apolloTier2(config.quick())
    case .lists:
      // The list sizes are the scenarios themselves: only the iterations shrink.
      break
    }
    copy.traffic = traffic.map(Self.quick)
    copy.read = Self.quick(read)
    // Each point of a sweep as its source or section, but for the knob the point sets: a sweep of
    // responses, steps or lookups keeps its values, or its points would run alike.
    if var sweep {
      for index in sweep.points.indices {
        switch sweep.points[index].setting {
        case .generator(let config):
          if case .generator(.responses) = sweep.knob { continue }
          sweep.points[index].setting = .generator(Self.quick(config))
        case .traffic(let settings):
          var quick = Self.quick(settings)
          if case .traffic(.steps) = sweep.knob { quick.steps = settings.steps }
          sweep.points[index].setting = .traffic(quick)
        case .read(let settings):
          var quick = Self.quick(settings)
          if case .read(.pointLookups) = sweep.knob { quick.pointLookups = settings.pointLookups }
          if case .read(.fieldPolicyLookups) = sweep.knob { quick.fieldPolicyLookups = settings.fieldPolicyLookups }
          sweep.points[index].setting = .read(quick)
        case .stores:
          break
        }
      }
      copy.sweep = sweep
    }
    copy.concurrency?.operations = max(100, (concurrency?.operations ?? 0) / 10)
    copy.repetitions = 1
    copy.warmup = 0
    return copy
  }

  /// At most 100 point lookups and 20 field-policy lookups.
  private static func quick(_ read: ReadSettings) -> ReadSettings {
    var read = read
    read.pointLookups = min(read.pointLookups, 100)
    read.fieldPolicyLookups = min(read.fieldPolicyLookups, 20)
    return read
  }

  /// A tenth of the generated responses, at least two.
  private static func quick(_ config: GeneratorConfig) -> GeneratorConfig {
    var config = config
    config.responses = max(2, config.responses / 10)
    return config
  }

  /// The first tenth of the recorded operations (at least one), and the first operation of each
  /// document (its files and operation name) not among them, in the file's order: a tenth of
  /// `layouts-narrow.json`'s three kept its whole read alone, so that its projected and whole
  /// runs loaded the same fields and a smoke run tested nothing of narrow reads.
  static func quick(_ operations: [RecordedOperation]) -> [RecordedOperation] {
    let tenth = max(1, operations.count / 10)
    var documents = Set(operations.prefix(tenth).map(\.document))
    return operations.enumerated().filter { index, operation in
      index < tenth || documents.insert(operation.document).inserted
    }.map(\.element)
  }

  /// A tenth of the traffic's steps, at least 100.
  private static func quick(_ traffic: TrafficSettings) -> TrafficSettings {
    var traffic = traffic
    traffic.steps = max(100, traffic.steps / 10)
    return traffic
  }
}
