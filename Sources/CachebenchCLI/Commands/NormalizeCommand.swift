import GraphQLLanguage
import NormalizedCache
import Results
import SQLiteCache
import Workloads
import Support

/// `cachebench normalize`: normalizes responses and prints the records (docs/command-line.md).
enum NormalizeCommand: Command {
  static let spec = CommandSpec(
    name: "normalize",
    abstract: "Normalize responses into records and print them, or read an operation back at a time.",
    usage:
      "normalize [--at <seconds>] --operation <Q.graphql> --response <R.json> ... [--schema <F.graphqls> ...] [--document <F.graphql> ...] [--variables <V.json>] [--operation-name <name>] [--keys path|typePolicy|programmatic] [--resolver <name>] [--store memory|sqlite] [--layout \(SQLiteNormalizedCache.Layout.allCases.map(\.rawValue).joined(separator: "|"))] [--format json|entries] [--read <Q.graphql> [--read-variables <V.json>] [--read-operation-name <name>] [--at <seconds>] [--ttl strict|permissive]]",
    options: [
      OptionSpec(
        "operation", value: "file",
        help: "A GraphQL document with the operation. Repeat with --response to merge several responses in order.",
        repeatable: true),
      OptionSpec("response", value: "file", help: "The response: {\"data\": ...} or the data object itself.", repeatable: true),
      OptionSpec(
        "at", value: "seconds",
        help:
          "The clock, in whole seconds (0 to \(NormalizeScript.latestSecond)): before --operation, the date of the writes that follow (default 0); after --read, the read's. Any --at or --read keeps a date per field.",
        repeatable: true),
      OptionSpec(
        "schema", value: "file", help: "A schema or schema extension file (.graphqls), for types, key policies and @cacheControl.",
        repeatable: true),
      OptionSpec("document", value: "file", help: "A GraphQL file with fragments the operations use.", repeatable: true),
      OptionSpec(
        "variables", value: "file",
        help: "A JSON object of variables: once for every operation, or once per --operation.", repeatable: true),
      OptionSpec(
        "operation-name", value: "name", help: "The operation to use when a document has several.", repeatable: true),
      OptionSpec(
        "keys", value: "strategy",
        help: "How objects are keyed. Default: typePolicy (the path where the schema declares no policy), or programmatic with --resolver.",
        allowed: KeyStrategyName.allCases.map(\.rawValue)),
      OptionSpec(
        "resolver", value: "name",
        help: "The programmatic key resolver: \(CacheKeyResolvers.builtIn.names.joined(separator: ", ")). Default: id."),
      OptionSpec(
        "store", value: "store", help: "The store the records go through. Default: memory; sqlite is a temporary file, removed afterwards.",
        allowed: NormalizeStore.allCases.map(\.rawValue)),
      OptionSpec(
        "layout", value: "layout", help: "The SQLite store's layout (with --store sqlite). Default: compact.",
        allowed: SQLiteNormalizedCache.Layout.allCases.map(\.rawValue)),
      OptionSpec("format", value: "format", help: "Output format of the records. Default: json.", allowed: RecordListing.allCases.map(\.rawValue)),
      OptionSpec(
        "read", value: "file",
        help: "After the writes, read this operation back and print the outcome as JSON (hit, stale or miss; data; expired and missing paths) instead of the records."),
      OptionSpec("read-variables", value: "file", help: "A JSON object of variables for the --read operation."),
      OptionSpec("read-operation-name", value: "name", help: "The operation to read when the --read document has several."),
      OptionSpec(
        "ttl", value: "mode", help: "How the read treats an expired field: strict (a miss) or permissive (stale data). Default: strict.",
        allowed: TTLEnforcement.allCases.map(\.rawValue)),
    ],
    discussion: """
      EXAMPLES:
        cachebench normalize --operation GetFavoriteBook.graphql --response favoriteBook.json --format entries
        cachebench normalize --schema schema.graphqls --schema extensions.graphqls --keys typePolicy \\
          --operation A.graphql --response a.json --operation B.graphql --response b.json
        Write a book at second 1000 and its title again at 1050, then read the book at 1070, when its
        price (maxAge 10) has expired and its title (maxAge 60, refreshed) has not (docs/ttl.md):
        cachebench normalize --schema schema.graphqls --at 1000 --operation Book.graphql --response book.json \\
          --at 1050 --operation BookTitle.graphql --response bookTitle.json \\
          --read Book.graphql --at 1070 --ttl permissive
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    let script = try NormalizeScript(arguments, usage: spec.usage)
    let variables = try perOperation(arguments.values("variables"), count: script.writes.count, option: "variables")
    let operationNames = try perOperation(arguments.values("operation-name"), count: script.writes.count, option: "operation-name")
    if arguments.has("layout"), arguments.value("store") != NormalizeStore.sqlite.rawValue {
      throw UsageError(message: "--layout needs --store sqlite.", usage: spec.usage)
    }
    let strategy = try keyStrategy(arguments, resolvers: context.registry.resolvers)
    let schema = try Schema.load(arguments.values("schema"))
    let format = arguments.value("format").flatMap(RecordListing.init(rawValue:)) ?? .json
    let store = arguments.value("store").flatMap(NormalizeStore.init(rawValue:)) ?? .memory
    let layout = arguments.value("layout").flatMap(SQLiteNormalizedCache.Layout.init(rawValue:)) ?? .compact
    let documents = arguments.values("document")
    let output = try store.withStore(layout: layout) { cache in
      var keys: [CacheKey] = []
      var seen: Set<CacheKey> = []
      for (index, write) in script.writes.enumerated() {
        let operation = RecordedOperation(
          documents: [write.operation] + documents, operationName: operationNames[index],
          variables: try variables[index].map(variableValues) ?? [:], response: write.response)
        let records = try normalize(operation, schema: schema, strategy: strategy, writtenAt: script.isDated ? write.writtenAt : nil)
        for key in records.keys where seen.insert(key).inserted { keys.append(key) }
        try cache.merge(records: records)
      }
      guard let read = script.read else {
        return format.render(RecordSet(records: try cache.loadRecordsInOrder(forKeys: keys).compactMap { $0 }))
      }
      return try outcome(of: read, documents: documents, schema: schema, strategy: strategy, cache: cache)
    }
    try writeStandardOutput(output)
    return .success
  }

  /// The records of one response, dated `writtenAt` (none without).
  private static func normalize(
    _ operation: RecordedOperation, schema: Schema, strategy: KeyStrategy, writtenAt: Int?
  ) throws -> RecordSet {
    let loaded = try operation.load(schema: schema)
    do {
      return try Normalizer(strategy: strategy).normalize(loaded.response, plan: loaded.plan, writtenAt: writtenAt).records
    } catch {
      throw InputDataError(file: operation.response, message: "\(error)")
    }
  }

  /// The read's outcome as JSON (docs/ttl.md#reads-with-a-clock).
  private static func outcome(
    of read: NormalizeScript.Read, documents: [String], schema: Schema, strategy: KeyStrategy, cache: any NormalizedCache
  ) throws -> String {
    let plan = try RecordedOperation.plan(
      documents: [read.operation] + documents, operationName: read.operationName,
      variables: try read.variables.map(variableValues) ?? [:], schema: schema)
    let result: ReadResult
    do {
      // Field policies as the workbench reads: on, except under path keys (which key no object
      // by its arguments).
      result = try CacheReader(cache: cache, useFieldPolicies: strategy.name != .path).read(plan, at: read.at, ttl: read.ttl)
    } catch let error as NormalizationError {
      // A variable of the read that a field policy cannot use: the read's operation is at fault.
      throw InputDataError(file: read.operation, message: "\(error)")
    }
    return JSONWriter.string(.object(result.outcomeJSON), style: .pretty(sortedKeys: false)) + "\n"
  }

  /// The variables in a JSON file.
  private static func variableValues(_ path: String) throws -> JSONObject {
    guard case .object(let object) = try InputFile.json(path) else {
      throw InputDataError(file: path, message: "variables must be a JSON object")
    }
    return object
  }

  /// An option given never, once (for every operation), or once per operation.
  private static func perOperation(_ values: [String], count: Int, option: String) throws -> [String?] {
    switch values.count {
    case 0: return Array(repeating: nil, count: count)
    case 1: return Array(repeating: values[0], count: count)
    case count: return values
    default:
      throw UsageError(
        message: "Give --\(option) once, or once per --operation (\(count)); got \(values.count).", usage: spec.usage)
    }
  }

  static func keyStrategy(_ arguments: ParsedArguments, resolvers: CacheKeyResolvers) throws -> KeyStrategy {
    let resolverName = arguments.value("resolver")
    let name = arguments.value("keys").flatMap(KeyStrategyName.init(rawValue:)) ?? (resolverName == nil ? .typePolicy : .programmatic)
    switch name {
    case .path: return .path
    case .typePolicy: return .typePolicy
    case .programmatic:
      do {
        return .programmatic(try resolvers.resolver(named: resolverName ?? "id"))
      } catch {
        throw UsageError(message: error.description + ".", usage: spec.usage)
      }
    }
  }
}
