import Foundation
import Results
import Workbench

/// `cachebench report`: a run (and its samples, and a comparison) as one self-contained HTML page.
enum ReportCommand: Command {
  static let spec = CommandSpec(
    name: "report",
    abstract: "Write a run as one self-contained HTML page: its table and charts, with provenance.",
    usage: "report <RESULTS.csv> --out <report.html> [--samples <S.csv>] [--comparison <C.csv>]",
    options: [
      OptionSpec("out", value: "FILE.html", help: "Where to write the page (atomically)."),
      OptionSpec("samples", value: "FILE.csv", help: "The run's --samples file: the distributions as box plots."),
      OptionSpec("comparison", value: "FILE.csv", help: "A comparison from 'compare --out' or 'ab --out': its verdicts as a chart and a table."),
    ],
    positionalName: "<RESULTS.csv>", positionalHelp: "A file written by 'cachebench run' (or 'merge').",
    minimumPositionals: 1, maximumPositionals: 1,
    discussion: """
      One HTML file, no script and no network: the run's provenance (run, start, git revision,
      machine, and what made the report), its table, write and read latency per store and strategy,
      each strategy against path, the samples' distributions, a sweep's metrics against the knob,
      the traffic, the concurrency phase, and a comparison's verdicts.

      Exit codes: 0 success, 64 wrong usage, 65 a malformed CSV, 66 a missing file, 74 an output
      that cannot be written.

      EXAMPLE:
        cachebench run Workloads/default.json --samples results/default-samples.csv
        cachebench report results/default.csv --samples results/default-samples.csv --out results/default.html
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    guard let out = arguments.value("out") else {
      throw UsageError(message: "Missing expected option '--out <report.html>'.", usage: spec.usage)
    }
    try AtomicFile.checkWritable(out)
    let rows = try ResultsFile.read(MetricRow.self, from: arguments.positionals[0])
    let samples = try arguments.value("samples").map { try ResultsFile.read(SampleRow.self, from: $0) } ?? []
    let verdicts = try arguments.value("comparison").map { try ResultsFile.read(Verdict.self, from: $0) } ?? []
    let report = HTMLReport(rows: rows, samples: samples, verdicts: verdicts, generator: versionLine())
    try AtomicFile.createDirectory(for: out)
    try AtomicFile.write(report.render(), to: out)
    try writeStandardOutput("wrote \(out): \(report.sectionIDs.joined(separator: ", "))\n")
    return .success
  }

  /// `cachebench 0.26.0 (git 2d3017b0ab12), Swift 6.3`; without the revision outside a checkout.
  static func versionLine() -> String {
    let revision = RunInfo.gitRevision()
    return "cachebench \(CachebenchVersion.number)" + (revision == "unknown" ? "" : " (git \(revision))") + ", \(CachebenchVersion.toolchain)"
  }
}
