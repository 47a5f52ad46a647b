import Foundation
import Generator
import Support
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
    // An empty path is no directory: the files went into the current one.
    if out.isEmpty {
      throw UsageError(message: "The value '' is invalid for '--out'; expected a directory.", usage: spec.usage)
    }
    var outputs = OutputFiles()
    outputs.addDirectory("'--out'", out)
    outputs.addInput("the workload", arguments.positionals[0])
    try outputs.checkDistinct(usage: spec.usage)
    let workload = try Workload.load(arguments.positionals[0], registry: context.registry)
    guard case .generator(let config) = workload.source else {
      throw CommandError(
        "\(workload.file): generate needs a workload with a \"generator\" section, not \"\(workload.source.kindName)\"", .dataError)
    }
    try WorkloadChecker.check(workload, allowLarge: arguments[Flag.allowLarge])
    let synthetic = try Generator.make(seed: workload.seed, config: config)
    try synthetic.write(to: URL(fileURLWithPath: out), name: workload.name + "-recorded")
    let replay = shellWord((out as NSString).appendingPathComponent("workload.json"))
    try writeStandardOutput(
      "wrote \(synthetic.responseCount) responses of \(synthetic.operations.count) operations to \(out); replay with: cachebench run \(replay)\n"
    )
    return .success
  }

  /// `path` as one shell word that `run` reads as a path: quoted when it holds anything but
  /// letters, digits and `/._-+,:@%=`, and after `./` when it starts with `-` (an option otherwise).
  private static let plainCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%=".unicodeScalars)

  static func shellWord(_ path: String) -> String {
    let word = path.hasPrefix("-") ? "./" + path : path
    let plain = word.unicodeScalars.allSatisfy { plainCharacters.contains($0) }
    return plain ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
