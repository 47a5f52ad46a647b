// Commands whose implementation lands with the workbench.
enum RunCommand: Command {
  static let spec = CommandSpec(name: "run", abstract: "Run workloads and write their metrics as CSV.", usage: "run <workload>... [--out FILE.csv] [--samples FILE.csv] [--quick]", options: [], positionalName: "<workload>", positionalHelp: "Workload files.", minimumPositionals: 1, maximumPositionals: 100)
  static func run(_ arguments: ParsedArguments) throws -> ExitCode { throw CommandError("not implemented yet", .failure) }
}
enum GenerateCommand: Command {
  static let spec = CommandSpec(name: "generate", abstract: "Write a synthetic workload's files.", usage: "generate <workload> --out <dir>", options: [])
  static func run(_ arguments: ParsedArguments) throws -> ExitCode { throw CommandError("not implemented yet", .failure) }
}
enum CompareCommand: Command {
  static let spec = CommandSpec(name: "compare", abstract: "Compare two result CSVs and fail on a regression.", usage: "compare <baseline.csv> <current.csv> [--threshold PCT] [--out FILE.csv]", options: [])
  static func run(_ arguments: ParsedArguments) throws -> ExitCode { throw CommandError("not implemented yet", .failure) }
}
enum ValidateCommand: Command {
  static let spec = CommandSpec(name: "validate", abstract: "Check workload files without running them.", usage: "validate <workload>...", options: [])
  static func run(_ arguments: ParsedArguments) throws -> ExitCode { throw CommandError("not implemented yet", .failure) }
}
