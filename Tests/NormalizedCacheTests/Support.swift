import Foundation
import GraphQLLanguage

@testable import NormalizedCache

let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

func projectSource(_ relativePath: String) throws -> Source {
  Source(
    name: relativePath,
    text: try String(contentsOf: projectRoot.appendingPathComponent(relativePath), encoding: .utf8))
}

func makeSchema(_ texts: String...) throws -> Schema {
  try Schema(parsing: texts.enumerated().map { Source(name: "schema\($0.offset).graphqls", text: $0.element) })
}

/// Normalizes one response of one operation.
func normalize(
  _ operation: String, _ response: String, schema: Schema = .empty, strategy: KeyStrategy = .path,
  variables: JSONObject = [:], writtenAt: Int? = nil
) throws -> RecordSet {
  try normalizeResponse(operation, response, schema: schema, strategy: strategy, variables: variables, writtenAt: writtenAt)
    .records
}

func normalizeResponse(
  _ operation: String, _ response: String, schema: Schema = .empty, strategy: KeyStrategy = .path,
  variables: JSONObject = [:], writtenAt: Int? = nil
) throws -> NormalizedResponse {
  let document = try ExecutableDocument(parsing: [Source(name: "operation.graphql", text: operation)])
  let plan = try OperationPlan(document: document, schema: schema, variables: variables)
  return try Normalizer(strategy: strategy).normalize(
    try JSONParser.parse(response, file: "response.json"), plan: plan, writtenAt: writtenAt)
}

/// A resolver built from a Swift closure, registered under a name as a library user would.
func resolver(_ body: @escaping CacheKeyResolver) throws -> KeyStrategy {
  var resolvers = CacheKeyResolvers.builtIn
  resolvers.register("test", body)
  return .programmatic(try resolvers.resolver(named: "test"))
}

func builtIn(_ name: String) throws -> KeyStrategy {
  .programmatic(try CacheKeyResolvers.builtIn.resolver(named: name))
}
