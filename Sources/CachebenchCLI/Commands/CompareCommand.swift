import Results
import Support

/// `cachebench compare`: the regression gate for CI.
enum CompareCommand: Command {
  static let spec = CommandSpec(
    name: "compare",
    abstract: "Compare two results CSVs; exit 2 when a metric regressed.",
    usage: "compare <BASELINE.csv> <CURRENT.csv> [--threshold <PCT>] [--out <FILE.csv>] [--format text|markdown] [--markdown <FILE.md>]",
    options: [
      OptionSpec(
        "threshold", value: "PCT",
        help: "How far a timing's p50 may move before it is shown as advisory, in percent. Default: \(Int(ComparisonOptions.defaultThresholdPercent))."),
      OptionSpec("out", value: "FILE.csv", help: "Write the verdict on every metric as CSV."),
    ] + VerdictOutput.options,
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
    var threshold = ComparisonOptions.defaultThresholdPercent
    if let text = arguments.value("threshold") {
      guard let percent = Double(text), percent >= 0, percent.isFinite else {
        throw UsageError(message: "The value '\(text)' is invalid for '--threshold'; expected a percentage such as 10.", usage: spec.usage)
      }
      threshold = percent
    }
    let format = try VerdictOutput.format(arguments, usage: spec.usage)
    try VerdictOutput.checkDistinct(arguments, usage: spec.usage)
    let baseline = try ResultsFile.readResults(from: arguments.positionals[0])
    let current = try ResultsFile.readResults(from: arguments.positionals[1])
    let comparison = try Comparison(baseline: baseline, current: current, options: ComparisonOptions(thresholdPercent: threshold))
    try VerdictOutput.write(text: comparison.report(), markdown: comparison.markdown(), format: format, arguments: arguments)
    if let out = arguments.value("out") {
      try AtomicFile.createDirectory(for: out)
      try ResultsFile.write(comparison.verdicts, to: out)
    }
    return comparison.hasRegressions ? .regression : .success
  }
}
