import Results
import Support

/// `cachebench export`: a results CSV as the JSON a continuous-benchmarking service reads, as
/// Apollo iOS's performance dataset, or as a results CSV again (the gate's filter of deterministic
/// rows, docs/gate.md#the-gate-script).
enum ExportCommand: Command {
  /// The options, each declared once: usage, help, validation and parsing come from here.
  enum Options {
    static let format = Option<ResultsExport.Format>.required(
      "format", placeholder: "FORMAT",
      help: "bmf (Bencher), github-action-benchmark, apollo (Apollo iOS's dataset), or csv (a results CSV again).")
    static let better = Option<Better>(
      "better", placeholder: "DIRECTION",
      help: "github-action-benchmark: the rows whose 'better' is lower (tool customSmallerIsBetter) or higher (customBiggerIsBetter).",
      default: .lower)
    static let deterministicOnly = Flag(
      "deterministic-only", help: "bmf, github-action-benchmark, csv: only the deterministic rows (counts, bytes, ratios, instructions).")
    static let samples = Option<String?>(
      "samples", placeholder: "SAMPLES.csv", help: "apollo, required: the run's samples (run --samples), whose p95 the results CSV lacks.")
    static let baseline = Option<String?>(
      "baseline", placeholder: "FILE.json",
      help: "apollo: a dataset in Apollo's format (their baseline-2.x.json, or an export of ours); adds each result's change and verdict.")
    static let versionLabel = Option<String>(
      "version-label", placeholder: "LABEL", help: "apollo: the dataset's 'version'.", default: "cachebench")
    static let device = Option<String?>("device", placeholder: "TEXT", help: "apollo: the dataset's 'device' (default: the rows' host).")
    static let out = Option<String?>("out", placeholder: "FILE.json", help: "Write here (atomically) instead of standard output.")
  }

  static let spec = CommandSpec(
    name: "export",
    abstract: "Write a results CSV as Bencher Metric Format, github-action-benchmark or Apollo iOS's dataset JSON, or as CSV.",
    options: [
      Options.format, Options.better, Options.deterministicOnly, Options.samples, Options.baseline, Options.versionLabel,
      Options.device, Options.out,
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
      baseline's mean or less, regressed at +5% or more, parity between (docs/apollo.md); a result
      the baseline has no counterpart of (a layout's floor) is written without one, named on
      standard error.

      csv: the rows as a results CSV, read and written by cachebench's own CSV code (a quoted field
      holding a comma stays one field); with --deterministic-only, the rows the gate keeps
      (scripts/gate), in their order. A split run's count rows are checked and left out.

      Exit codes: 0 success, 64 wrong usage, 65 a malformed CSV or baseline, samples that are not
      the run's, a baseline with none of the results' scenarios, 66 a missing file, 74 an output
      that cannot be written.

      EXAMPLE:
        cachebench export results/runs/default.csv --format bmf --out bmf.json
        cachebench export results/runs/gate.csv --format csv --deterministic-only --out deterministic.csv
        cachebench export results/apollo-tier2.csv --format apollo --samples results/apollo-tier2-samples.csv \\
          --baseline baseline-2.x.json --out apollo-tier2.json
      """)

  /// The options only `--format apollo` takes, and the ones it refuses.
  static let apolloOptions: [any OptionDeclaration] = [Options.samples, Options.baseline, Options.versionLabel, Options.device]
  static let dashboardOptions: [any OptionDeclaration] = [Options.better, Options.deterministicOnly]

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    let format = try arguments[Options.format]
    let foreign = format == .apollo ? dashboardOptions : apolloOptions
    if let option = foreign.first(where: arguments.isSet) {
      let owner = format == .apollo ? "bmf and github-action-benchmark" : "--format apollo"
      throw UsageError(message: "'--\(option.name)' is for \(owner), not --format \(format.rawValue).", usage: spec.usage)
    }
    let better = try arguments[Options.better]
    if format == .bmf || format == .csv, arguments.isSet(Options.better) {
      let holder = format == .bmf ? "BMF" : "a results CSV"
      throw UsageError(message: "'--better' is for github-action-benchmark: \(holder) holds both directions.", usage: spec.usage)
    }
    if format == .apollo, !arguments.isSet(Options.samples) {
      throw UsageError(
        message: "Missing expected option '--samples <SAMPLES.csv>': Apollo's p95 comes from the samples.", usage: spec.usage)
    }
    let out = try arguments[Options.out]
    var outputs = OutputFiles()
    outputs.add("'--\(Options.out.name)'", out)
    outputs.addInput("the input '\(arguments.positionals[0])'", arguments.positionals[0])
    for option in [Options.samples, Options.baseline] { outputs.addInput("'--\(option.name)'", try arguments[option]) }
    try outputs.checkDistinct(usage: spec.usage)
    if let out { try AtomicFile.checkWritable(out) }
    var rows = try ResultsFile.readResults(from: arguments.positionals[0])
    if arguments[Options.deterministicOnly] { rows = rows.filter(\.deterministic) }
    let text =
      switch format {
      case .bmf: ResultsExport.bmf(rows)
      case .githubActionBenchmark: ResultsExport.githubActionBenchmark(rows, better: better)
      case .apollo: try apolloDataset(rows, arguments).json
      case .csv: CSV.document(rows)
      }
    if let out {
      try AtomicFile.createDirectory(for: out)
      try AtomicFile.write(text, to: out)
    } else {
      try writeStandardOutput(text)
    }
    return .success
  }

  /// The rows as Apollo's dataset, compared with `--baseline` when it is given: the baseline is
  /// read first, so that a bad one is reported before the samples are.
  private static func apolloDataset(_ rows: [MetricRow], _ arguments: ParsedArguments) throws -> ApolloDataset {
    let baselinePath = try arguments[Options.baseline]
    let baseline = try baselinePath.map(ApolloDataset.read)
    // run checked that --format apollo has --samples.
    let sources = ApolloDataset.Sources(results: arguments.positionals[0], samples: try arguments[Options.samples]!)
    let dataset = try ApolloDataset.of(
      rows, samples: try ResultsFile.read(SampleRow.self, from: sources.samples), version: try arguments[Options.versionLabel],
      device: try arguments[Options.device], sources: sources)
    guard let baseline, let baselinePath else { return dataset }
    let compared = try dataset.compared(with: baseline, file: baselinePath)
    let uncompared = compared.uncompared
    if !uncompared.isEmpty {
      writeStandardError(
        "note: \(baselinePath) has no counterpart of \(uncompared.count) scenario(s), written without a verdict: "
          + uncompared.joined(separator: ", ") + "\n")
    }
    return compared
  }
}
