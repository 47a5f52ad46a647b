import Foundation
import Results
import SQLiteCache
import Support
import Workbench
import Workloads

/// `cachebench run`: runs workloads, prints a table, writes the CSV (docs/csv.md,
/// docs/command-line.md).
enum RunCommand: Command {
  /// The options, each declared once: usage, help, validation and parsing come from here.
  enum Options {
    static let out = Option<String?>(
      "out", placeholder: "FILE.csv",
      help: "Where to write the metrics. Default: results/runs/<workload name>.csv for each workload (untracked by git).")
    static let samples = Option<String?>("samples", placeholder: "FILE.csv", help: "Also write every sample, one row each.")
    static let history = Option<String?>(
      "history", placeholder: "FILE.csv",
      help: "Append the rows to a history of runs (created with its header if missing), for scripts/trend.py.")
    static let instructions = Flag(
      "instructions",
      help:
        "Also count the instructions of every write, normalize, merge and read under valgrind's callgrind (some 30 times slower than the run itself)."
    )
    static let instructionsOnly = Option<String?>(
      "instructions-only", placeholder: "FILE",
      help: "Internal, for --instructions: only count instructions, under callgrind started with --callgrind-out-file=FILE.",
      isHidden: true)
    static let quick = Flag(
      "quick", help: "Shrink each workload for a smoke test: a tenth of the responses or records, one repetition, no warm-up.")
    static let shard = Option<Shard?>(
      "shard", placeholder: "K/N",
      help:
        "Run the K-th of N shares of the configurations (variant × store × strategy), for a run split across machines; 'cachebench merge' joins the parts.",
      expected: "K/N with 1 <= K <= N, such as 2/3")
  }

  static let spec = CommandSpec(
    name: "run",
    abstract: "Run workloads: measure every store × key strategy, print a table, write CSV.",
    options: [
      Options.out, Options.samples, Options.history, Options.instructions, Options.instructionsOnly, Options.quick, Options.shard,
      Flag.allowLarge, Flag.noProgress,
    ],
    positionalName: "<workload>", positionalHelp: "Workload files (JSON, see docs/workloads.md).", minimumPositionals: 1,
    maximumPositionals: 1_000,
    discussion: """
      Files are written atomically: to a temporary file, then renamed into place (a symbolic
      link's target; a device or FIFO is written through). Every output is checked before the
      run, and the files are written before the table is printed. --out (or each workload's
      default file), --samples and --history must be files of their own (64 otherwise).

      A SQLite store with "journal": "memory" or "off" is measured without SQLite's crash
      safety: as SQLite documents, a crash in a transaction can then corrupt the database.

      \(layoutsHelp)

      EXAMPLES:
        cachebench run Workloads/default.json
        cachebench run Workloads/quick.json --quick --out /tmp/quick.csv --samples /tmp/samples.csv
        cachebench run Workloads/quick.json --history results/history.csv
        cachebench run Workloads/default.json --shard 2/3 --out part-2.csv   # then: cachebench merge part-*.csv --workload Workloads/default.json --out all.csv

      --shard K/N measures configurations K, K+N, K+2N, ... of the run's order (1-based); a limit
      store another shard owns is measured too when a store of this one is compared with it, but
      writes no rows. The part's run ID ends -shardKofN, which merge reads, and the part ends
      with one row per configuration counting its rows, which merge checks.
      """)

  /// The SQLite layouts a workload's store may name, each with its summary, from the catalog
  /// (docs/stores.md#layouts).
  static var layoutsHelp: String {
    let width = SQLiteNormalizedCache.Layout.allCases.map(\.rawValue.count).max() ?? 0
    let rows = SQLiteNormalizedCache.Layout.allCases.map {
      "  " + $0.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary
    }
    return (["SQLITE LAYOUTS (a \"sqlite\" store's \"layout\", docs/stores.md#layouts):"] + rows).joined(separator: "\n")
  }

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    // Check every file before running any: the outputs given first, before any is read.
    try distinctOutputs(arguments, workloads: nil)
    let history = try arguments[Options.history].map(ResultsHistory.init(path:))
    var workloads: [Workload] = []
    for path in arguments.positionals {
      let workload = try Workload.load(path, registry: context.registry)
      for warning in workload.warnings { writeStandardError("Warning: \(warning)\n") }
      // Sizes are checked as the workload will run: --quick shrinks it first.
      try WorkloadChecker.check(arguments[Options.quick] ? workload.quick() : workload, allowLarge: arguments[Flag.allowLarge])
      workloads.append(workload)
    }
    let shard = try parseShard(arguments, workloads: workloads)
    let options = RunOptions(
      quick: arguments[Options.quick], keepSamples: arguments.isSet(Options.samples),
      progress: !arguments[Flag.noProgress], shard: shard)
    if let outFile = try arguments[Options.instructionsOnly] {
      return try countInstructions(workloads, options: options, outFile: outFile, arguments: arguments)
    }
    let instructions = arguments[Options.instructions]
    if instructions, !CallgrindProcess.isAvailable {
      throw CommandError("--instructions needs valgrind, which is not installed here (make deps installs it)", .failure)
    }
    // However the run ends, the counting run under valgrind ends with it.
    if instructions { ChildProcess.endChildrenOnSignals() }
    // Every output checked before the run: an unwritable --samples must not be found after --out
    // was written and minutes were spent.
    try distinctOutputs(arguments, workloads: zip(arguments.positionals, workloads).map { $0 })
    let out = try arguments[Options.out]
    let perWorkloadFiles = out == nil
    let outputs = (out.map { [$0] } ?? workloads.map { defaultOutput(of: $0) }) + [try arguments[Options.samples]].compactMap { $0 }
    for path in outputs { try AtomicFile.checkWritable(path) }
    var results: [WorkloadResult] = []
    for (index, workload) in workloads.enumerated() {
      let info = RunInfo.current(seed: workload.seed, shard: shard)
      var result = try WorkloadRunner.run(workload, options: options, run: info)
      if instructions {
        // Valgrind runs it some 30 times slower than natively.
        let measured = options.quick ? workload.quick() : workload
        let counted = try CallgrindProcess.instructionRows(
          workload: arguments.positionals[index], configurations: try ConfigurationSequence(measured).count,
          quick: options.quick, shard: shard, executable: try executablePath(),
          timeout: RunTimeout.default(for: measured) * 30)
        result = result.adding(
          counted.map {
            var row = $0
            row.run = info
            return row
          })
      }
      // A part ends with its count rows, so that merge and every other reader tell a part cut
      // short (docs/csv.md#split-runs-and-the-merged-csv).
      if shard != nil { result = result.adding(Shard.countRows(of: result.rows)) }
      results.append(result)
    }
    try writeOutputs(results, of: workloads, perWorkloadFiles: perWorkloadFiles, history: history, arguments: arguments)
    return .success
  }

  /// `--out` (or, without it, each workload's default file), `--samples` and `--history` must be
  /// files of their own: 64 otherwise. Without the workloads, the options given only.
  private static func distinctOutputs(_ arguments: ParsedArguments, workloads: [(path: String, workload: Workload)]?) throws {
    var outputs = OutputFiles()
    if !arguments.isSet(Options.out), let workloads {
      for (path, workload) in workloads { outputs.add("the default output of \(path)", defaultOutput(of: workload)) }
    }
    for option in [Options.out, Options.samples, Options.history] { outputs.add("'--\(option.name)'", try arguments[option]) }
    for path in arguments.positionals { outputs.addInput("the workload '\(path)'", path) }
    try outputs.checkDistinct(usage: spec.usage)
  }

  /// `--shard K/N`, checked against the one workload it splits; nil without the option.
  private static func parseShard(_ arguments: ParsedArguments, workloads: [Workload]) throws -> Shard? {
    guard let shard = try arguments[Options.shard] else { return nil }
    guard workloads.count == 1 else {
      throw UsageError(message: "--shard splits one workload: give one workload file, not \(workloads.count).", usage: spec.usage)
    }
    let configurations = try ConfigurationSequence(workloads[0]).count
    guard shard.count <= configurations else {
      throw UsageError(
        message:
          "--shard \(shard): \(workloads[0].name) has \(configurations) configuration\(configurations == 1 ? "" : "s"), so at most \(configurations) shards.",
        usage: spec.usage)
    }
    return shard
  }

  /// Where a run writes a workload's rows without `--out`: under `results/runs/`, which git
  /// ignores, so that a run leaves a checkout clean and the next run records no `-dirty`
  /// revision (the CSVs committed in `results/` are curated copies; docs/command-line.md#run).
  static func defaultOutput(of workload: Workload) -> String { "results/runs/\(workload.name).csv" }

  /// The CSVs, the samples and the history, then the table: a standard output that fails
  /// (`> /dev/full`) or closes (`| head -1`) must not lose the results.
  private static func writeOutputs(
    _ results: [WorkloadResult], of workloads: [Workload], perWorkloadFiles: Bool, history: ResultsHistory?,
    arguments: ParsedArguments
  ) throws {
    var written: [String] = []
    if perWorkloadFiles {
      for (workload, result) in zip(workloads, results) {
        let path = defaultOutput(of: workload)
        try ResultsFile.write(result.rows, to: path)
        written.append("wrote \(result.rows.count) rows to \(path)\n")
      }
    }
    let allRows = results.flatMap(\.rows)
    if let path = try arguments[Options.out] {
      try ResultsFile.write(allRows, to: path)
      written.append("wrote \(allRows.count) rows to \(path)\n")
    }
    if let path = try arguments[Options.samples] {
      let allSamples = results.flatMap(\.samples)
      try ResultsFile.write(allSamples, to: path)
      written.append("wrote \(allSamples.count) samples to \(path)\n")
    }
    if let history {
      // A history holds runs, not parts: without a part's count rows.
      let rows = allRows.filter { !Shard.isCount($0) }
      try history.append(rows)
      written.append("appended \(rows.count) rows to \(history.path)\n")
    }
    try writeStandardOutput(results.map(\.table).joined(separator: "\n") + written.joined())
  }

  /// The child of `--instructions`, under callgrind: instruction rows only, to `--out`.
  private static func countInstructions(
    _ workloads: [Workload], options: RunOptions, outFile: String, arguments: ParsedArguments
  ) throws -> ExitCode {
    guard let out = try arguments[Options.out] else {
      throw UsageError(message: "--instructions-only needs --out <FILE.csv>.", usage: spec.usage)
    }
    var rows: [MetricRow] = []
    for workload in workloads {
      // No git, host name or clock: what this process allocates before counting must not vary
      // (see CallgrindProcess); the parent stamps the rows with its own run.
      let info = RunInfo(runID: "instructions", timestamp: "", gitRev: "", host: "")
      rows += try WorkloadRunner.countInstructions(workload, options: options, run: info, outFile: outFile).rows
    }
    try ResultsFile.write(rows, to: out)
    return .success
  }

  /// This executable's path, for starting it again under valgrind.
  private static func executablePath() throws -> String {
    let path = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw CommandError("cannot find this executable to run it under valgrind", .failure)
    }
    return path
  }
}
