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
    static let thresholds = Option<String?>(
      "thresholds", placeholder: "FILE.csv",
      help:
        "Tolerances per metric (workload, variant, store, keys, phase, metric; * for any), in place of the defaults for the rows they match."
    )
  }

  static let spec = CommandSpec(
    name: "compare",
    abstract: "Compare two results CSVs; exit 2 when a metric regressed.",
    options: [Options.threshold, Options.thresholds, Options.out] + VerdictOutput.options,
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

      --thresholds FILE.csv gives metrics tolerances of their own: a row of the file names a
      workload, variant, store, keys, phase and metric (* for any) and gives relative_percent and
      absolute; a statistic passes when it moved by max(absolute, relative_percent% of the
      baseline) or less. The entry that names the most columns wins; two that name as many are an
      error. The rows no entry matches keep the defaults above. 'cachebench thresholds update'
      writes such a file from runs.

      --format markdown prints a short summary for a pull request or $GITHUB_STEP_SUMMARY: the
      counts, then a table of the rows that regressed or improved, with the deciding statistic.

      Exit codes: 0 no regression, 2 a regression, 64 wrong usage, 65 malformed CSV or thresholds
      file, 66 a missing file.
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    let threshold = try arguments[Options.threshold]
    try VerdictOutput.checkDistinct(arguments, out: Options.out, inputs: [Options.thresholds])
    let baseline = try ResultsFile.readResults(from: arguments.positionals[0])
    let current = try ResultsFile.readResults(from: arguments.positionals[1])
    var options = ComparisonOptions(thresholdPercent: threshold)
    if let path = try arguments[Options.thresholds] {
      let thresholds = try Thresholds.read(from: path)
      try thresholds.checkMetrics(of: baseline + current)
      options.tolerances = try thresholds.tolerances(for: baseline.map(\.key) + current.map(\.key))
      options.thresholdsFile = path
    }
    let comparison = try Comparison(baseline: baseline, current: current, options: options)
    try VerdictOutput.write(text: comparison.report(), markdown: comparison.markdown(), arguments: arguments)
    if let out = try arguments[Options.out] {
      try AtomicFile.createDirectory(for: out)
      try ResultsFile.write(comparison.verdicts, to: out)
    }
    return comparison.hasRegressions ? .regression : .success
  }
}
