import Foundation
import Results
import Support
import Workloads

/// `cachebench <command>`: the workbench's whole command line (docs/command-line.md), callable as a
/// function so that a package of your own can run it with your key resolvers and field-policy
/// providers, the way package-benchmark users write benchmark targets:
///
/// ```swift
/// // Sources/my-cachebench/main.swift, in a package that depends on cachebench
/// import CachebenchCLI
/// import NormalizedCache
/// import Workloads
///
/// var registry = Registry.builtIn
/// registry.resolvers.register("sku") { type, object in
///   type.name == "Product" ? object.string("sku").map { CacheKeyInfo(id: $0) } : nil
/// }
/// exit(Cachebench.main(registry: registry))   // `swift run my-cachebench run Workloads/shop.json`
/// ```
public enum Cachebench {
  /// Runs one command line: `arguments` as `CommandLine.arguments` gives them (the program's name
  /// first). Errors are reported on stderr; returns the exit code of docs/command-line.md.
  @MainActor
  public static func main(_ arguments: [String] = CommandLine.arguments, registry: Registry = .builtIn) -> Int32 {
    if arguments == CommandLine.arguments, let position = firstArgumentNotUTF8() {
      // Swift decodes such an argument with U+FFFD in place of the bad bytes: a path would name
      // another file than the one given. Refused before anything is read or written.
      return Reporter.report(
        UsageError(
          message:
            "argument \(position) ('\(arguments[position])') is not UTF-8 text; cachebench takes paths and values as UTF-8: rename the file",
          usage: "<command> [options]"),
        usage: "<command> [options]"
      ).rawValue
    }
    return cachebenchMain(Array(arguments.dropFirst()), context: CommandContext(registry: registry)).rawValue
  }

  /// The position of the first argument of the process's own command line whose bytes are not
  /// UTF-8, or nil.
  static func firstArgumentNotUTF8() -> Int? {
    (1..<Int(CommandLine.argc)).first { index in
      CommandLine.unsafeArgv[index].map { String(validatingCString: $0) == nil } ?? false
    }
  }
}

struct CommandEntry {
  let spec: CommandSpec
  let run: (ParsedArguments, CommandContext) throws -> ExitCode

  init<C: Command>(_ command: C.Type) {
    spec = C.spec
    run = C.run
  }
}

@MainActor let commands = [
  CommandEntry(RunCommand.self), CommandEntry(GenerateCommand.self), CommandEntry(NormalizeCommand.self),
  CommandEntry(CompareCommand.self), CommandEntry(ThresholdsCommand.self), CommandEntry(ABCommand.self),
  CommandEntry(ValidateCommand.self),
  CommandEntry(ExportCommand.self), CommandEntry(MergeCommand.self), CommandEntry(ReportCommand.self),
  CommandEntry(WorkerCommand.self), CommandEntry(SoakCommand.self),
]

@MainActor let overview = """
  OVERVIEW: A benchmark and profiling workbench for GraphQL normalized caches.

  USAGE: cachebench <command> [options]

  COMMANDS:
  \(commands.map { CommandSpec.row($0.spec.name, $0.spec.abstract) }.joined(separator: "\n"))

    See 'cachebench <command> --help' for a command's options; 'cachebench --version' for the version.

  """

@MainActor
func cachebenchMain(_ arguments: [String], context: CommandContext) -> ExitCode {
  var arguments = arguments
  guard let name = arguments.first else {
    writeStandardError(overview)
    return .usage
  }
  arguments.removeFirst()
  if name == "--version" || name == "-V" || name == "version" {
    if let extra = arguments.first {
      let message = extra.hasPrefix("-") && extra != "-" ? "Unknown option '\(extra)'." : "Unexpected argument '\(extra)'."
      return Reporter.report(UsageError(message: message + " 'version' takes none.", usage: "version"), usage: "version")
    }
    do {
      try writeStandardOutput(
        "cachebench \(CachebenchVersion.number)\ngit revision: \(RunInfo.gitRevision()) (of the current directory, as 'run' records it)\n"
          + "built with: \(CachebenchVersion.toolchain)\n")
    } catch {
      return Reporter.report(error, usage: nil)
    }
    return .success
  }
  if name == "--help" || name == "-h" || name == "help" {
    do {
      try writeStandardOutput(overview)
    } catch {
      return Reporter.report(error, usage: nil)
    }
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
    if parsed[Flag.help] {
      try writeStandardOutput(command.spec.help)
      return .success
    }
    return try command.run(parsed, context)
  } catch {
    return Reporter.report(error, usage: command.spec.usage)
  }
}
