import Results
import Support

/// `cachebench export`: a results CSV as the JSON a continuous-benchmarking service reads, or as
/// Apollo iOS's performance dataset.
enum ExportCommand: Command {
  static let spec = CommandSpec(
    name: "export",
    abstract: "Write a results CSV as Bencher Metric Format, github-action-benchmark or Apollo iOS's dataset JSON.",
    usage:
      "export <RESULTS.csv> --format bmf|github-action-benchmark|apollo [--better lower|higher] [--deterministic-only] "
      + "[--samples <SAMPLES.csv>] [--baseline <FILE.json>] [--version-label <LABEL>] [--device <TEXT>] [--out <FILE.json>]",
    options: [
      OptionSpec(
        "format", value: "FORMAT", help: "bmf (Bencher), github-action-benchmark, or apollo (Apollo iOS's dataset).",
        allowed: ResultsExport.Format.allCases.map(\.rawValue)),
      OptionSpec(
        "better", value: "DIRECTION",
        help: "github-action-benchmark: the rows whose 'better' is lower (tool customSmallerIsBetter, the default) or higher (customBiggerIsBetter).",
        allowed: ["lower", "higher"]),
      OptionSpec("deterministic-only", help: "bmf, github-action-benchmark: only the deterministic rows (counts, bytes, ratios, instructions)."),
      OptionSpec("samples", value: "SAMPLES.csv", help: "apollo, required: the run's samples (run --samples), whose p95 the results CSV lacks."),
      OptionSpec(
        "baseline", value: "FILE.json",
        help: "apollo: a dataset in Apollo's format (their baseline-2.x.json, or an export of ours); adds each result's change and verdict."),
      OptionSpec("version-label", value: "LABEL", help: "apollo: the dataset's 'version' (default: cachebench)."),
      OptionSpec("device", value: "TEXT", help: "apollo: the dataset's 'device' (default: the rows' host)."),
      OptionSpec("out", value: "FILE.json", help: "Write here (atomically) instead of standard output."),
    ],
    positionalName: "<RESULTS.csv>", positionalHelp: "A file written by 'cachebench run' (or 'merge').",
    minimumPositionals: 1, maximumPositionals: 1,
    discussion: """
      bmf: one benchmark per workload[variant]/store/keys/phase, one measure per metric (latency is
      Bencher's built-in measure in nanoseconds); value is the p50, lower_value and upper_value the
      samples' min and max where a row has more than one. For 'bencher run --adapter json'.

      github-action-benchmark: an array of {name, unit, value, range, extra}: name
      workload[variant]/store/keys/phase/metric, value the p50, range ± the standard deviation where
      a row has more than one sample. A file holds one direction: run it twice, --better lower for
      the tool customSmallerIsBetter and --better higher for customBiggerIsBetter.

      apollo: the JSON of Apollo iOS's performance plan (§5.1), one result per timing row, in
      milliseconds, its mean, std, p50, p95 and p99 computed from the row's samples (--samples) as
      their harness computes them. Rows of Apollo's Tier-2 scenarios are named as theirs,
      tier2.<backend>.<scenario> (memory is inmemory, sqlite-apollo is sqlite, sqlite-compact
      sqlite_compact); other rows tier 0, named workload[variant]/store/keys/phase/metric. With
      --baseline, each result gets delta_vs_baseline_pct and verdict: improved at -5% of the
      baseline's mean or less, regressed at +5% or more, parity between (docs/apollo.md).

      Exit codes: 0 success, 64 wrong usage, 65 a malformed CSV or baseline, samples that are not
      the run's, a scenario the baseline lacks, 66 a missing file, 74 an output that cannot be
      written.

      EXAMPLE:
        cachebench export results/runs/default.csv --format bmf --out bmf.json
        cachebench export results/apollo-tier2.csv --format apollo --samples results/apollo-tier2-samples.csv \\
          --baseline baseline-2.x.json --out apollo-tier2.json
      """)

  /// The options only `--format apollo` takes, and the ones it refuses.
  static let apolloOptions = ["samples", "baseline", "version-label", "device"]
  static let dashboardOptions = ["better", "deterministic-only"]

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    guard let formatName = arguments.value("format") else {
      throw UsageError(message: "Missing expected option '--format bmf|github-action-benchmark|apollo'.", usage: spec.usage)
    }
    guard let format = ResultsExport.Format(rawValue: formatName) else {
      throw UsageError(message: "The value '\(formatName)' is invalid for '--format'; expected bmf, github-action-benchmark or apollo.", usage: spec.usage)
    }
    let foreign = format == .apollo ? dashboardOptions : apolloOptions
    if let option = foreign.first(where: arguments.has) {
      let owner = format == .apollo ? "bmf and github-action-benchmark" : "--format apollo"
      throw UsageError(message: "'--\(option)' is for \(owner), not --format \(format.rawValue).", usage: spec.usage)
    }
    let betterName = arguments.value("better") ?? "lower"
    guard let better = Better(rawValue: betterName) else {
      throw UsageError(message: "The value '\(betterName)' is invalid for '--better'; expected lower or higher.", usage: spec.usage)
    }
    if format == .bmf, arguments.value("better") != nil {
      throw UsageError(message: "'--better' is for github-action-benchmark: BMF holds both directions.", usage: spec.usage)
    }
    if format == .apollo, arguments.value("samples") == nil {
      throw UsageError(message: "Missing expected option '--samples <SAMPLES.csv>': Apollo's p95 comes from the samples.", usage: spec.usage)
    }
    var outputs = OutputFiles()
    outputs.add("'--out'", arguments.value("out"))
    outputs.addInput("the input '\(arguments.positionals[0])'", arguments.positionals[0])
    for option in ["samples", "baseline"] { outputs.addInput("'--\(option)'", arguments.value(option)) }
    try outputs.checkDistinct(usage: spec.usage)
    if let out = arguments.value("out") { try AtomicFile.checkWritable(out) }
    var rows = try ResultsFile.readResults(from: arguments.positionals[0])
    if arguments.has("deterministic-only") { rows = rows.filter(\.deterministic) }
    let json =
      switch format {
      case .bmf: ResultsExport.bmf(rows)
      case .githubActionBenchmark: ResultsExport.githubActionBenchmark(rows, better: better)
      case .apollo: try apolloDataset(rows, arguments).json
      }
    if let out = arguments.value("out") {
      try AtomicFile.createDirectory(for: out)
      try AtomicFile.write(json, to: out)
    } else {
      try writeStandardOutput(json)
    }
    return .success
  }

  /// The rows as Apollo's dataset, compared with `--baseline` when it is given: the baseline is
  /// read first, so that a bad one is reported before the samples are.
  private static func apolloDataset(_ rows: [MetricRow], _ arguments: ParsedArguments) throws -> ApolloDataset {
    let baselinePath = arguments.value("baseline")
    let baseline = try baselinePath.map(ApolloDataset.read)
    let sources = ApolloDataset.Sources(results: arguments.positionals[0], samples: arguments.value("samples")!)
    let dataset = try ApolloDataset.of(
      rows, samples: try ResultsFile.read(SampleRow.self, from: sources.samples), version: arguments.value("version-label") ?? "cachebench",
      device: arguments.value("device"), sources: sources)
    guard let baseline, let baselinePath else { return dataset }
    let compared = try dataset.compared(with: baseline, file: baselinePath)
    let uncompared = compared.results.filter { $0.comparison == nil }.map(\.scenario)
    if !uncompared.isEmpty {
      writeStandardError(
        "note: \(baselinePath) has no counterpart of \(uncompared.count) projected load(s), written without a verdict: "
          + uncompared.joined(separator: ", ") + "\n")
    }
    return compared
  }
}
