import Foundation
import Generator
import GraphQLLanguage
import NormalizedCache
import Results
import Support
import Workloads

/// One response of a workload, with the plan of its operation.
///
/// The response's JSON is made again at each ``json()`` (generated, or read) unless the source is
/// small enough to keep them all, JSON and parsed: a run then holds one response at a time, and
/// its memory does not grow with their count.
final class ResponseItem {
  /// Where it came from, for messages: a file name, or `response 12` for a synthetic one.
  let label: String
  let plan: OperationPlan
  /// The size of its JSON.
  let bytes: Int
  private let load: () throws -> [UInt8]
  private var kept: (json: [UInt8], response: JSONValue)?

  init(label: String, plan: OperationPlan, bytes: Int, load: @escaping () throws -> [UInt8]) {
    self.label = label
    self.plan = plan
    self.bytes = bytes
    self.load = load
  }

  /// Keeps the JSON and the response from now on (the response given, else parsed), for sources
  /// small enough to hold whole.
  func keep(_ response: JSONValue? = nil) throws {
    let json = try load()
    kept = (json, try response ?? parse(json))
  }

  /// The response's JSON. Call it outside timed and counted code: it may generate or read a file.
  func json() throws -> [UInt8] {
    if let kept { return kept.json }
    return try load()
  }

  /// Parses this response's JSON (from ``json()``): what the `parse` phase times.
  func parse(_ json: [UInt8]) throws -> JSONValue {
    try JSONParser.parse(json, file: label)
  }

  /// The parsed response. Call it outside timed and counted code: it may generate and parse.
  func response() throws -> JSONValue {
    if let kept { return kept.response }
    return try parse(try load())
  }

  /// The selected data of `response` (this item's): what a read-back must equal.
  func expectedReadBack(of response: JSONValue) throws -> JSONObject {
    try ResponseProjection.selectedData(of: response, plan: plan)
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

  /// Sources up to this many bytes of JSON keep their parsed responses for the whole run; larger
  /// ones make each response again when it is needed (a parsed response takes several times its
  /// JSON's size: `large.json` held 2.6 GB). Kept sources hold their JSON too, for the `parse` phase.
  static let keptBytes = GeneratorConfig.keptResponseBytes

  /// Keeps every response when they are small enough together.
  private func keepIfSmall(progress: Progress) throws {
    guard responseBytes <= Self.keptBytes else { return }
    for (index, item) in items.enumerated() {
      progress.update("parsing responses \(index + 1)/\(items.count)")
      try item.keep()
    }
  }

  /// A generator's responses, each synthesized and parsed when needed, as a recorded workload's
  /// would be read.
  static func generated(seed: UInt64, config: GeneratorConfig, progress: Progress) throws -> PreparedSource {
    let synthetic = try Generator.make(seed: seed, config: config)
    let schema = try Schema(parsing: [
      Source(name: "schema.graphqls", text: synthetic.schemaSDL),
      Source(name: "extensions.graphqls", text: synthetic.extensionsSDL),
    ])
    // Plans of one operation share their selections below the fields whose selections use no
    // variables: without that, a run kept some 50 KB of plan per response.
    var documents: [String: SharedPlans] = [:]
    for operation in synthetic.operations {
      let document = try ExecutableDocument(parsing: [Source(name: operation.fileName, text: operation.documentText)])
      documents[operation.name] = SharedPlans(document: document, schema: schema)
    }
    var items: [ResponseItem] = []
    items.reserveCapacity(synthetic.responseCount)
    for index in 0..<synthetic.responseCount {
      progress.update("generating responses \(index + 1)/\(synthetic.responseCount)")
      let response = synthetic.response(at: index)
      let label = "response \(index) (\(response.operationName))"
      guard let plans = documents[response.operationName] else {
        throw RunError("\(label): the generator made no operation \(response.operationName)")
      }
      let plan = try plans.plan(operationName: response.operationName, variables: response.variables)
      items.append(
        ResponseItem(label: label, plan: plan, bytes: response.bytes.count) { synthetic.response(at: index).bytes })
    }
    let source = PreparedSource(schema: schema, items: items)
    try source.keepIfSmall(progress: progress)
    return source
  }

  /// A recorded workload's schema and operations; each response file is read again when needed
  /// unless they are small enough to keep.
  static func recorded(_ source: RecordedSource, progress: Progress) throws -> PreparedSource {
    let schema = try source.loadSchema()
    // Loading parses each response (to check it fits its operation): keep that parse when the
    // files are small enough together, rather than parse them all again.
    let fileBytes = source.operations.reduce(0) { total, operation in
      total + ((try? FileManager.default.attributesOfItem(atPath: operation.response)[.size] as? Int) ?? 0)
    }
    var items: [ResponseItem] = []
    for (index, operation) in source.operations.enumerated() {
      progress.update("reading responses \(index + 1)/\(source.operations.count)")
      let loaded = try operation.load(schema: schema)
      let path = operation.response
      let item = ResponseItem(label: path, plan: loaded.plan, bytes: loaded.responseBytes) { try InputFile.bytes(path) }
      if fileBytes <= keptBytes { try item.keep(loaded.response) }
      items.append(item)
    }
    return PreparedSource(schema: schema, items: items)
  }
}
