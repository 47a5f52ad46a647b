/// A read that cannot give a response: a field the schema declares non-null holds null, as
/// Apollo iOS's executor fails such a read.
public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The response path of the null: `["hero", "name"]`, list indexes included.
  public let path: [String]
  public let recordKey: CacheKey
  public let fieldKey: String
  /// The field's type, as the schema declares it: `String!`, `[Episode!]`.
  public let type: String

  public var description: String {
    "null at non-null \(path.joined(separator: ".")) (\(type)), field \"\(fieldKey)\" of record \"\(recordKey)\""
  }
}
