/// `@cacheControl(maxAge: Int, inheritMaxAge: Boolean)` as written on a type, a field of the
/// schema, or a field of an operation (docs/ttl.md): how long a cached field stays fresh.
///
/// ```graphql
/// type Book @cacheControl(maxAge: 3600) { id: ID!  price: Int @cacheControl(maxAge: 60) }
/// type Review { author: Author @cacheControl(inheritMaxAge: true) }
/// extend type Book @cacheControlField(name: "title", maxAge: 86400)    # a field the file does not redefine
/// ```
/// The arguments follow [Apollo's cache spec](https://specs.apollo.dev/cache/v0.2/) and Apollo iOS
/// 3.0's plan (ADR 0003): a bare `@cacheControl` is an error ("requires an explicit maxAge
/// argument", as Apollo's codegen makes it); `scope` is accepted and has no effect on a client's
/// cache. `@cacheControlField(name:)` is Apollo Kotlin's form for schema extensions, which cannot
/// add a directive to a field another file defines.
public struct CacheControl: Sendable, Hashable {
  public enum Setting: Sendable, Hashable, CustomStringConvertible {
    /// `maxAge: N`: fresh until N seconds after the field was written; 0 is expired at once on a
    /// strict read.
    case maxAge(Int)
    /// `inheritMaxAge: true`: an object-typed field takes its parent type's `maxAge`, as a scalar does.
    case inherit

    public var description: String {
      switch self {
      case .maxAge(let seconds): "maxAge: \(seconds)"
      case .inherit: "inheritMaxAge: true"
      }
    }
  }

  public let setting: Setting
  public let location: SourceLocation

  public init(_ setting: Setting, location: SourceLocation) {
    self.setting = setting
    self.location = location
  }

  /// The largest `maxAge`: GraphQL's `Int` is 32 bits.
  public static let maximumMaxAge = Int(Int32.max)

  /// The directive's names: `cacheControl`, and `cacheControlField` in schema files.
  public static let directiveName = "cacheControl"
  public static let fieldDirectiveName = "cacheControlField"

  /// The setting of a `@cacheControl` (or, with `named`, a `@cacheControlField`) directive.
  /// - Throws: ``GraphQLError`` at the directive for an argument it does not know, a `maxAge` that
  ///   is not an Int literal from 0 to ``maximumMaxAge``, an `inheritMaxAge` that is not a
  ///   Boolean, both given, or neither.
  static func parse(_ directive: Directive, extraArguments: Set<String> = []) throws(GraphQLError) -> CacheControl {
    let known: Set<String> = ["maxAge", "inheritMaxAge", "scope"]
    for argument in directive.arguments where !known.contains(argument.name) && !extraArguments.contains(argument.name) {
      throw GraphQLError(
        "@\(directive.name) has no argument \"\(argument.name)\" (it takes maxAge: Int, inheritMaxAge: Boolean)",
        at: directive.location)
    }
    let maxAge = try directive.argument("maxAge").map { (value) throws(GraphQLError) in try seconds(value, in: directive) }
    var inherits = false
    switch directive.argument("inheritMaxAge") {
    case nil: break
    case .boolean(let flag)?: inherits = flag
    case let value?: throw GraphQLError("@\(directive.name)(inheritMaxAge:) must be a Boolean, got \(value.text)", at: directive.location)
    }
    if let scope = directive.argument("scope") {
      guard case .enumValue(let name) = scope, name == "PUBLIC" || name == "PRIVATE" else {
        throw GraphQLError("@\(directive.name)(scope:) must be PUBLIC or PRIVATE, got \(scope.text)", at: directive.location)
      }
    }
    switch (maxAge, inherits) {
    case (let seconds?, false): return CacheControl(.maxAge(seconds), location: directive.location)
    case (nil, true): return CacheControl(.inherit, location: directive.location)
    case (_?, true):
      throw GraphQLError(
        "@\(directive.name) takes maxAge or inheritMaxAge: true, not both", at: directive.location)
    case (nil, false):
      throw GraphQLError("@\(directive.name) requires an explicit maxAge argument", at: directive.location)
    }
  }

  /// A `maxAge` argument: an Int literal from 0 to ``maximumMaxAge``.
  private static func seconds(_ value: Value, in directive: Directive) throws(GraphQLError) -> Int {
    let place = "@\(directive.name)(maxAge:)"
    switch value {
    case .int(let seconds) where seconds < 0:
      throw GraphQLError("\(place) must be 0 or more seconds, got \(seconds)", at: directive.location)
    case .int(let seconds) where seconds > maximumMaxAge:
      throw GraphQLError("\(place) must be at most \(maximumMaxAge) seconds (GraphQL's Int), got \(seconds)", at: directive.location)
    case .int(let seconds):
      return seconds
    case .variable(let name):
      throw GraphQLError("\(place) must be an Int literal, not the variable $\(name)", at: directive.location)
    default:
      throw GraphQLError("\(place) must be an Int, got \(value.text)", at: directive.location)
    }
  }

  /// The `@cacheControl` among `directives`, checked; nil when there is none.
  /// - Throws: ``GraphQLError`` for a malformed one, or for two.
  static func find(in directives: [Directive]) throws(GraphQLError) -> CacheControl? {
    var found: CacheControl?
    for directive in directives where directive.name == directiveName {
      if let found {
        throw GraphQLError("@cacheControl is given twice here (the other is at \(found.location))", at: directive.location)
      }
      found = try parse(directive)
    }
    return found
  }
}

extension CacheControl {
  /// The `@cacheControl` of a field in an operation, already checked when its document was built
  /// (``ExecutableDocument``); nil when it has none.
  public static func ofOperationField(_ field: Field) -> CacheControl? {
    guard field.directives.contains(where: { $0.name == directiveName }) else { return nil }
    return try? find(in: field.directives)
  }
}

extension Value {
  /// The value as a document writes it, for messages: `1.5`, `"60"`, `$age`.
  var text: String {
    switch self {
    case .variable(let name): "$\(name)"
    case .int(let int): String(int)
    case .float(let double): String(double)
    case .string(let string): "\"\(string)\""
    case .boolean(let flag): flag ? "true" : "false"
    case .null: "null"
    case .enumValue(let name): name
    case .list(let values): "[" + values.map(\.text).joined(separator: ", ") + "]"
    case .object(let fields): "{" + fields.map { "\($0.name): \($0.value.text)" }.joined(separator: ", ") + "}"
    }
  }
}
