extension Workload {
  /// A smaller version for a smoke test (`run --quick`): a tenth of the responses (generated or
  /// recorded) or of the store records, a tenth of the traffic's steps (at least 100), one
  /// repetition, no warm-up, fewer lookups, a tenth of the concurrency phase's reads (at least 100).
  ///
  /// At least two generated responses, one recorded operation and 100 store records are kept;
  /// Apollo's Tier-2 scenarios keep their records, and run one iteration each.
  public func quick() -> Workload {
    var copy = self
    switch source {
    case .generator(var config):
      config.responses = max(2, config.responses / 10)
      copy.source = .generator(config)
    case .storeRecords(var config):
      config.count = max(100, config.count / 10)
      config.pointLoads = min(config.pointLoads, 1_000)
      copy.source = .storeRecords(config)
    case .recorded(var recorded):
      recorded.operations = Array(recorded.operations.prefix(max(1, recorded.operations.count / 10)))
      copy.source = .recorded(recorded)
    case .apolloTier2:
      // Apollo's records and counts are the scenarios themselves: only the iterations shrink.
      break
    }
    copy.traffic?.steps = max(100, (traffic?.steps ?? 0) / 10)
    copy.concurrency?.operations = max(100, (concurrency?.operations ?? 0) / 10)
    copy.repetitions = 1
    copy.warmup = 0
    copy.read.pointLookups = min(read.pointLookups, 100)
    copy.read.fieldPolicyLookups = min(read.fieldPolicyLookups, 20)
    return copy
  }
}
