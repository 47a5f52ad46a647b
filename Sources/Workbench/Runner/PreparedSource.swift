import GraphQLLanguage
import NormalizedCache

/// One response of a workload, parsed, with the plan of its operation.
final class ResponseItem {
  /// Where it came from, for messages: a file name, or `response 12` for a synthetic one.
  let label: String
  let plan: OperationPlan
  let response: JSONValue
  let bytes: Int
  /// The selected data, what a read-back must equal; computed once, on first use.
  private var selectedData: JSONObject?

  init(label: String, plan: OperationPlan, response: JSONValue, bytes: Int) {
    self.label = label
    self.plan = plan
    self.response = response
    self.bytes = bytes
  }

  func expectedReadBack() throws -> JSONObject {
    if let selectedData { return selectedData }
    let projected = try ResponseProjection.selectedData(of: response, plan: plan)
    selectedData = projected
    return projected
  }
}

/// A workload variant's schema and responses, parsed once and shared by every store and strategy.
final class PreparedSource {
  let schema: Schema
  let items: [ResponseItem]

  init(schema: Schema, items: [ResponseItem]) {
    self.schema = schema
    self.items = items
  }

  var responseBytes: Int { items.reduce(0) { $0 + $1.bytes } }

  /// Synthesizes and parses a generator's responses, as a recorded workload's would be.
  static func generated(seed: UInt64, config: GeneratorConfig, progress: Progress) throws -> PreparedSource {
    let synthetic = try Generator.make(seed: seed, config: config)
    let schema = try Schema(parsing: [
      Source(name: "schema.graphqls", text: synthetic.schemaSDL),
      Source(name: "extensions.graphqls", text: synthetic.extensionsSDL),
    ])
    var documents: [String: ExecutableDocument] = [:]
    for operation in synthetic.operations {
      documents[operation.name] = try ExecutableDocument(parsing: [Source(name: operation.fileName, text: operation.documentText)])
    }
    var items: [ResponseItem] = []
    items.reserveCapacity(synthetic.responseCount)
    for index in 0..<synthetic.responseCount {
      progress.update("generating responses \(index + 1)/\(synthetic.responseCount)")
      let response = synthetic.response(at: index)
      let label = "response \(index) (\(response.operationName))"
      guard let document = documents[response.operationName] else {
        throw RunError("\(label): the generator made no operation \(response.operationName)")
      }
      let plan = try OperationPlan(document: document, operationName: response.operationName, schema: schema, variables: response.variables)
      let json = try JSONParser.parse(response.bytes, file: label)
      items.append(ResponseItem(label: label, plan: plan, response: json, bytes: response.bytes.count))
    }
    return PreparedSource(schema: schema, items: items)
  }

  /// Reads a recorded workload's schema, operations and responses.
  static func recorded(_ source: RecordedSource, progress: Progress) throws -> PreparedSource {
    var schemaSources: [Source] = []
    for path in source.schema { schemaSources.append(try InputFile.source(path)) }
    let schema = try Schema(parsing: schemaSources)
    var items: [ResponseItem] = []
    for (index, operation) in source.operations.enumerated() {
      progress.update("reading responses \(index + 1)/\(source.operations.count)")
      var documentSources: [Source] = []
      for path in operation.documents { documentSources.append(try InputFile.source(path)) }
      let document = try ExecutableDocument(parsing: documentSources)
      let plan: OperationPlan
      do {
        plan = try OperationPlan(document: document, operationName: operation.operationName, schema: schema, variables: operation.variables)
      } catch let error as NormalizationError {
        throw RunError("\(operation.documents[0]): \(error)", exitCode: 65)
      }
      let bytes = try InputFile.bytes(operation.response)
      let json = try JSONParser.parse(bytes, file: operation.response)
      items.append(ResponseItem(label: operation.response, plan: plan, response: json, bytes: bytes.count))
    }
    return PreparedSource(schema: schema, items: items)
  }
}

/// A failure while running a workload: a read-back that does not match, a response that does not
/// fit its operation. Exit code 1 unless it says otherwise.
public struct RunError: Error, Sendable, CustomStringConvertible, ExitCodeCarrying {
  public let message: String
  public let exitCodeValue: Int32

  public init(_ message: String, exitCode: Int32 = 1) {
    self.message = message
    self.exitCodeValue = exitCode
  }

  public var description: String { message }
}
