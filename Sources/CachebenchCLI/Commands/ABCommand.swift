import Foundation
import Results
import Workloads

/// `cachebench ab`: two builds run in turns, each run one observation; timing verdicts that a
/// shared machine cannot fake (docs/gate.md).
enum ABCommand: Command {
  static let spec = CommandSpec(
    name: "ab",
    abstract: "Run two builds in turns (A B A B ...) and judge timings from the runs; exit 2 on a regression.",
    usage:
      "ab --base <CMD> --current <CMD> <workload>... [--paired [--seconds <S>] [--full-time]] [--rounds <N>] [--threshold <PCT>] [--shift-from <STORE>] [--quick] [--out <FILE.csv>] [--format text|markdown] [--markdown <FILE.md>]",
    options: [
      OptionSpec("base", value: "CMD", help: "The baseline: an executable that behaves as cachebench (another build, a wrapper script)."),
      OptionSpec("current", value: "CMD", help: "The build under test, likewise."),
      OptionSpec(
        "paired",
        help: "Start both builds as workers on one workload and time them step by step in turns (falls back to runs when a build has no worker mode)."),
      OptionSpec("seconds", value: "S", help: "With --paired: the most time spent timing pairs, after preparing and warming up. Default: 90."),
      OptionSpec(
        "full-time",
        help: "With --paired: take pairs for all of --seconds even when every row is decided sooner (to see what the time can detect)."),
      OptionSpec("rounds", value: "N", help: "Runs of each side, taken in turns. Default: 5."),
      OptionSpec("threshold", value: "PCT", help: "The smallest timing change that can count, in percent. Default: 5 (3 with --paired)."),
      OptionSpec(
        "shift-from", value: "STORE",
        help: "Estimate each run's machine shift from this store's rows only (when the change touches most rows).",
        repeatable: true),
      OptionSpec("quick", help: "Pass --quick to every run."),
      OptionSpec("out", value: "FILE.csv", help: "Write the verdict on every metric as CSV."),
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

      Exit codes: 0 no regression, 2 a regression, 1 a run or worker that failed, 64 wrong usage,
      65 a workload --paired cannot step (storeRecords) or cannot load, 66 a workload file missing.

      EXAMPLE:
        cachebench ab --base /tmp/main/cachebench --current .build/release/cachebench Workloads/quick.json
        cachebench ab --paired --base /tmp/main/cachebench --current .build/release/cachebench Workloads/calendar.json
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    guard let base = arguments.value("base"), let current = arguments.value("current") else {
      throw UsageError(message: "Missing expected options '--base <CMD>' and '--current <CMD>'.", usage: spec.usage)
    }
    let format = try VerdictOutput.format(arguments, usage: spec.usage)
    let rounds = try integer(arguments.value("rounds"), option: "rounds", default: 5, range: 2...1_000)
    let paired = arguments.has("paired")
    if paired, arguments.positionals.count != 1 {
      throw UsageError(message: "--paired measures one workload: give one workload file, not \(arguments.positionals.count).", usage: spec.usage)
    }
    for option in ["seconds", "full-time"] where !paired && arguments.has(option) {
      throw UsageError(message: "--\(option) needs --paired.", usage: spec.usage)
    }
    let seconds = try integer(arguments.value("seconds"), option: "seconds", default: 90, range: 1...86_400)
    for command in [base, current] { try checkIsCachebench(command) }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachebench-ab-\(UUID().uuidString)")
    try AtomicFile.createDirectory(directory.path, for: directory.path)
    defer { try? FileManager.default.removeItem(at: directory) }
    if paired {
      // A missing or malformed workload is the user's to fix (66, 65), before any worker starts.
      let workload = try Workload.load(arguments.positionals[0], registry: context.registry)
      if case .storeRecords = workload.source {
        throw CommandError(
          "\(arguments.positionals[0]) is a storeRecords workload: it has no responses to merge and read step by step; run ab without --paired",
          .dataError)
      }
      let run = PairedRun(
        base: base, current: current, workload: arguments.positionals[0], quick: arguments.has("quick"), seconds: Double(seconds),
        stopsEarly: !arguments.has("full-time"),
        options: .init(threshold: try percent(arguments.value("threshold"), default: 3), looks: PairedRun.looks.count + 1))
      do {
        return try runPaired(run, arguments: arguments, format: format, directory: directory)
      } catch let missing as NoWorkerMode {
        writeStandardError(
          "cachebench ab --paired: the \(missing.side) build has no worker mode (\(missing.detail)); falling back to \(rounds) runs of each side in turns\n")
      }
    }
    let threshold = try percent(arguments.value("threshold"), default: 5)
    var runs: [String: [[MetricRow]]] = ["base": [], "current": []]
    for round in 1...rounds {
      for (side, command) in [("base", base), ("current", current)] {
        writeStandardError("cachebench ab: round \(round)/\(rounds), \(side)\n")
        let out = directory.appendingPathComponent("\(side)-\(round).csv").path
        var runArguments = ["run"] + arguments.positionals + ["--out", out, "--no-progress"]
        if arguments.has("quick") { runArguments.append("--quick") }
        try launch(command, runArguments, what: "the \(side) run \(round)")
        runs[side]!.append(try ResultsFile.read(MetricRow.self, from: out))
      }
    }
    let comparison = try RepeatedComparison(
      base: runs["base"]!, current: runs["current"]!,
      options: .init(threshold: threshold, shiftStores: Set(arguments.values("shift-from"))))
    try VerdictOutput.write(text: comparison.report(), markdown: comparison.markdown(), format: format, arguments: arguments)
    if let out = arguments.value("out") {
      try AtomicFile.createDirectory(for: out)
      try ResultsFile.write(comparison.verdicts, to: out)
    }
    return comparison.hasRegressions ? .regression : .success
  }

  /// Runs `command` with `arguments` and waits; its output goes nowhere, its errors to ours on failure.
  private static func launch(_ command: String, _ arguments: [String], what: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    do {
      try process.run()
    } catch {
      throw CommandError("cannot run '\(command)': \(error.localizedDescription)", .failure)
    }
    let output = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      throw CommandError("\(what) ('\(command)') exited \(process.terminationStatus): \(text)", .failure)
    }
  }

  /// `CMD --help` must start as cachebench's does.
  private static func checkIsCachebench(_ command: String) throws {
    guard FileManager.default.isExecutableFile(atPath: command) else {
      throw UsageError(message: "'\(command)' is not an executable file.", usage: spec.usage)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command)
    process.arguments = ["--help"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let text: String
    do {
      try process.run()
      text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
    } catch {
      throw UsageError(message: "cannot run '\(command)': \(error.localizedDescription)", usage: spec.usage)
    }
    guard text.hasPrefix("OVERVIEW: A benchmark and profiling workbench for GraphQL normalized caches.") else {
      throw UsageError(message: "'\(command)' does not behave as cachebench: its --help is not cachebench's.", usage: spec.usage)
    }
  }

  private static func integer(_ text: String?, option: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
    guard let text else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw UsageError(
        message: "The value '\(text)' is invalid for '--\(option)'; expected a whole number from \(range.lowerBound) to \(range.upperBound).",
        usage: spec.usage)
    }
    return number
  }

  private static func percent(_ text: String?, default value: Double) throws -> Double {
    guard let text else { return value / 100 }
    guard let number = Double(text), number >= 0, number.isFinite else {
      throw UsageError(message: "The value '\(text)' is invalid for '--threshold'; expected a percentage such as 5.", usage: spec.usage)
    }
    return number / 100
  }
}

extension ABCommand {
  /// `ab --paired`: runs both workers, prints the verdicts, writes `--out` and `--markdown`.
  fileprivate static func runPaired(_ run: PairedRun, arguments: ParsedArguments, format: String, directory: URL) throws -> ExitCode {
    let outcome = try run.run(directory: directory)
    let comparison = outcome.comparison
    var text = comparison.report()
    text += "\(outcome.rounds) pairs a row in \(Int(outcome.elapsed.rounded())) s"
    text += outcome.stoppedEarly ? " (stopped early: every row decided)\n" : "\n"
    if !outcome.unmatched.isEmpty {
      text += "Not judged, in one build only: \(outcome.unmatched.joined(separator: ", "))\n"
    }
    try VerdictOutput.write(text: text, markdown: comparison.markdown(), format: format, arguments: arguments)
    if let out = arguments.value("out") {
      try AtomicFile.createDirectory(for: out)
      try ResultsFile.write(comparison.verdicts, to: out)
    }
    return comparison.hasRegressions ? .regression : .success
  }
}
