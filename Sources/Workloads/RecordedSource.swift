import GraphQLLanguage
import NormalizedCache
import Support

/// Real responses, each with its operation: `{"schema": [...], "operations": [{"document": ..., "response": ...}]}`.
public struct RecordedSource: Sendable {
  /// Schema and extension files, resolved against the workload's directory.
  public var schema: [String]
  public var operations: [RecordedOperation]

  public init(schema: [String], operations: [RecordedOperation]) {
    self.schema = schema
    self.operations = operations
  }

  /// The schema its files declare (an empty schema for none).
  ///
  /// - Throws: ``InputError`` for a file that cannot be read, ``GraphQLError`` for one that does
  ///   not parse.
  public func loadSchema() throws -> Schema {
    try Schema.load(schema)
  }
}

extension Schema {
  /// The schema that schema and extension files declare together (an empty schema for none).
  ///
  /// - Throws: ``InputError`` for a file that cannot be read, ``GraphQLError`` for one that does
  ///   not parse.
  public static func load(_ paths: [String]) throws -> Schema {
    try Schema(parsing: paths.map(InputFile.source))
  }
}

/// One recorded response and the operation it answers.
public struct RecordedOperation: Sendable {
  /// The operation's file and any fragment files, resolved.
  public var documents: [String]
  public var operationName: String?
  public var variables: JSONObject
  /// The response file, resolved.
  public var response: String

  /// The operation it runs, for telling operations apart: its document files and operation name.
  public struct Document: Hashable, Sendable {
    public let files: [String]
    public let operationName: String?
  }

  public var document: Document { Document(files: documents, operationName: operationName) }

  public init(documents: [String], operationName: String? = nil, variables: JSONObject = [:], response: String) {
    self.documents = documents
    self.operationName = operationName
    self.variables = variables
    self.response = response
  }

  /// Reads and parses the operation's documents and its response, and plans the operation: the
  /// one way `run`, `validate` and `normalize` read a recorded response.
  ///
  /// ```swift
  /// let loaded = try operation.load(schema: try source.loadSchema())
  /// let records = try Normalizer(strategy: .typePolicy).normalize(loaded.response, plan: loaded.plan).records
  /// ```
  ///
  /// - Throws: ``InputError`` for a file that cannot be read (``InputError/path`` says which);
  ///   ``GraphQLError`` with the line and column of a document or response that does not parse;
  ///   ``InputDataError`` naming the first document when the operation cannot be planned (an
  ///   unknown operation name, a missing variable).
  public func load(schema: Schema) throws -> LoadedOperation {
    let plan = try Self.plan(documents: documents, operationName: operationName, variables: variables, schema: schema)
    let bytes = try InputFile.bytes(response)
    return LoadedOperation(plan: plan, response: try JSONParser.parse(bytes, file: response), responseBytes: bytes.count)
  }

  /// Reads and parses an operation's documents and plans the operation, without a response: what
  /// a read of the cache needs (`normalize --read`), and the first half of ``load(schema:)``.
  ///
  /// - Throws: as ``load(schema:)``, for the documents.
  public static func plan(documents: [String], operationName: String?, variables: JSONObject, schema: Schema) throws -> OperationPlan {
    let document = try ExecutableDocument(parsing: documents.map(InputFile.source))
    do {
      return try OperationPlan(document: document, operationName: operationName, schema: schema, variables: variables)
    } catch {
      throw InputDataError(file: documents[0], message: "\(error)")
    }
  }
}

/// A recorded operation read and planned: what a run writes.
public struct LoadedOperation {
  public let plan: OperationPlan
  public let response: JSONValue
  /// The size of the response file.
  public let responseBytes: Int
}
