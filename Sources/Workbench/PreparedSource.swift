import Generator
import GraphQLLanguage
import NormalizedCache
import Workloads

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
    let schema = try source.loadSchema()
    var items: [ResponseItem] = []
    for (index, operation) in source.operations.enumerated() {
      progress.update("reading responses \(index + 1)/\(source.operations.count)")
      let loaded = try operation.load(schema: schema)
      items.append(
        ResponseItem(label: operation.response, plan: loaded.plan, response: loaded.response, bytes: loaded.responseBytes))
    }
    return PreparedSource(schema: schema, items: items)
  }
}
