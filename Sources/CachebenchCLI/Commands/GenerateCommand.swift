import Foundation
import Generator
import Results
import Workloads

/// `cachebench generate`: writes a synthetic workload's files, replayable as a recorded workload.
enum GenerateCommand: Command {
  /// The options, each declared once: usage, help, validation and parsing come from here.
  enum Options {
    static let out = Option<String>.required("out", placeholder: "DIR", help: "The directory to write into (created if missing).")
  }

  static let spec = CommandSpec(
    name: "generate",
    abstract: "Write a synthetic workload's schema, operations and responses as files.",
    options: [Options.out, Flag.allowLarge],
    positionalName: "<workload>", positionalHelp: "A workload file with a \"generator\" section.", minimumPositionals: 1,
    maximumPositionals: 1,
    discussion: """
      Writes schema.graphqls, extensions.graphqls, operations/*.graphql, responses/*.json and
      workload.json, a recorded workload that replays them: `cachebench run DIR/workload.json`.
      A sweep is ignored: the files are those of the workload's own knobs.
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    let out = try arguments[Options.out]
    let workload = try Workload.load(arguments.positionals[0], registry: context.registry)
    guard case .generator(let config) = workload.source else {
      throw CommandError("\(workload.file): generate needs a workload with a \"generator\" section, not \"\(workload.source.kindName)\"", .dataError)
    }
    try WorkloadChecker.check(workload, allowLarge: arguments[Flag.allowLarge])
    let synthetic = try Generator.make(seed: workload.seed, config: config)
    try synthetic.write(to: URL(fileURLWithPath: out), name: workload.name + "-recorded")
    try writeStandardOutput("wrote \(synthetic.responseCount) responses of \(synthetic.operations.count) operations to \(out); replay with: cachebench run \(out)/workload.json\n")
    return .success
  }
}
