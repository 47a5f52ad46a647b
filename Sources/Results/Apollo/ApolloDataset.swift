/// Apollo iOS's published performance dataset: the JSON of §5.1 of
/// `apollo-ios/Design/cache-rewrite-phase1-perf.md` on apollo-ios-dev's branch
/// `cache-rewrite/phase-1-plan`, in which their 2.x baseline
/// (`Tests/ApolloPerformanceTests/CacheBenchmarks/baseline-2.x.json`) is published. cachebench
/// writes it (`export --format apollo`, docs/apollo.md) and reads it as a baseline.
///
/// ```json
/// {
///   "version": "cachebench", "captured_at": "2026-11-23T23:53:50Z", "git_sha": "1bb5bc1ebf06",
///   "device": "vm", "results": [
///     {"tier": 2, "scenario": "tier2.inmemory.batch_load_100_records", "mean_ms": 0.0281,
///      "std_ms": 0.0006, "p50_ms": 0.0279, "p95_ms": 0.0287, "p99_ms": 0.0305, "iterations": 50}
///   ]
/// }
/// ```
///
/// With a baseline, the top level also has `baseline_version` and `baseline_git_sha`, and each
/// result `delta_vs_baseline_pct` and `verdict` (``ApolloVerdict``), as §5.1 shows them.
package struct ApolloDataset: Sendable, Hashable {
  package var version: String
  /// When the results were measured, ISO 8601 in UTC.
  package var capturedAt: String
  package var gitSHA: String
  package var device: String
  /// The baseline's `version` and `git_sha`, once compared with one.
  package var baseline: Provenance?
  package var results: [Result]

  /// Which build of what a dataset measured: `2.x` at `c3ed76fd91ab`.
  package struct Provenance: Sendable, Hashable {
    package var version: String
    package var gitSHA: String
  }

  package init(version: String, capturedAt: String, gitSHA: String, device: String, results: [Result]) {
    self.version = version
    self.capturedAt = capturedAt
    self.gitSHA = gitSHA
    self.device = device
    self.results = results
  }

  /// One scenario's latencies, in milliseconds, over its measured iterations.
  package struct Result: Sendable, Hashable {
    package var tier: Int
    /// `tier2.inmemory.single_key_load_10_fields`: unique in a dataset.
    package var scenario: String
    package var meanMs: Double
    package var stdMs: Double
    package var p50Ms: Double
    package var p95Ms: Double
    package var p99Ms: Double
    package var iterations: Int
    /// The change from the baseline's mean and its verdict, once compared with one.
    package var comparison: Comparison?

    package init(
      tier: Int, scenario: String, meanMs: Double, stdMs: Double, p50Ms: Double, p95Ms: Double, p99Ms: Double, iterations: Int,
      comparison: Comparison? = nil
    ) {
      self.tier = tier
      self.scenario = scenario
      self.meanMs = meanMs
      self.stdMs = stdMs
      self.p50Ms = p50Ms
      self.p95Ms = p95Ms
      self.p99Ms = p99Ms
      self.iterations = iterations
      self.comparison = comparison
    }
  }

  /// `delta_vs_baseline_pct` and `verdict`.
  package struct Comparison: Sendable, Hashable {
    package var changePercent: Double
    package var verdict: ApolloVerdict

    package init(changePercent: Double) {
      self.changePercent = changePercent
      verdict = ApolloVerdict(change: changePercent)
    }
  }

  /// The dataset as JSON text, keys in §5.1's order, two spaces a level, a line feed at the end.
  package var json: String {
    var top = [("version", JSONText.string(version)), ("captured_at", JSONText.string(capturedAt)), ("git_sha", JSONText.string(gitSHA))]
    if let baseline {
      top += [("baseline_version", JSONText.string(baseline.version)), ("baseline_git_sha", JSONText.string(baseline.gitSHA))]
    }
    top.append(("device", JSONText.string(device)))
    let entries = results.map { "    {" + $0.members.map { "\(JSONText.string($0)): \($1)" }.joined(separator: ", ") + "}" }
    let list = entries.isEmpty ? "[]" : "[\n" + entries.joined(separator: ",\n") + "\n  ]"
    return "{\n" + (top + [("results", list)]).map { "  \(JSONText.string($0)): \($1)" }.joined(separator: ",\n") + "\n}\n"
  }
}

extension ApolloDataset.Result {
  /// Its members as JSON text, in §5.1's order.
  fileprivate var members: [(String, String)] {
    var members = [
      ("tier", String(tier)), ("scenario", JSONText.string(scenario)), ("mean_ms", JSONText.number(meanMs)),
      ("std_ms", JSONText.number(stdMs)), ("p50_ms", JSONText.number(p50Ms)), ("p95_ms", JSONText.number(p95Ms)),
      ("p99_ms", JSONText.number(p99Ms)), ("iterations", String(iterations)),
    ]
    if let comparison {
      members += [
        ("delta_vs_baseline_pct", JSONText.number(comparison.changePercent)),
        ("verdict", JSONText.string(comparison.verdict.rawValue)),
      ]
    }
    return members
  }
}
