import Foundation
import Results

/// `cachebench <command>`: the workbench's command line (SPEC §7).
struct CommandEntry {
  let spec: CommandSpec
  let run: (ParsedArguments) throws -> ExitCode

  init<C: Command>(_ command: C.Type) {
    spec = C.spec
    run = C.run
  }
}

let commands = [
  CommandEntry(RunCommand.self), CommandEntry(GenerateCommand.self), CommandEntry(NormalizeCommand.self),
  CommandEntry(CompareCommand.self), CommandEntry(ABCommand.self), CommandEntry(ValidateCommand.self),
]

let overview = """
  OVERVIEW: A benchmark and profiling workbench for GraphQL normalized caches.

  USAGE: cachebench <command> [options]

  COMMANDS:
  \(commands.map { CommandSpec.row($0.spec.name, $0.spec.abstract) }.joined(separator: "\n"))

    See 'cachebench <command> --help' for a command's options.

  """

@MainActor
func main() -> ExitCode {
  var arguments = Array(CommandLine.arguments.dropFirst())
  guard let name = arguments.first else {
    writeStandardError(overview)
    return .usage
  }
  arguments.removeFirst()
  if name == "--help" || name == "-h" || name == "help" {
    writeStandardOutput(overview)
    return .success
  }
  guard let command = commands.first(where: { $0.spec.name == name }) else {
    var message = "Unknown command '\(name)'."
    if let suggestion = ParsedArguments.nearest(to: name, in: commands.map(\.spec.name)) {
      message += " Did you mean '\(suggestion)'?"
    }
    return Reporter.report(UsageError(message: message, usage: "<command> [options]"), usage: "<command> [options]")
  }
  do {
    let parsed = try ParsedArguments(arguments, spec: command.spec)
    if parsed.has("help") {
      writeStandardOutput(command.spec.help)
      return .success
    }
    return try command.run(parsed)
  } catch {
    return Reporter.report(error, usage: command.spec.usage)
  }
}

main().exit()
