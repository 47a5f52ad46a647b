/// A dataset against a baseline dataset (`export --format apollo --baseline FILE.json`,
/// docs/apollo.md#verdicts): each result's mean against the baseline's of the same scenario,
/// as Apollo's plan (§5.1) compares 3.0 with 2.x.
extension ApolloDataset {
  /// This dataset with `delta_vs_baseline_pct` and `verdict` on every result, and the
  /// baseline's version and git SHA at the top.
  ///
  /// Each result is compared with the baseline's result of the same scenario; a Tier-2 scenario
  /// of one of cachebench's own backends that the baseline lacks, with its family's
  /// (``familyScenario(of:)``: `tier2.sqlite_compact.X` with `tier2.sqlite.X`). A projected load
  /// the baseline lacks (a 2.x baseline lacks them all), with the whole load of the same records
  /// (``wholeLoadScenario(of:)``), what 2.x's `loadFields` does. A result with no counterpart
  /// at all (a layout's floor, the projected list load, the over-fetch against a 2.x baseline) is
  /// left without a verdict: ``uncompared`` names them. The baseline's other scenarios (their
  /// Tier 1) are left out, as the dataset lists the current results.
  ///
  /// - Parameter file: the baseline's file, for messages.
  /// - Throws: ``ApolloDatasetError`` when the baseline holds a scenario twice, has none of the
  ///   results' scenarios (the baseline of something else), has a mean of 0 for one, or when a
  ///   change is not a finite number.
  package func compared(with baseline: ApolloDataset, file: String) throws(ApolloDatasetError) -> ApolloDataset {
    var baselineMeans: [String: Double] = [:]
    for result in baseline.results {
      guard baselineMeans.updateValue(result.meanMs, forKey: result.scenario) == nil else {
        throw ApolloDatasetError("\(file): the scenario \(result.scenario) is there twice")
      }
    }
    var compared = self
    compared.baseline = Provenance(version: baseline.version, gitSHA: baseline.gitSHA)
    for index in compared.results.indices {
      let result = compared.results[index]
      let family = Self.familyScenario(of: result.scenario)
      let own = [result.scenario] + (family.map { [$0] } ?? [])
      let wholeLoad = Self.wholeLoadScenario(of: result.scenario)
      let candidates = own + (wholeLoad.map { [$0] + (Self.familyScenario(of: $0).map { [$0] } ?? []) } ?? [])
      guard let scenario = candidates.first(where: { baselineMeans[$0] != nil }), let base = baselineMeans[scenario] else { continue }
      guard base > 0 else {
        throw ApolloDatasetError("\(file): \(scenario): mean_ms is 0, which no change can be a share of")
      }
      guard let change = ApolloVerdict.change(mean: result.meanMs, baseline: base) else {
        throw ApolloDatasetError(
          "\(result.scenario): the change from the baseline's mean (\(base) ms, \(file)) to \(result.meanMs) ms is not a finite number")
      }
      compared.results[index].comparison = Comparison(changePercent: change)
    }
    if let first = results.first, compared.uncompared.count == results.count {
      let alternative = Self.familyScenario(of: first.scenario).map { " nor \($0)" } ?? ""
      throw ApolloDatasetError(
        "\(file) has no scenario to compare any result with (not \(first.scenario)\(alternative)): "
          + "export without --baseline, or against a baseline of these scenarios")
    }
    return compared
  }

  /// The results left without a verdict, in order: those the baseline has no counterpart of.
  package var uncompared: [String] {
    results.filter { $0.comparison == nil }.map(\.scenario)
  }
}
