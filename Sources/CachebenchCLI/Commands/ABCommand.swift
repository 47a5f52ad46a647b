import Foundation
import Results
import Support
import Workbench
import Workloads

/// `cachebench ab`: two builds run in turns, each run one observation; timing verdicts that a
/// shared machine cannot fake (docs/gate.md).
enum ABCommand: Command {
  /// The options, each declared once: usage, help, validation and parsing come from here.
  enum Options {
    static let base = Option<String>.required(
      "base", placeholder: "CMD", help: "The baseline: an executable that behaves as cachebench (another build, a wrapper script).")
    static let current = Option<String>.required("current", placeholder: "CMD", help: "The build under test, likewise.")
    static let paired = Flag(
      "paired",
      help:
        "Start both builds as workers on one workload and time them step by step in turns (falls back to runs when a build has no worker mode)."
    )
    static let seconds = Option<Int>(
      "seconds", placeholder: "S", help: "With --paired: the most time spent timing pairs, after preparing and warming up.",
      default: 90, range: 1...86_400)
    static let fullTime = Flag(
      "full-time",
      help: "With --paired: take pairs for all of --seconds even when every row is decided sooner (to see what the time can detect).")
    static let rounds = Option<Int>("rounds", placeholder: "N", help: "Runs of each side, taken in turns.", default: 5, range: 2...1_000)
    static let threshold = Option<Double?>.percentage(
      "threshold", help: "The smallest timing change that can count, in percent. Default: 5 (3 with --paired).", example: 5)
    static let shiftFrom = Option<String>.repeatable(
      "shift-from", placeholder: "STORE",
      help: "Estimate each run's machine shift from this store's rows only (when the change touches most rows).")
    static let quick = Flag("quick", help: "Pass --quick to every run.")
    static let timeout = Option<Int?>(
      "timeout", placeholder: "S",
      help:
        "The longest a side may take for one run, or with --paired for its handshake, its preparing or one step; it is then ended (exit 1). Default: from the workloads' size.",
      range: 1...604_800)
    static let out = Option<String?>("out", placeholder: "FILE.csv", help: "Write the verdict on every metric as CSV.")
  }

  static let spec = CommandSpec(
    name: "ab",
    abstract: "Run two builds in turns (A B A B ...) and judge timings from the runs; exit 2 on a regression.",
    // Written out: --seconds and --full-time belong to --paired; the choices come from the declarations.
    usage:
      "ab --base <CMD> --current <CMD> <workload>... [--paired [--seconds <S>] [--full-time]] [--rounds <N>] [--threshold <PCT>] [--shift-from <STORE>] [--quick] [--timeout <S>] [--out <FILE.csv>] [--format \(VerdictOutput.format.choices)] [--markdown <FILE.md>]",
    options: [
      Options.base, Options.current, Options.paired, Options.seconds, Options.fullTime, Options.rounds, Options.threshold,
      Options.shiftFrom, Options.quick, Options.timeout, Options.out,
    ] + VerdictOutput.options,
    positionalName: "<workload>", positionalHelp: "Workload files, as for run.", minimumPositionals: 1,
    maximumPositionals: 1_000,
    discussion: """
      Each run of a side is one observation of every timing row (its p50). Each run's machine shift
      (the median, over the rows, of how far the run sits from the row's median over all runs) is
      removed; each row is tested across the runs (a moderated t-test on logarithms) with the false
      alarm rate held at 5% over all rows (Holm); a row regressed only when that test says so and the
      change is beyond the threshold. Beyond the threshold without it: inconclusive. Deterministic
      rows are judged as compare judges them. Prints the smallest change the rounds can detect.

      With --paired (one workload), both builds run as workers ('cachebench worker') that load the
      workload once and time single steps on request: a merge, a read or a point lookup of every
      store x key strategy. Each round performs every row's next step on both builds, rows in a
      random order and, in each pair, a random build first, so that the machine's drift meets both
      alike. Each row's pairs are judged on their log-ratios: medians of blocks of 8 pairs, a sign
      test over the blocks (exact whatever the noise, since the order in each pair was random),
      Holm over the rows, the level split over 4 looks (at 1/8, 1/4, 1/2 and all of --seconds);
      the run stops at a look where every row is regressed, improved, or has its interval within
      the threshold. Prints every row's change, interval, p and smallest detectable change.

      Every wait on a side is bounded by --timeout (default: 5 minutes, plus for each configuration
      10 s and 1 s per MB of responses a round, plus the traffic); a side that outlives it is ended
      and named. Whatever ends ab (SIGINT, SIGTERM and SIGHUP included) ends its sides first.

      Exit codes: 0 no regression, 2 a regression, 1 a run or worker that failed or timed out,
      64 wrong usage, 65 a workload --paired cannot step (storeRecords, apolloTier2, apolloTier3, lists) or
      cannot load, 66 a workload file missing, 74 an --out or --markdown that cannot be written.

      EXAMPLE:
        cachebench ab --base /tmp/main/cachebench --current .build/release/cachebench Workloads/quick.json
        cachebench ab --paired --base /tmp/main/cachebench --current .build/release/cachebench Workloads/calendar.json
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    // However ab ends, its sides end with it.
    ChildProcess.endChildrenOnSignals()
    let base = try arguments[Options.base]
    let current = try arguments[Options.current]
    try VerdictOutput.checkDistinct(arguments, out: Options.out)
    try checkShiftStores(arguments, context: context)
    let rounds = try arguments[Options.rounds]
    let paired = arguments[Options.paired]
    if paired, arguments.positionals.count != 1 {
      throw UsageError(
        message: "--paired measures one workload: give one workload file, not \(arguments.positionals.count).", usage: spec.usage)
    }
    let pairedOnly: [any OptionDeclaration] = [Options.seconds, Options.fullTime]
    for option in pairedOnly where !paired && arguments.isSet(option) {
      throw UsageError(message: "--\(option.name) needs --paired.", usage: spec.usage)
    }
    let seconds = try arguments[Options.seconds]
    let timeoutOption = try arguments[Options.timeout]
    for command in [base, current] { try checkIsCachebench(command) }
    // The outputs before any timing: a bad --out must not be found after 90 seconds of it.
    for path in [try arguments[Options.out], try arguments[VerdictOutput.markdown]].compactMap({ $0 }) {
      try AtomicFile.checkWritable(path)
    }
    let estimated = try defaultTimeout(arguments, context: context, paired: paired)
    let timeout = timeoutOption.map { Duration.seconds($0) } ?? estimated
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachebench-ab-\(UUID().uuidString)")
    try AtomicFile.createDirectory(directory.path, for: directory.path)
    defer { try? FileManager.default.removeItem(at: directory) }
    if paired {
      let run = PairedRun(
        base: base, current: current, workload: arguments.positionals[0], quick: arguments[Options.quick], seconds: Double(seconds),
        timeout: timeout, stopsEarly: !arguments[Options.fullTime],
        options: .init(threshold: (try arguments[Options.threshold] ?? 3) / 100, looks: PairedRun.looks.count + 1))
      do {
        return try runPaired(run, arguments: arguments, directory: directory)
      } catch let missing as NoWorkerMode {
        writeStandardError(
          "cachebench ab --paired: the \(missing.side) build has no worker mode (\(missing.detail)); falling back to \(rounds) runs of each side in turns\n"
        )
      }
    }
    let sides = [Side(name: "base", command: base), Side(name: "current", command: current)]
    let runs = try runInTurns(sides, rounds: rounds, arguments: arguments, directory: directory, timeout: timeout)
    let comparison = try RepeatedComparison(
      base: runs[0], current: runs[1],
      options: .init(threshold: (try arguments[Options.threshold] ?? 5) / 100, shiftStores: Set(try arguments.all(Options.shiftFrom))))
    try VerdictOutput.write(text: comparison.report(), markdown: comparison.markdown(), arguments: arguments)
    if let out = try arguments[Options.out] {
      try AtomicFile.createDirectory(for: out)
      try ResultsFile.write(comparison.verdicts, to: out)
    }
    return comparison.hasRegressions ? .regression : .success
  }

  /// `--shift-from` must name a store of the workloads (64 otherwise): an unknown label would
  /// leave no timing row to estimate the shift from. Not checked when a workload does not load
  /// here (a store kind only the sides know).
  private static func checkShiftStores(_ arguments: ParsedArguments, context: CommandContext) throws {
    let names = try arguments.all(Options.shiftFrom)
    guard !names.isEmpty else { return }
    var labels: [String] = []
    for path in arguments.positionals {
      guard let workload = try? Workload.load(path, registry: context.registry) else { return }
      labels += workload.variants.flatMap(\.stores).map(\.label)
    }
    let known = labels.uniqued()
    for name in names where !known.contains(name) {
      throw UsageError(
        message: "The value '\(name)' is invalid for '--shift-from'; expected a store of the workloads: \(known.joined(separator: ", ")).",
        usage: spec.usage)
    }
  }

  /// One build: `base` or `current`, and its command.
  struct Side {
    let name: String
    let command: String
  }

  /// The default of `--timeout`: for whole runs, the sum of each workload's
  /// ``RunTimeout/default(for:)``; with `--paired`, its workload's. A workload this build cannot
  /// load (a store kind only the sides know) counts an hour. With `--paired`, a workload that
  /// cannot be loaded or stepped is refused here (66, 65), before any worker starts.
  private static func defaultTimeout(_ arguments: ParsedArguments, context: CommandContext, paired: Bool) throws -> Duration {
    let quick = arguments[Options.quick]
    if paired {
      let workload = try Workload.load(arguments.positionals[0], registry: context.registry)
      try WorkerCommand.checkSteppable(workload, path: arguments.positionals[0], hint: "run ab without --paired")
      return RunTimeout.default(for: quick ? workload.quick() : workload)
    }
    return arguments.positionals.reduce(Duration.zero) { total, path in
      guard let workload = try? Workload.load(path, registry: context.registry) else { return total + .seconds(3_600) }
      return total + RunTimeout.default(for: quick ? workload.quick() : workload)
    }
  }

  /// `rounds` runs of each side in turns; each side's rows, run by run.
  private static func runInTurns(
    _ sides: [Side], rounds: Int, arguments: ParsedArguments, directory: URL, timeout: Duration
  ) throws -> [[[MetricRow]]] {
    var runs: [[[MetricRow]]] = [[], []]
    for round in 1...rounds {
      for (index, side) in sides.enumerated() {
        writeStandardError("cachebench ab: round \(round)/\(rounds), \(side.name)\n")
        let out = directory.appendingPathComponent("\(side.name)-\(round).csv").path
        var runArguments = ["run"] + arguments.positionals + ["--out", out, "--no-progress"]
        if arguments[Options.quick] { runArguments.append("--quick") }
        runs[index].append(try launch(side, round: round, runArguments, out: out, timeout: timeout))
      }
    }
    return runs
  }

  /// Runs one side once, at most `timeout`, and reads the rows it wrote; its output goes nowhere,
  /// the first line of its errors into the message of a failure.
  ///
  /// - Throws: ``CommandError`` (exit 1) naming the side and the run: it could not start, it
  ///   outlived `timeout` (it is then ended), it exited non-zero, it wrote no results or results
  ///   that do not read.
  private static func launch(_ side: Side, round: Int, _ arguments: [String], out: String, timeout: Duration) throws -> [MetricRow] {
    let what = "the \(side.name) build's run \(round)"
    let outcome: ChildProcess.Outcome
    do {
      outcome = try ChildProcess.run(side.command, arguments, output: .discard, timeout: timeout, captureLimit: 65_536)
    } catch {
      throw CommandError("\(what): \(error)", .failure)
    }
    let firstLine = outcome.errorText.split(separator: "\n").first.map { ": " + Reporter.shortened(String($0)) } ?? ""
    if outcome.timedOut {
      throw CommandError(
        "\(what) ('\(side.command)') did not finish within \(WorkerProcess.seconds(timeout)) (--timeout); it was ended", .failure)
    }
    guard outcome.termination.succeeded else {
      throw CommandError("\(what) ('\(side.command)') \(outcome.termination)\(firstLine)", .failure)
    }
    guard FileManager.default.fileExists(atPath: out) else {
      throw CommandError("\(what) ('\(side.command)') wrote no results\(firstLine.isEmpty ? "" : firstLine)", .failure)
    }
    do {
      return try ResultsFile.read(MetricRow.self, from: out)
    } catch let error as CSVError {
      let place = "line \(error.line)" + (error.field.map { ", column '\($0)'" } ?? error.column.map { ", column \($0)" } ?? "")
      throw CommandError("\(what) ('\(side.command)') wrote results that do not read (\(place)): \(error.message)", .failure)
    }
  }

  /// `CMD --help` must start as cachebench's does, within 30 seconds.
  private static func checkIsCachebench(_ command: String) throws {
    guard FileManager.default.isExecutableFile(atPath: command) else {
      throw UsageError(message: "'\(command)' is not an executable file.", usage: spec.usage)
    }
    let text: String
    do {
      text = try ChildProcess.run(command, ["--help"], errors: .discard, timeout: .seconds(30), captureLimit: 65_536).outputText
    } catch {
      throw UsageError(message: "\(error)", usage: spec.usage)
    }
    guard text.hasPrefix("OVERVIEW: A benchmark and profiling workbench for GraphQL normalized caches.") else {
      throw UsageError(message: "'\(command)' does not behave as cachebench: its --help is not cachebench's.", usage: spec.usage)
    }
  }

}

extension ABCommand {
  /// `ab --paired`: runs both workers, prints the verdicts, writes `--out` and `--markdown`.
  fileprivate static func runPaired(_ run: PairedRun, arguments: ParsedArguments, directory: URL) throws -> ExitCode {
    let outcome = try run.run(directory: directory)
    let comparison = outcome.comparison
    var text = comparison.report()
    text += "\(outcome.rounds) pairs a row in \(Int(outcome.elapsed.rounded())) s"
    text += outcome.stoppedEarly ? " (stopped early: every row decided)\n" : "\n"
    if !outcome.unmatched.isEmpty {
      text += "Not judged, in one build only: \(outcome.unmatched.joined(separator: ", "))\n"
    }
    try VerdictOutput.write(text: text, markdown: comparison.markdown(), arguments: arguments)
    if let out = try arguments[Options.out] {
      try AtomicFile.createDirectory(for: out)
      try ResultsFile.write(comparison.verdicts, to: out)
    }
    return comparison.hasRegressions ? .regression : .success
  }
}
