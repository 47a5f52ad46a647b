import Support

/// A results CSV and its samples as Apollo iOS's dataset (`export --format apollo`,
/// docs/apollo.md#the-dataset): one result per timing row, its statistics computed from the row's
/// samples as their `BenchmarkResult` computes them from its iterations.
extension ApolloDataset {
  /// The files the rows and samples came from, for messages.
  package struct Sources: Sendable {
    package var results: String
    package var samples: String

    package init(results: String, samples: String) {
      self.results = results
      self.samples = samples
    }
  }

  /// The dataset of every timing row of `rows` (unit `ns`), in their order.
  ///
  /// - Parameters:
  ///   - samples: the samples of the run that wrote `rows` (`run --samples`): every timing row's,
  ///     `n` of them, indexed 0 … n−1.
  ///   - version: the dataset's `version`.
  ///   - device: its `device`; nil for the rows' hosts.
  /// - Throws: ``ApolloDatasetError`` when `rows` has no timing row or rows of several builds,
  ///   when a row's samples are missing or not `n` or one is below 0, when two rows would be one scenario, or when
  ///   statistics in milliseconds are not finite numbers.
  package static func of(
    _ rows: [MetricRow], samples: [SampleRow], version: String, device: String?, sources: Sources
  ) throws(ApolloDatasetError) -> ApolloDataset {
    let timings = rows.filter { $0.unit == .ns }
    guard let first = timings.first else {
      throw ApolloDatasetError("\(sources.results) has no timing rows (unit ns) to write as Apollo's dataset")
    }
    let builds = timings.map(\.run.gitRev).uniqued()
    guard builds.count == 1 else {
      throw ApolloDatasetError(
        "\(sources.results) holds rows of several builds (\(builds.joined(separator: ", "))): export one build's rows")
    }
    let byKey = Dictionary(grouping: samples) { SampleKey(runID: $0.runID, key: $0.key) }
    var results: [Result] = []
    var rowOfScenario: [String: MetricKey] = [:]
    for row in timings {
      let (tier, scenario) = Self.scenario(of: row.key)
      if let other = rowOfScenario.updateValue(row.key, forKey: scenario) {
        throw ApolloDatasetError(
          "\(sources.results): the rows \(other) and \(row.key) are both the scenario \(scenario) (docs/apollo.md#backends)")
      }
      let values = try Self.samples(of: row, in: byKey[SampleKey(runID: row.run.runID, key: row.key)] ?? [], sources: sources)
      guard let result = Result(tier: tier, scenario: scenario, nanoseconds: values) else {
        throw ApolloDatasetError("\(sources.samples): the samples of \(row.key) have statistics past what a Double holds in milliseconds")
      }
      results.append(result)
    }
    return ApolloDataset(
      version: version, capturedAt: timings.map(\.run.timestamp).min() ?? first.run.timestamp, gitSHA: first.run.gitRev,
      device: device ?? timings.map(\.run.host).uniqued().joined(separator: ", "), results: results)
  }

  /// A row's samples, in the order they were taken: exactly its `n`, indexed 0 … n−1.
  private static func samples(of row: MetricRow, in samples: [SampleRow], sources: Sources) throws(ApolloDatasetError) -> [Double] {
    guard !samples.isEmpty else {
      throw ApolloDatasetError(
        "\(sources.samples) has no samples of \(row.key) (run \(row.run.runID)): give the --samples file of the run that wrote \(sources.results)"
      )
    }
    let ordered = samples.sorted { $0.index < $1.index }
    guard ordered.map(\.index) == Array(0..<row.summary.n) else {
      throw ApolloDatasetError(
        "\(sources.samples) has \(samples.count) samples of \(row.key) (run \(row.run.runID)) where \(sources.results) counts \(row.summary.n)"
      )
    }
    if let negative = ordered.first(where: { $0.value < 0 }) {
      throw ApolloDatasetError(
        "\(sources.samples): sample \(negative.index) of \(row.key) (run \(row.run.runID)) is \(CSVNumber.format(negative.value)) ns: a time is 0 or more"
      )
    }
    return ordered.map(\.value)
  }

  /// The tier and scenario name of a row: Apollo's `tier2.<backend>.<scenario>` for the rows of
  /// their Tier-2 scenarios (phase `tier2`, the variant in brackets after the backend if there is
  /// one), `tier3.<backend>.<scenario>` for their Tier-3 scenarios' (phase `tier3`), and tier 0
  /// (none of Apollo's tiers) with `workload[variant]/store/keys/phase/metric` for every other.
  package static func scenario(of key: MetricKey) -> (tier: Int, name: String) {
    let tier: Int
    switch key.phase {
    case .tier2: tier = 2
    case .tier3: tier = 3
    default: return (0, key.description)
    }
    let variant = key.variantColumn.isEmpty ? "" : "[\(key.variantColumn)]"
    return (tier, "tier\(tier).\(backend(ofStore: key.store))\(variant).\(key.metric)")
  }

  /// Apollo's backend label of a store (docs/apollo.md#backends): the label in lower case, its
  /// `-`, `.` and spaces as `_`; `memory` as their `inmemory`; and `sqlite-apollo`, the 2.x
  /// layout, as their `sqlite`. `sqlite-compact` is `sqlite_compact`.
  package static func backend(ofStore label: String) -> String {
    var backend = String(label.lowercased().map { "-. ".contains($0) ? "_" : $0 })
    if backend == "sqlite_apollo" { return "sqlite" }
    if backend == "memory" || backend.hasPrefix("memory_") { backend = "in" + backend }
    return backend
  }

  /// What a Tier-2 scenario of one of cachebench's own backends is compared with when a baseline
  /// lacks it: the same scenario of the backend it is a kind of, the part of its label before the
  /// first `_` (`tier2.sqlite_compact.batch_load_100_records` against `tier2.sqlite.…`); nil for
  /// other scenarios and for those of a variant.
  package static func familyScenario(of scenario: String) -> String? {
    guard scenario.hasPrefix("tier2."), let lastDot = scenario.lastIndex(of: ".") else { return nil }
    let backend = scenario[scenario.index(scenario.startIndex, offsetBy: "tier2.".count)..<lastDot]
    guard !backend.contains("["), let underscore = backend.firstIndex(of: "_") else { return nil }
    return "tier2.\(backend[..<underscore])\(scenario[lastDot...])"
  }

  /// Whether a scenario is one of the projected loads of the perf plan's 2026-07-13 amendment
  /// (``Metric/tier2ProjectedScenarios``), which 2.x's baseline cannot hold.
  package static func isProjectedScenario(_ scenario: String) -> Bool {
    guard scenario.hasPrefix("tier2."), let lastDot = scenario.lastIndex(of: ".") else { return false }
    let name = scenario[scenario.index(after: lastDot)...]
    return Metric.tier2ProjectedScenarios.contains { $0.name == name }
  }

  /// The whole load of the records a projected load reads, in the same backend: what 2.x's
  /// `loadFields` (the `loadRecords`-and-filter default, before their PR-009h) measures.
  /// `tier2.sqlite.projected_load_3_of_10_fields` → `tier2.sqlite.single_key_load_10_fields`,
  /// `…projected_batch_load_3_of_10_fields_100_records` → `…batch_load_100_records`; nil for the
  /// others, the list load and the over-fetch among them, which no whole-load scenario shares.
  package static func wholeLoadScenario(of scenario: String) -> String? {
    guard scenario.hasPrefix("tier2."), let lastDot = scenario.lastIndex(of: ".") else { return nil }
    let whole: Metric
    switch scenario[scenario.index(after: lastDot)...] {
    case Metric.tier2ProjectedLoad.name: whole = .tier2SingleKeyLoad
    case Metric.tier2ProjectedBatchLoad.name: whole = .tier2BatchLoad
    default: return nil
    }
    return scenario[...lastDot] + whole.name
  }

  /// A sample's place: the run and the metric.
  private struct SampleKey: Hashable {
    let runID: String
    let key: MetricKey
  }
}

extension ApolloDataset.Result {
  /// The statistics of one scenario's iterations, as Apollo's `BenchmarkResult` computes them
  /// (`Tests/ApolloPerformanceTests/CacheBenchmarks/BenchmarkResult.swift`): each sample in
  /// milliseconds, then the mean, the sample standard deviation (n − 1; 0 for one iteration) and
  /// the percentiles interpolated at rank p · (n − 1), the same definitions as the results CSV's
  /// (docs/csv.md#statistics). Nil when a statistic is not a finite number in milliseconds.
  init?(tier: Int, scenario: String, nanoseconds: [Double]) {
    let milliseconds = nanoseconds.map { $0 / 1_000_000 }
    let sorted = milliseconds.sorted()
    self.init(
      tier: tier, scenario: scenario, meanMs: Statistics.mean(milliseconds),
      stdMs: Statistics.sampleStandardDeviation(milliseconds), p50Ms: Statistics.percentile(50, ofSorted: sorted),
      p95Ms: Statistics.percentile(95, ofSorted: sorted), p99Ms: Statistics.percentile(99, ofSorted: sorted),
      iterations: milliseconds.count)
    guard [meanMs, stdMs, p50Ms, p95Ms, p99Ms].allSatisfy(\.isFinite) else { return nil }
  }
}

/// A dataset that cannot be written or compared as Apollo's (exit 65): the message names the file
/// and the row, key or scenario at fault.
package struct ApolloDatasetError: Error, Sendable, Hashable, CustomStringConvertible, ExitCodeCarrying {
  package let description: String

  package init(_ description: String) {
    self.description = description
  }

  package var exitCode: ExitCode { .dataError }
}
