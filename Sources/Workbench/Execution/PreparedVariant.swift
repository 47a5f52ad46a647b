import Workloads

/// A variant's source, prepared once and shared by every store and strategy.
enum PreparedVariant {
  /// Responses, generated or recorded, with their plans.
  case responses(PreparedSource)
  /// The store-level benchmark's records, built without the normalizer.
  case storeRecords(StoreRecordsConfig)
  /// Apollo iOS's Tier-2 scenarios, whose records each scenario builds as theirs does, at the
  /// store sizes of the config.
  case apolloTier2(ApolloTier2Config)
  /// Apollo iOS's Tier-3 scenarios, whose store each layout builds once.
  case apolloTier3(ApolloTier3Config)
  /// The list scenarios, whose records each scenario builds.
  case lists(ListsConfig)

  /// Generates or reads (and parses, and plans) a variant's responses: the one way a run and the
  /// paired run's worker prepare them.
  init(_ source: Workload.Source, workload: Workload, progress: Progress) throws {
    switch source {
    case .storeRecords(let config): self = .storeRecords(config)
    case .apolloTier2(let config): self = .apolloTier2(config)
    case .apolloTier3(let config): self = .apolloTier3(config)
    case .lists(let config): self = .lists(config)
    case .generator(let config): self = .responses(try PreparedSource.generated(seed: workload.seed, config: config, progress: progress))
    case .recorded(let recorded): self = .responses(try PreparedSource.recorded(recorded, progress: progress))
    }
  }
}
