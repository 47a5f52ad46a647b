import Results

/// `cachebench merge`: the parts of a run split across machines, joined.
enum MergeCommand: Command {
  static let spec = CommandSpec(
    name: "merge",
    abstract: "Join the parts of a run split with 'run --shard K/N' into the CSV of the whole run.",
    usage: "merge <PART.csv>... --out <FILE.csv>",
    options: [OptionSpec("out", value: "FILE.csv", help: "Where to write the whole run's CSV (atomically).")],
    positionalName: "<PART.csv>", positionalHelp: "The parts, in any order: one for each K of one N.",
    minimumPositionals: 1, maximumPositionals: 10_000,
    discussion: """
      Checks that the parts are one run's (one workload, seed and build; one N, each K once, each
      holding its whole share) and writes the rows in the order the unsplit run writes them: its
      deterministic rows are the unsplit run's. Every row takes shard 1's run ID (without
      -shardKofN) and timestamp, and keeps its host.

      Exit codes: 0 success, 64 wrong usage, 65 parts that are not one run's or do not cover it,
      66 a missing file, 74 an output that cannot be written.

      EXAMPLE:
        cachebench merge part-1.csv part-2.csv part-3.csv --out results/default.csv
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    guard let out = arguments.value("out") else {
      throw UsageError(message: "Missing expected option '--out <FILE.csv>'.", usage: spec.usage)
    }
    try AtomicFile.checkWritable(out)
    var parts: [ResultsMerge.Part] = []
    for path in arguments.positionals {
      parts.append(ResultsMerge.Part(name: path, rows: try ResultsFile.read(MetricRow.self, from: path)))
    }
    let rows = try ResultsMerge.merge(parts)
    try AtomicFile.createDirectory(for: out)
    try ResultsFile.write(rows, to: out)
    try writeStandardOutput("merged \(parts.count) part\(parts.count == 1 ? "" : "s"), \(rows.count) rows, into \(out)\n")
    return .success
  }
}
