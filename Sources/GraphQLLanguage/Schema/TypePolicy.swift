/// `@typePolicy(keyFields: "a b")` on an object type or an interface: which fields make an object's cache ID.
///
/// ```graphql
/// extend type Author @typePolicy(keyFields: "firstName lastName")   # Author:Ray+Bradbury
/// ```
public struct TypePolicy: Sendable, Hashable {
  /// The key fields, in the directive's order.
  public let keyFields: [String]
  /// The type or interface the directive is on.
  public let declaredOn: String
  public let location: SourceLocation

  public init(keyFields: [String], declaredOn: String, location: SourceLocation) {
    self.keyFields = keyFields
    self.declaredOn = declaredOn
    self.location = location
  }
}

/// `@fieldPolicy(forField: "animal", keyArgs: "species habitat")`: how a field's arguments make the
/// cache key of the object it returns, so a read can find it without a network request.
public struct FieldPolicy: Sendable, Hashable {
  /// The type the directive is on (usually `Query`).
  public let typeName: String
  public let fieldName: String
  /// Each key argument as a path: `["id"]`, or `["input", "species"]` for `input.species`.
  public let keyArgs: [[String]]
  public let location: SourceLocation

  public init(typeName: String, fieldName: String, keyArgs: [[String]], location: SourceLocation) {
    self.typeName = typeName
    self.fieldName = fieldName
    self.keyArgs = keyArgs
    self.location = location
  }
}
