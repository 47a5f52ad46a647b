import Foundation
import Results
import Support
import Workbench
import Workloads

/// `cachebench worker`: one side of `ab --paired`, performing timed steps on request
/// (``WorkerProtocol``).
enum WorkerCommand: Command {
  /// `--quick`, its one option.
  static let quick = Flag("quick", help: "Shrink the workload as run --quick does.")

  static let spec = CommandSpec(
    name: "worker",
    abstract: "Load a workload once and time single steps on request, for 'ab --paired' (a protocol on stdin/stdout).",
    options: [quick],
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
    // The workload first: a missing or bad one is an error whatever the input holds.
    let quick = arguments[Self.quick]
    let workload = try Workload.load(arguments.positionals[0], registry: context.registry)
    try WorkloadChecker.check(quick ? workload.quick() : workload, allowLarge: false)
    try checkSteppable(workload, path: arguments.positionals[0], hint: "a worker steps merges and reads of responses")
    var requests = LineReader(descriptor: STDIN_FILENO, maximumBytes: WorkerProtocol.maximumLineBytes)
    var worker: StepWorker?
    while true {
      do {
        guard let line = try nextRequest(&requests) else { return .success }
        switch try request(line) {
        case .hello:
          try reply(.hello(protocolVersion: WorkerProtocol.version, build: CachebenchVersion.number))
        case .prepare:
          let prepared = try StepWorker(workload: workload, quick: quick, slowdown: slowdown)
          var text = WorkerProtocol.Reply.ready(workload: prepared.workload.name, seed: prepared.workload.seed, rows: prepared.rows.count)
            .line
          for row in prepared.rows { text += WorkerProtocol.Reply.row(row).line }
          try writeStandardOutput(text)
          worker = prepared
        case .step(let row, let index, let count):
          guard let worker else { throw CommandError("'step' before 'prepare'", .usage) }
          try reply(.nanoseconds(try worker.step(row: row, index: index, count: count)))
        case .quit:
          return .success
        }
      } catch {
        // The coordinator reads the message; a person running the worker by hand sees it too.
        try? writeStandardOutput(WorkerProtocol.Reply.error(Reporter.message(for: error)).line)
        throw error
      }
    }
  }

  /// A workload without responses (store records, Apollo's Tier-2 scenarios, lists) has no
  /// merge or read to step: 65, naming the file and its kind, before any request is read (it
  /// used to say "no row 0: rows 0 to -1" at the first step).
  static func checkSteppable(_ workload: Workload, path: String, hint: String) throws {
    guard workload.source.noOperations != nil else { return }
    throw CommandError(
      "\(path) is a \(workload.source.kindName) workload: it has no responses to merge and read step by step; \(hint)", .dataError)
  }

  /// The next request's line; nil at the end of the input. A line past the protocol's limit is a
  /// usage error, found without reading the rest of it.
  private static func nextRequest(_ requests: inout LineReader) throws -> String? {
    do {
      return try requests.next()
    } catch .tooLong(let limit) {
      throw CommandError("a request line is longer than \(limit) bytes, the worker protocol's limit", .usage)
    } catch .readFailed(let code) {
      throw CommandError("cannot read standard input: \(String(cString: strerror(code)))", .failure)
    } catch .timedOut {
      preconditionFailure("a read without a deadline timed out")
    }
  }

  private static func request(_ line: String) throws -> WorkerProtocol.Request {
    do {
      return try WorkerProtocol.Request(line: line)
    } catch {
      throw CommandError(error.description, .usage)
    }
  }

  private static func reply(_ reply: WorkerProtocol.Reply) throws {
    try writeStandardOutput(reply.line)
  }
}
