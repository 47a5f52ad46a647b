import GraphQLLanguage

/// One generated operation: a document with one operation and the fragments it uses.
public struct SyntheticOperation: Sendable, Hashable {
  public let name: String
  public let documentText: String
  /// `operations/NAME.graphql`, relative to the workload directory.
  public let fileName: String

  public var source: Source { Source(name: fileName, text: documentText) }
}
