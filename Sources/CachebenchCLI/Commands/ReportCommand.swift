import Foundation
import Results
import Support
import Workbench

/// `cachebench report`: a run (and its samples, and a comparison) as one self-contained HTML page.
enum ReportCommand: Command {
  /// The options, each declared once: usage, help, validation and parsing come from here. The
  /// placeholders are those of the usage line it has always had.
  enum Options {
    static let out = Option<String>.required("out", placeholder: "report.html", help: "Where to write the page (atomically).")
    static let samples = Option<String?>(
      "samples", placeholder: "S.csv", help: "The run's --samples file: the distributions as box plots.")
    static let comparison = Option<String?>(
      "comparison", placeholder: "C.csv", help: "A comparison from 'compare --out' or 'ab --out': its verdicts as a chart and a table.")
  }

  static let spec = CommandSpec(
    name: "report",
    abstract: "Write a run as one self-contained HTML page: its table and charts, with provenance.",
    options: [Options.out, Options.samples, Options.comparison],
    positionalName: "<RESULTS.csv>", positionalHelp: "A file written by 'cachebench run' (or 'merge').",
    minimumPositionals: 1, maximumPositionals: 1,
    discussion: """
      One HTML file, no script and no network: the run's provenance (run, start, git revision,
      machine, and what made the report), its table, write and read latency per store and strategy,
      each strategy against path, the samples' distributions, a sweep's metrics against the knob,
      the traffic, the concurrency phase, and a comparison's verdicts.

      --samples must be the run's own (its run ID), --comparison of the run's workload: either from
      another is refused (65) rather than drawn as this run's.

      Exit codes: 0 success, 64 wrong usage, 65 a malformed CSV, or --samples or --comparison of
      another run or workload, 66 a missing file, 74 an output
      that cannot be written.

      EXAMPLE:
        cachebench run Workloads/default.json --samples results/runs/default-samples.csv
        cachebench report results/runs/default.csv --samples results/runs/default-samples.csv --out results/runs/default.html
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    let out = try arguments[Options.out]
    var outputs = OutputFiles()
    outputs.add("'--out'", out)
    outputs.addInput("the input '\(arguments.positionals[0])'", arguments.positionals[0])
    for option in [Options.samples, Options.comparison] { outputs.addInput("'--\(option.name)'", try arguments[option]) }
    try outputs.checkDistinct(usage: spec.usage)
    try AtomicFile.checkWritable(out)
    let rows = try ResultsFile.readResults(from: arguments.positionals[0])
    let samples = try arguments[Options.samples].map { try ResultsFile.read(SampleRow.self, from: $0) } ?? []
    let verdicts = try arguments[Options.comparison].map { try ResultsFile.read(Verdict.self, from: $0) } ?? []
    try checkBelong(rows: rows, samples: samples, verdicts: verdicts, arguments: arguments)
    let report = HTMLReport(rows: rows, samples: samples, verdicts: verdicts, generator: versionLine())
    try AtomicFile.createDirectory(for: out)
    try AtomicFile.write(report.render(), to: out)
    try writeStandardOutput("wrote \(out): \(report.sectionIDs.joined(separator: ", "))\n")
    return .success
  }

  /// Refuses (65) `--samples` of another run and a `--comparison` of another workload: the page
  /// would draw them as this run's without a word. A shard's samples belong to the merged run.
  private static func checkBelong(rows: [MetricRow], samples: [SampleRow], verdicts: [Verdict], arguments: ParsedArguments) throws {
    let results = arguments.positionals[0]
    func base(_ runID: String) -> String { Shard.parse(runID: runID)?.base ?? runID }
    let runs = Set(rows.map { base($0.run.runID) })
    if let path = try arguments[Options.samples], let stranger = samples.first(where: { !runs.contains(base($0.runID)) }) {
      throw CommandError(
        "\(path) holds samples of run \(stranger.runID), \(results) is of run \(runs.sorted().joined(separator: ", ")): give the --samples file of this run",
        .dataError)
    }
    let workloads = Set(rows.map(\.key.workload))
    if let path = try arguments[Options.comparison], !verdicts.isEmpty, workloads.isDisjoint(with: verdicts.map(\.key.workload)) {
      let theirs = Set(verdicts.map(\.key.workload)).sorted().joined(separator: ", ")
      throw CommandError(
        "\(path) compares the workload \(theirs), \(results) is of \(workloads.sorted().joined(separator: ", ")): give a comparison of this workload",
        .dataError)
    }
  }

  /// `cachebench 0.26.0 (git 2d3017b0ab12), Swift 6.3`; without the revision outside a checkout.
  static func versionLine() -> String {
    let revision = RunInfo.gitRevision()
    return "cachebench \(CachebenchVersion.number)" + (revision == "unknown" ? "" : " (git \(revision))")
      + ", \(CachebenchVersion.toolchain)"
  }
}
