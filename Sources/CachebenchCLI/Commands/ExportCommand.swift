import Results

/// `cachebench export`: a results CSV as the JSON a continuous-benchmarking service reads.
enum ExportCommand: Command {
  static let spec = CommandSpec(
    name: "export",
    abstract: "Write a results CSV as Bencher Metric Format or github-action-benchmark JSON.",
    usage: "export <RESULTS.csv> --format bmf|github-action-benchmark [--better lower|higher] [--deterministic-only] [--out <FILE.json>]",
    options: [
      OptionSpec("format", value: "FORMAT", help: "bmf (Bencher) or github-action-benchmark.", allowed: ResultsExport.Format.allCases.map(\.rawValue)),
      OptionSpec(
        "better", value: "DIRECTION",
        help: "github-action-benchmark: the rows whose 'better' is lower (tool customSmallerIsBetter, the default) or higher (customBiggerIsBetter).",
        allowed: ["lower", "higher"]),
      OptionSpec("deterministic-only", help: "Only the deterministic rows (counts, bytes, ratios, instructions)."),
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

      Exit codes: 0 success, 64 wrong usage, 65 a malformed CSV, 66 a missing file, 74 an output
      that cannot be written.

      EXAMPLE:
        cachebench export results/default.csv --format bmf --out bmf.json
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    guard let formatName = arguments.value("format") else {
      throw UsageError(message: "Missing expected option '--format bmf|github-action-benchmark'.", usage: spec.usage)
    }
    guard let format = ResultsExport.Format(rawValue: formatName) else {
      throw UsageError(message: "The value '\(formatName)' is invalid for '--format'; expected bmf or github-action-benchmark.", usage: spec.usage)
    }
    let betterName = arguments.value("better") ?? "lower"
    guard let better = Better(rawValue: betterName) else {
      throw UsageError(message: "The value '\(betterName)' is invalid for '--better'; expected lower or higher.", usage: spec.usage)
    }
    if format == .bmf, arguments.value("better") != nil {
      throw UsageError(message: "'--better' is for github-action-benchmark: BMF holds both directions.", usage: spec.usage)
    }
    if let out = arguments.value("out") { try AtomicFile.checkWritable(out) }
    var rows = try ResultsFile.read(MetricRow.self, from: arguments.positionals[0])
    if arguments.has("deterministic-only") { rows = rows.filter(\.deterministic) }
    let json =
      switch format {
      case .bmf: ResultsExport.bmf(rows)
      case .githubActionBenchmark: ResultsExport.githubActionBenchmark(rows, better: better)
      }
    if let out = arguments.value("out") {
      try AtomicFile.createDirectory(for: out)
      try AtomicFile.write(json, to: out)
    } else {
      try writeStandardOutput(json)
    }
    return .success
  }
}
