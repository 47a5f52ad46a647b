/// An error in a GraphQL document, a schema, or a JSON text, with the place it was found.
///
/// Prints as `file:line:column: message`, for example
/// `ItemsQuery.graphql:3:14: Expected Name, found "}"`.
public struct GraphQLError: Error, Sendable, Hashable, CustomStringConvertible {
  public let message: String
  public let location: SourceLocation?

  public init(_ message: String, at location: SourceLocation?) {
    self.message = message
    self.location = location
  }

  public var description: String {
    guard let location else { return message }
    return "\(location): \(message)"
  }
}
