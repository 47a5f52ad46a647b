import GraphQLLanguage
import NormalizedCache
import Results
import Workloads

/// `cachebench normalize`: normalizes responses and prints the records (docs/command-line.md).
enum NormalizeCommand: Command {
  static let spec = CommandSpec(
    name: "normalize",
    abstract: "Normalize responses into records and print them.",
    usage:
      "normalize --operation <Q.graphql> --response <R.json> [--schema <F.graphqls> ...] [--document <F.graphql> ...] [--variables <V.json>] [--operation-name <name>] [--keys path|typePolicy|programmatic] [--resolver <name>] [--format json|entries]",
    options: [
      OptionSpec(
        "operation", value: "file",
        help: "A GraphQL document with the operation. Repeat with --response to merge several responses in order.",
        repeatable: true),
      OptionSpec("response", value: "file", help: "The response: {\"data\": ...} or the data object itself.", repeatable: true),
      OptionSpec(
        "schema", value: "file", help: "A schema or schema extension file (.graphqls), for types and key policies.",
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
      OptionSpec("format", value: "format", help: "Output format. Default: json.", allowed: RecordListing.allCases.map(\.rawValue)),
    ],
    discussion: """
      EXAMPLES:
        cachebench normalize --operation GetFavoriteBook.graphql --response favoriteBook.json --format entries
        cachebench normalize --schema schema.graphqls --schema extensions.graphqls --keys typePolicy \\
          --operation A.graphql --response a.json --operation B.graphql --response b.json
      """)

  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    let operations = arguments.values("operation")
    let responses = arguments.values("response")
    guard !operations.isEmpty else {
      throw UsageError(message: "Missing expected option '--operation <file>'.", usage: spec.usage)
    }
    guard operations.count == responses.count else {
      throw UsageError(
        message: "Give one --response per --operation (got \(operations.count) operations and \(responses.count) responses).",
        usage: spec.usage)
    }
    let variables = try perOperation(arguments.values("variables"), count: operations.count, option: "variables")
    let operationNames = try perOperation(arguments.values("operation-name"), count: operations.count, option: "operation-name")
    let strategy = try keyStrategy(arguments, resolvers: context.registry.resolvers)
    let schema = try Schema.load(arguments.values("schema"))
    let format = arguments.value("format").flatMap(RecordListing.init(rawValue:)) ?? .json

    var records = RecordSet()
    for (index, operationPath) in operations.enumerated() {
      let operation = RecordedOperation(
        documents: [operationPath] + arguments.values("document"), operationName: operationNames[index],
        variables: try variables[index].map(variableValues) ?? [:], response: responses[index])
      let loaded = try operation.load(schema: schema)
      do {
        records.merge(records: try Normalizer(strategy: strategy).normalize(loaded.response, plan: loaded.plan).records)
      } catch {
        throw InputDataError(file: operation.response, message: "\(error)")
      }
    }
    try writeStandardOutput(format.render(records))
    return .success
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
