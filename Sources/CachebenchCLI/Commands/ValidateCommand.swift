import Generator
import Support
import Workbench
import Workloads

/// `cachebench validate`: checks workload files without running them.
enum ValidateCommand: Command {
  static let spec = CommandSpec(
    name: "validate",
    abstract: "Check workload files without running them.",
    options: [Flag.allowLarge],
    positionalName: "<workload>", positionalHelp: "Workload files.", minimumPositionals: 1, maximumPositionals: 1_000,
    discussion: """
      Checks every key, type and range, and for a recorded workload that every schema, operation and
      response file exists, parses, and fits together. A workload with bounded stores has its
      responses made and written into each bounded store, as run does before it measures: a budget
      smaller than one record, or than the records that are never evicted, is refused here as run
      would refuse it. Stops at the first error.
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    for path in arguments.positionals {
      let workload = try Workload.load(path, registry: context.registry)
      for warning in workload.warnings { writeStandardError("Warning: \(warning)\n") }
      try WorkloadChecker.check(workload, allowLarge: arguments[Flag.allowLarge])
      try Preflight.check(workload)
      let variants = workload.variants.count
      var strategies = workload.keys.count
      if workload.source.noOperations != nil { strategies = 1 }
      let configurations = variants * workload.stores.count * strategies
      // Two limit stores, or with "layouts" the dictionary and a floor per SQLite layout and mode.
      let limitStores = workload.measuredStores.filter(\.isLimit).count
      let limits = limitStores > 0 ? ", and \(variants * limitStores * strategies) of the limit stores" : ""
      var estimate = ""
      if case .generator(let config) = workload.source { estimate = "; \(config.estimate)" }
      try writeStandardOutput(
        "\(path): ok (\(workload.name), \(workload.source.kindName), \(configurations) configuration\(configurations == 1 ? "" : "s")\(limits)\(estimate))\n"
      )
    }
    return .success
  }
}
