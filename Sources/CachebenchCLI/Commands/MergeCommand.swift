import Results
import Support
import Workbench
import Workloads

/// `cachebench merge`: the parts of a run split across machines, joined.
enum MergeCommand: Command {
  /// The options, each declared once: usage, help, validation and parsing come from here.
  enum Options {
    static let workload = Option<String>.required(
      "workload", placeholder: "FILE.json", help: "The workload the parts ran: which configurations the whole run has, in its order.")
    static let out = Option<String>.required("out", placeholder: "FILE.csv", help: "Where to write the whole run's CSV (atomically).")
  }

  static let spec = CommandSpec(
    name: "merge",
    abstract: "Join the parts of a run split with 'run --shard K/N' into the CSV of the whole run.",
    options: [Options.workload, Options.out],
    positionalName: "<PART.csv>", positionalHelp: "The parts, in any order: one for each K of one N.",
    minimumPositionals: 1, maximumPositionals: 10_000,
    discussion: """
      Checks that the parts are one run's (one workload, seed and build; one N, each K once) and
      that together they hold every configuration of the workload, each in its shard's part, in
      the run's order: a part that lost a configuration, or holds one it should not, is refused
      and named. A configuration must also be whole where the rows tell: the concurrency phase's
      rows for each of the workload's reader counts, alike, and a row against its limit store for
      each timing both have; a part that lacks one is refused, naming the configuration and the
      row. A part ends with a row per configuration counting its rows: a part cut at a line end,
      or that lost a row, is refused with the line. Writes the rows in the order the unsplit run writes them: its deterministic rows are
      the unsplit run's. Every row takes shard 1's run ID (without -shardKofN) and timestamp, and
      keeps its host.

      Exit codes: 0 success, 64 wrong usage, 65 parts that are not one run's or do not cover the
      workload, or a workload that does not load, 66 a missing file, 74 an output that cannot be
      written.

      EXAMPLE:
        cachebench merge part-1.csv part-2.csv part-3.csv --workload Workloads/default.json --out results/runs/default.csv
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    let out = try arguments[Options.out]
    let workloadPath = try arguments[Options.workload]
    var outputs = OutputFiles()
    outputs.add("'--out'", out)
    for path in arguments.positionals { outputs.addInput("the part '\(path)'", path) }
    outputs.addInput("'--workload'", workloadPath)
    try outputs.checkDistinct(usage: spec.usage)
    try AtomicFile.checkWritable(out)
    let workload = try Workload.load(workloadPath, registry: context.registry)
    let configurations = try ConfigurationSequence(workload).ids
    var parts: [ResultsMerge.Part] = []
    for path in arguments.positionals {
      let part = ResultsMerge.Part(name: path, rows: try ResultsFile.readMetricRows(from: path))
      if let other = part.rows.first(where: { $0.key.workload != workload.name }) {
        throw MergeError.notOneRun("\(path) is of the workload \(other.key.workload), \(workloadPath) is \(workload.name)")
      }
      parts.append(part)
    }
    let stores = workload.variants.flatMap(\.stores)
    let expectations = ResultsMerge.Expectations(
      limits: Dictionary(stores.compactMap { store in store.limit.map { (store.label, $0.label) } }) { first, _ in first },
      readers: workload.concurrency?.readers ?? [],
      concurrentStores: workload.concurrency == nil ? [] : Set(stores.filter { !$0.isLimit }.map(\.label)))
    let rows = try ResultsMerge.merge(parts, configurations: configurations, expecting: expectations)
    try AtomicFile.createDirectory(for: out)
    try ResultsFile.write(rows, to: out)
    try writeStandardOutput("merged \(parts.count) part\(parts.count == 1 ? "" : "s"), \(rows.count) rows, into \(out)\n")
    return .success
  }
}
