import Results
import Support

/// `cachebench compare`: the regression gate for CI.
enum CompareCommand: Command {
  /// The options, each declared once: usage, help, validation and parsing come from here.
  enum Options {
    static let threshold = Option<Double>.percentage(
      "threshold", help: "How far a timing's p50 may move before it is shown as advisory, in percent.",
      default: ComparisonOptions.defaultThresholdPercent)
    static let out = Option<String?>("out", placeholder: "FILE.csv", help: "Write the verdict on every metric as CSV.")
  }

  static let spec = CommandSpec(
    name: "compare",
    abstract: "Compare two results CSVs; exit 2 when a metric regressed.",
    options: [Options.threshold, Options.out] + VerdictOutput.options,
    positionalName: "<BASELINE.csv> <CURRENT.csv>", positionalHelp: "Two files written by 'cachebench run'.",
    minimumPositionals: 2, maximumPositionals: 2,
    discussion: """
      Metrics are matched by workload, variant, store, keys, phase and metric.

      Deterministic metrics (counts, bytes, ratios, allocations) are the gate. Each is compared on
      every statistic (n, min, p50, p90, p99, max, mean): worse on any is 'regressed' and fails;
      better on any (and worse on none) is 'improved': an intended saving, so refresh the baseline.
      The table shows the statistic that decided, with the absolute change.

      Timings never fail from one run per side: on a shared machine whole runs shift by 10-25%, so a
      p50 that moved beyond the threshold is shown as 'advisory'.

      --format markdown prints a short summary for a pull request or $GITHUB_STEP_SUMMARY: the
      counts, then a table of the rows that regressed or improved, with the deciding statistic.

      Exit codes: 0 no regression, 2 a regression, 64 wrong usage, 65 malformed CSV, 66 a missing file.
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    let threshold = try arguments[Options.threshold]
    try VerdictOutput.checkDistinct(arguments, out: Options.out)
    let baseline = try ResultsFile.readResults(from: arguments.positionals[0])
    let current = try ResultsFile.readResults(from: arguments.positionals[1])
    let comparison = try Comparison(baseline: baseline, current: current, options: ComparisonOptions(thresholdPercent: threshold))
    try VerdictOutput.write(text: comparison.report(), markdown: comparison.markdown(), arguments: arguments)
    if let out = try arguments[Options.out] {
      try AtomicFile.createDirectory(for: out)
      try ResultsFile.write(comparison.verdicts, to: out)
    }
    return comparison.hasRegressions ? .regression : .success
  }
}
