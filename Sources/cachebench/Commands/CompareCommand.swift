import Results

/// `cachebench compare`: the regression gate for CI.
enum CompareCommand: Command {
  static let spec = CommandSpec(
    name: "compare",
    abstract: "Compare two results CSVs; exit 2 when a metric regressed.",
    usage: "compare <BASELINE.csv> <CURRENT.csv> [--threshold <PCT>] [--out <FILE.csv>]",
    options: [
      OptionSpec("threshold", value: "PCT", help: "How much worse a timing's p50 may get before it counts as a regression, in percent. Default: \(Int(ComparisonOptions.defaultThresholdPercent))."),
      OptionSpec("out", value: "FILE.csv", help: "Write the comparison of every metric as CSV."),
    ],
    positionalName: "<BASELINE.csv> <CURRENT.csv>", positionalHelp: "Two files written by 'cachebench run'.",
    minimumPositionals: 2, maximumPositionals: 2,
    discussion: """
      Metrics are matched by workload, variant, store, keys, phase and metric. A timing regresses when
      its p50 is worse by more than the threshold; a deterministic metric (counts, bytes, ratios)
      regresses when its p50 changes at all, in either direction: the gate cannot tell an intended
      saving from lost records, so renew the baseline to accept a change.
      Exit codes: 0 no regression, 2 a regression.
      """)

  static func run(_ arguments: ParsedArguments) throws -> ExitCode {
    var threshold = ComparisonOptions.defaultThresholdPercent
    if let text = arguments.value("threshold") {
      guard let percent = Double(text), percent >= 0, percent.isFinite else {
        throw UsageError(message: "The value '\(text)' is invalid for '--threshold'; expected a percentage such as 10.", usage: spec.usage)
      }
      threshold = percent
    }
    let baseline = try ResultsFile.read(MetricRow.self, from: arguments.positionals[0])
    let current = try ResultsFile.read(MetricRow.self, from: arguments.positionals[1])
    let comparison = try Comparison(baseline: baseline, current: current, options: ComparisonOptions(thresholdPercent: threshold))
    writeStandardOutput(comparison.report())
    if let out = arguments.value("out") {
      try AtomicFile.createDirectory(for: out)
      try ResultsFile.write(comparison.verdicts, to: out)
    }
    return comparison.hasRegressions ? .regression : .success
  }
}
