import GraphQLLanguage
import NormalizedCache
import Results
import SQLiteCache
import Support
import Workloads

/// `cachebench normalize`: normalizes responses and prints the records (docs/command-line.md).
enum NormalizeCommand: Command {
  /// The options, each declared once: usage, help, validation and parsing come from here.
  enum Options {
    static let operation = Option<String>.repeatable(
      "operation", placeholder: "file",
      help: "A GraphQL document with the operation. Repeat with --response to merge several responses in order.")
    static let response = Option<String>.repeatable(
      "response", placeholder: "file", help: "The response: {\"data\": ...} or the data object itself.")
    static let at = Option<Int>.repeatable(
      "at", placeholder: "seconds",
      help:
        "The clock, in whole seconds (0 to \(NormalizeScript.latestSecond)): before --operation, the date of the writes that follow (default 0); after --read, the read's. Any --at or --read keeps a date per field.",
      expected: "whole seconds from 0 to \(NormalizeScript.latestSecond) (9999-12-31T23:59:59Z)", parse: { NormalizeScript.seconds($0) })
    static let schema = Option<String>.repeatable(
      "schema", placeholder: "file", help: "A schema or schema extension file (.graphqls), for types, key policies and @cacheControl.")
    static let document = Option<String>.repeatable(
      "document", placeholder: "file", help: "A GraphQL file with fragments the operations use.")
    static let variables = Option<String>.repeatable(
      "variables", placeholder: "file", help: "A JSON object of variables: once for every operation, or once per --operation.")
    static let operationName = Option<String>.repeatable(
      "operation-name", placeholder: "name", help: "The operation to use when a document has several.")
    static let keys = Option<KeyStrategyName?>(
      "keys", placeholder: "strategy",
      help: "How objects are keyed. Default: typePolicy (the path where the schema declares no policy), or programmatic with --resolver.")
    static let resolver = Option<String>(
      "resolver", placeholder: "name",
      help: "The programmatic key resolver: \(CacheKeyResolvers.builtIn.names.joined(separator: ", ")).", default: "id")
    static let store = Option<NormalizeStore>(
      "store", placeholder: "store", help: "The store the records go through; sqlite is a temporary file, removed afterwards.",
      default: .memory)
    static let layout = Option<SQLiteNormalizedCache.Layout>(
      "layout", placeholder: "layout", help: "The SQLite store's layout (with --store sqlite).", default: .compact)
    static let format = Option<RecordListing>("format", placeholder: "format", help: "Output format of the records.", default: .json)
    static let read = Option<String?>(
      "read", placeholder: "file",
      help:
        "After the writes, read this operation back and print the outcome as JSON (hit, stale or miss; data; expired and missing paths) instead of the records."
    )
    static let readVariables = Option<String?>(
      "read-variables", placeholder: "file", help: "A JSON object of variables for the --read operation.")
    static let readOperationName = Option<String?>(
      "read-operation-name", placeholder: "name", help: "The operation to read when the --read document has several.")
    static let ttl = Option<TTLEnforcement>(
      "ttl", placeholder: "mode", help: "How the read treats an expired field: strict (a miss) or permissive (stale data).",
      default: .strict)
  }

  static let spec = CommandSpec(
    name: "normalize",
    abstract: "Normalize responses into records and print them, or read an operation back at a time.",
    // Written out: the read's options group after --read, and the file placeholders say which
    // file; the choices come from the declarations.
    usage:
      "normalize [--at <seconds>] --operation <Q.graphql> --response <R.json> ... [--schema <F.graphqls> ...] [--document <F.graphql> ...] [--variables <V.json>] [--operation-name <name>] [--keys \(Options.keys.choices)] [--resolver <name>] [--store \(Options.store.choices)] [--layout \(Options.layout.choices)] [--format \(Options.format.choices)] [--read <Q.graphql> [--read-variables <V.json>] [--read-operation-name <name>] [--at <seconds>] [--ttl \(Options.ttl.choices)]]",
    options: [
      Options.operation, Options.response, Options.at, Options.schema, Options.document, Options.variables, Options.operationName,
      Options.keys, Options.resolver, Options.store, Options.layout, Options.format, Options.read, Options.readVariables,
      Options.readOperationName, Options.ttl,
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
    let script = try NormalizeScript(arguments)
    let variables = try perOperation(arguments, Options.variables, count: script.writes.count)
    let operationNames = try perOperation(arguments, Options.operationName, count: script.writes.count)
    let store = try arguments[Options.store]
    if arguments.isSet(Options.layout), store != .sqlite {
      throw UsageError(message: "--layout needs --store sqlite.", usage: spec.usage)
    }
    let strategy = try keyStrategy(arguments, resolvers: context.registry.resolvers)
    let schema = try Schema.load(try arguments.all(Options.schema))
    let format = try arguments[Options.format]
    let layout = try arguments[Options.layout]
    let documents = try arguments.all(Options.document)
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
      result = try CacheReader(cache: cache, useFieldPolicies: strategy.name != .path).read(plan, clock: read.clock)
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
  private static func perOperation(_ arguments: ParsedArguments, _ option: Option<String>, count: Int) throws -> [String?] {
    let values = try arguments.all(option)
    switch values.count {
    case 0: return Array(repeating: nil, count: count)
    case 1: return Array(repeating: values[0], count: count)
    case count: return values
    default:
      throw UsageError(
        message: "Give --\(option.name) once, or once per --operation (\(count)); got \(values.count).", usage: spec.usage)
    }
  }

  static func keyStrategy(_ arguments: ParsedArguments, resolvers: CacheKeyResolvers) throws -> KeyStrategy {
    let name = try arguments[Options.keys] ?? (arguments.isSet(Options.resolver) ? .programmatic : .typePolicy)
    switch name {
    case .path: return .path
    case .typePolicy: return .typePolicy
    case .programmatic:
      let resolverName = try arguments[Options.resolver]
      do {
        return .programmatic(try resolvers.resolver(named: resolverName))
      } catch {
        throw UsageError(message: error.description + ".", usage: spec.usage)
      }
    }
  }
}
