import Foundation
import Results
import Support
import Workbench
import Workloads

/// `cachebench soak`: a workload's traffic session, long, sampled as it goes, and what grew after
/// its warm-up (docs/command-line.md#soak).
enum SoakCommand: Command {
  /// The options, each declared once: usage, help, validation and parsing come from here.
  enum Options {
    static let every = Option<Int?>(
      "every", placeholder: "steps", help: "Steps between samples. Default: a hundredth of the session.", range: 1...100_000_000)
    static let warmup = Option<Int?>(
      "warmup", placeholder: "steps", help: "Steps before the fit starts. Default: a tenth of the session.", range: 0...100_000_000)
    static let out = Option<String?>(
      "out", placeholder: "FILE.csv", help: "Where to write the growth of each figure. Default: results/<workload name>.csv.")
    static let series = Option<String?>(
      "series", placeholder: "FILE.csv", help: "Where to write every sample. Default: results/<workload name>-series.csv.")
    static let quick = Flag("quick", help: "Shrink the workload as run --quick does: a tenth of the steps (at least 100).")
  }

  static let spec = CommandSpec(
    name: "soak",
    abstract: "Run a workload's traffic session long, sampling memory and files: what grows per 100,000 steps.",
    options: [Options.every, Options.warmup, Options.out, Options.series, Options.quick, Flag.allowLarge, Flag.noProgress],
    positionalName: "<workload>", positionalHelp: "A workload file with a traffic section.", minimumPositionals: 1,
    maximumPositionals: 1,
    discussion: """
      For every store × key strategy of the workload: its traffic session (traffic.steps steps, on
      the session's clock when the store has dates) on a fresh store, without the write and read
      phases. Every --every steps it samples the process's resident set (VmRSS), jemalloc's live
      bytes, and the store's records, accounted bytes, database and WAL; then it fits a line through
      the samples after the warm-up and prints its slope per 100,000 steps. --out and --series
      must be two files (64 otherwise, given or by default).

      EXAMPLES:
        cachebench soak Workloads/soak.json --allow-large      # what make soak runs
        cachebench soak Workloads/gate.json --every 50 --warmup 100 --out /tmp/soak.csv --series /tmp/series.csv
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    let path = arguments.positionals[0]
    let every = try arguments[Options.every]
    let warmup = try arguments[Options.warmup]
    let workload = try Workload.load(path, registry: context.registry)
    let quick = arguments[Options.quick]
    try WorkloadChecker.check(quick ? workload.quick() : workload, allowLarge: arguments[Flag.allowLarge])
    let out = try arguments[Options.out] ?? "results/\(workload.name).csv"
    let series = try arguments[Options.series] ?? "results/\(workload.name)-series.csv"
    var outputs = OutputFiles()
    for (option, path) in [(Options.out, out), (Options.series, series)] {
      outputs.add(arguments.isSet(option) ? "'--\(option.name)'" : "the default of '--\(option.name)'", path)
    }
    outputs.addInput("the workload '\(path)'", path)
    try outputs.checkDistinct(usage: spec.usage)
    for output in [out, series] { try AtomicFile.checkWritable(output) }
    var options = SoakOptions(every: every, warmup: warmup, quick: quick, progress: !arguments[Flag.noProgress])
    options.signalAtStep = try signalAtStep()
    // SIGINT and SIGTERM stop the session where it is; what it sampled is still written.
    SoakInterruption.install()
    let result = try Soak.run(workload, options: options)
    try ResultsFile.write(result.growth, to: out)
    try ResultsFile.write(result.samples, to: series)
    try writeStandardOutput(
      result.table + "wrote \(result.growth.count) rows to \(out)\nwrote \(result.samples.count) samples to \(series)\n")
    guard let signal = result.interruption else { return .success }
    let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
    let last = result.samples.last.map { " (the last at step \($0.step) of \($0.configuration.store) × \($0.configuration.keys))" } ?? ""
    writeStandardError(
      "soak stopped by \(name) before its end: \(result.samples.count) samples\(last) written, marked complete=false\n")
    return signal == SIGINT ? .interrupted : .terminated
  }

  /// `CACHEBENCH_SOAK_SIGNAL_AT=INT:50` (or `TERM:50`): raise the signal before step 50, for the
  /// tests of an interrupted soak.
  private static func signalAtStep() throws -> (signal: Int32, step: Int)? {
    guard let value = ProcessInfo.processInfo.environment["CACHEBENCH_SOAK_SIGNAL_AT"] else { return nil }
    let parts = value.split(separator: ":")
    guard parts.count == 2, let step = Int(parts[1]), step >= 0, ["INT", "TERM"].contains(parts[0]) else {
      throw UsageError(message: "CACHEBENCH_SOAK_SIGNAL_AT must be INT:<step> or TERM:<step>, got \"\(value)\"", usage: nil)
    }
    return (parts[0] == "INT" ? SIGINT : SIGTERM, step)
  }
}
