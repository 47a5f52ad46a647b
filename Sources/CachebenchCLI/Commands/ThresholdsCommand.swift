import Results
import Support

/// `cachebench thresholds update`: a thresholds file for `compare --thresholds` written from a
/// baseline and more runs of one build, each metric's tolerance the spread they show, as
/// package-benchmark's `thresholds update` writes its static thresholds from a run
/// (docs/gate.md#thresholds-update).
enum ThresholdsCommand: Command {
  /// What `thresholds` does: the first positional argument. One action for now, named as
  /// package-benchmark names its own, so that a second (`check`) has its place.
  enum Action: String, CaseIterable {
    case update
  }

  /// The options, each declared once: usage, help, validation and parsing come from here.
  enum Options {
    static let out = Option<String>.required(
      "out", placeholder: "FILE.csv", help: "Where to write the thresholds file (atomically).")
  }

  static let spec = CommandSpec(
    name: "thresholds",
    abstract: "Write a thresholds file for 'compare --thresholds' from a baseline and more runs of one build.",
    usage: "thresholds update <BASELINE.csv> [<RUN.csv>...] --out <FILE.csv>",
    options: [Options.out],
    positionalName: "update <BASELINE.csv> [<RUN.csv>...]",
    positionalHelp: "The action, then a results CSV and any more runs of the same build and workload.",
    minimumPositionals: 2, maximumPositionals: 10_000,
    discussion: """
      Writes one entry per row of the baseline, naming it exactly, with the tolerance the runs show
      it needs (columns workload, variant, store, keys, phase, metric, relative_percent, absolute):

      - a deterministic row: absolute is the largest difference between the baseline and a run on
        the statistics compare judges (instructions: the mean), 0 without runs; relative_percent is
        compare's default, 0 (0.5 for instructions).
      - a timing: relative_percent is the larger of the baseline's spread above its median,
        (p90 - p50) / p50, and the largest move of the p50 from the baseline to a run, rounded up
        to a tenth; absolute is 0 (a p50 of 0: the same spreads in the metric's unit, as absolute).

      A run's row whose n differs from the baseline's is left out. Edit the file afterwards to
      widen an entry or to replace many by one with wildcards (*).

      Exit codes: 0 success, 64 wrong usage, 65 a malformed CSV or a run that gives a metric
      another unit or better, 66 a missing file, 74 an output that cannot be written.

      EXAMPLE:
        cachebench thresholds update Baselines/gate.csv run-2.csv run-3.csv --out thresholds.csv
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    let actionName = arguments.positionals[0]
    guard Action(rawValue: actionName) != nil else {
      var message = "Unknown action '\(actionName)'; 'thresholds' takes: \(Action.allCases.map(\.rawValue).joined(separator: ", "))."
      if let suggestion = ParsedArguments.nearest(to: actionName, in: Action.allCases.map(\.rawValue)) {
        message += " Did you mean '\(suggestion)'?"
      }
      throw UsageError(message: message, usage: spec.usage)
    }
    let out = try arguments[Options.out]
    let inputs = Array(arguments.positionals.dropFirst())
    var outputs = OutputFiles()
    outputs.add("'--\(Options.out.name)'", out)
    for path in inputs { outputs.addInput("the input '\(path)'", path) }
    try outputs.checkDistinct(usage: spec.usage)
    try AtomicFile.checkWritable(out)
    let baseline = try ResultsFile.readResults(from: inputs[0])
    let runs = try inputs.dropFirst().map { try ResultsFile.readResults(from: $0) }
    let entries = try Thresholds.update(baseline: baseline, runs: runs)
    try AtomicFile.createDirectory(for: out)
    try ResultsFile.write(entries, to: out)
    try writeStandardOutput(
      "wrote \(entries.count) entr\(entries.count == 1 ? "y" : "ies") to \(out), from \(inputs[0]) and \(runs.count) more run\(runs.count == 1 ? "" : "s")\n"
    )
    return .success
  }
}
