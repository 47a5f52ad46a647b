import Foundation
import Results
import Workbench
import Workloads

/// `cachebench worker`: one side of `ab --paired`, performing timed steps on request
/// (``WorkerProtocol``).
enum WorkerCommand: Command {
  static let spec = CommandSpec(
    name: "worker",
    abstract: "Load a workload once and time single steps on request, for 'ab --paired' (a protocol on stdin/stdout).",
    usage: "worker <workload> [--quick]",
    options: [OptionSpec("quick", help: "Shrink the workload as run --quick does.")],
    positionalName: "<workload>", positionalHelp: "A workload file, as for run.", minimumPositionals: 1,
    maximumPositionals: 1,
    discussion: """
      Reads one request per line on standard input and answers each on standard output:
        hello                      -> cachebench-worker <protocol> <version>
        prepare                    -> ready <workload> <seed> <rows>, then one 'row' line per row
        step <row> <index> <count> -> ns <nanoseconds>
        quit
      (fields separated by tabs). Every configuration (variant x cache store x key strategy) gives
      three rows: merge (response i, alternately as written and as refetched with a quarter of its
      values changed), read (operation i) and lookup (the i-th written key in a seeded order).

      CACHEBENCH_INJECT_SLOWDOWN=STORE:STEP:FRACTION (such as memory:merge:0.05) makes the matching
      steps that much slower, to check the paired verdicts; off when unset or empty.

      Exit codes: 0 after quit or at the end of input, 1 a step that failed, 64 wrong usage,
      65 a bad workload.
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    let setting = ProcessInfo.processInfo.environment[InjectedSlowdown.variable].flatMap { $0.isEmpty ? nil : $0 }
    let slowdown = try setting.map(InjectedSlowdown.init(parsing:))
    var worker: StepWorker?
    while let request = readLine() {
      let fields = request.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      do {
        switch fields.first {
        case "hello":
          try reply(["cachebench-worker", String(WorkerProtocol.version), CachebenchVersion.number])
        case "prepare":
          let workload = try Workload.load(arguments.positionals[0], registry: context.registry)
          try WorkloadChecker.check(arguments.has("quick") ? workload.quick() : workload, allowLarge: false)
          let prepared = try StepWorker(workload: workload, quick: arguments.has("quick"), slowdown: slowdown)
          var text = WorkerProtocol.line(["ready", prepared.workload.name, String(prepared.workload.seed), String(prepared.rows.count)])
          for row in prepared.rows { text += WorkerProtocol.rowLine(row) }
          try writeStandardOutput(text)
          worker = prepared
        case "step":
          guard let worker else { throw CommandError("'step' before 'prepare'", .usage) }
          guard fields.count == 4, let row = Int(fields[1]), let index = Int(fields[2]), let count = Int(fields[3]) else {
            throw CommandError("expected 'step<TAB>row<TAB>index<TAB>count', got '\(request)'", .usage)
          }
          try reply(["ns", String(try worker.step(row: row, index: index, count: count))])
        case "quit":
          return .success
        default:
          throw CommandError("unknown request '\(request)'; expected hello, prepare, step or quit", .usage)
        }
      } catch {
        // The coordinator reads the message; a person running the worker by hand sees it too.
        try? writeStandardOutput(WorkerProtocol.line(["error", Reporter.message(for: error)]))
        throw error
      }
    }
    return .success
  }

  private static func reply(_ fields: [String]) throws {
    try writeStandardOutput(WorkerProtocol.line(fields))
  }
}
