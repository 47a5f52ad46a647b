import GraphQLLanguage

/// Renders the key a field is stored under in its record exactly as Apollo iOS's
/// `CacheKeyForField` does (docs/keys.md#field-keys): `name`, or `name(` + the arguments sorted
/// by name + `)`.
///
/// ```swift
/// try FieldKey.render(name: "hero", arguments: [Argument(name: "episode", value: .enumValue("JEDI"))], variables: .none)
/// // "hero(episode:JEDI)"
/// ```
/// One argument `k` renders as `k:value` for a scalar (strings, IDs and enums raw; Int as digits;
/// Float as `String(Double)`; `true`/`false`; `null`), `[k:f1:v1,f2:v2]` for an input object
/// (fields sorted, rendered by these same rules), `k:[f1:v1,f2:v2,f1:v3]` for a list of input
/// objects, and `k:[1, 1, 2]` for a list of scalars. Variables are substituted first; an omitted
/// variable with no default drops its argument, its input field or its list element.
public enum FieldKey {
  /// The rendered key of a field with these arguments.
  /// - Throws: ``NormalizationError`` when an argument uses a variable the operation does not
  ///   define and the caller did not give.
  public static func render(
    name: String, arguments: [Argument], variables: VariableValues
  ) throws(NormalizationError) -> String {
    guard !arguments.isEmpty else { return name }
    var resolved: [(name: String, value: JSONValue)] = []
    for argument in arguments {
      if let value = try variables.resolve(argument.value) { resolved.append((argument.name, value)) }
    }
    guard !resolved.isEmpty else { return name }
    return name + "(" + members(resolved) + ")"
  }

  /// Apollo's `orderIndependentKey`: members sorted by name, each rendered, joined by `,`.
  static func members(_ members: [(name: String, value: JSONValue)]) -> String {
    members.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
      .map { argument(name: $0.name, value: $0.value) }
      .joined(separator: ",")
  }

  static func members(of object: JSONObject) -> String {
    members(object.members.map { (name: $0.key, value: $0.value) })
  }

  /// One argument or input-object field, as Apollo renders it.
  static func argument(name: String, value: JSONValue) -> String {
    switch value {
    case .object(let object):
      return "[" + name + ":" + members(of: object) + "]"
    case .array(let elements):
      var objects: [JSONObject] = []
      for element in elements {
        guard case .object(let object) = element else {
          return name + ":[" + elements.map(element(_:)).joined(separator: ", ") + "]"
        }
        objects.append(object)
      }
      // A list of input objects (and the empty list): each object's fields, joined by `,`.
      return name + ":[" + objects.map(members(of:)).joined(separator: ",") + "]"
    default:
      return name + ":" + element(value)
    }
  }

  /// An element of a list of scalars: the value itself; nested lists alike.
  static func element(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .int(let int): return String(int)
    case .double(let double): return String(double)
    case .string(let string): return string
    case .array(let elements): return "[" + elements.map(element(_:)).joined(separator: ", ") + "]"
    case .object(let object): return members(of: object)
    }
  }

  /// A JSON value as people read it in names and messages (`duplication=0.5`, `[1,2]`); not a
  /// field key.
  public static func render(json: JSONValue) -> String {
    switch json {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .int(let int): return String(int)
    case .double(let double): return String(double)
    case .string(let string): return string
    case .array(let values): return "[" + values.map(render(json:)).joined(separator: ",") + "]"
    case .object(let object):
      let members = object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
      return "{" + members.map { $0.key + ":" + render(json: $0.value) }.joined(separator: ",") + "}"
    }
  }
}

/// The variables of one execution of an operation: the given values over the definitions' defaults.
///
/// `value(of:)` is nil for a variable that was omitted and has no default; a missing required
/// variable is an error when the values are made.
public struct VariableValues: Sendable {
  private var values: [String: JSONValue]
  private let defined: Set<String>
  private let operationName: String

  /// Checks the given values against the operation's variable definitions.
  /// - Throws: ``NormalizationError`` when a variable of non-null type without a default is
  ///   missing or null.
  public init(operation: OperationDefinition, given: JSONObject) throws(NormalizationError) {
    var values: [String: JSONValue] = [:]
    for member in given { values[member.key] = member.value }
    operationName = operation.name ?? "(anonymous)"
    for definition in operation.variableDefinitions {
      if let given = values[definition.name] {
        if given == .null, definition.type.isNonNull {
          throw NormalizationError(
            "variable $\(definition.name) of type \(definition.type) of operation \(operationName) is null",
            path: [])
        }
        if let problem = Self.kindMismatch(given, type: definition.type) {
          throw NormalizationError(
            "variable $\(definition.name) of type \(definition.type) of operation \(operationName) \(problem)", path: [])
        }
        continue
      }
      if let defaultValue = definition.defaultValue {
        values[definition.name] = Self.json(constant: defaultValue)
      } else if definition.type.isNonNull {
        throw NormalizationError(
          "missing required variable $\(definition.name) of type \(definition.type) of operation \(operationName)",
          path: [])
      }
    }
    self.values = values
    self.defined = Set(operation.variableDefinitions.map(\.name))
  }

  /// The given values, every one of them defined: for a fragment read on its own, which has no
  /// variable definitions to check them by.
  public init(given: JSONObject) {
    var values: [String: JSONValue] = [:]
    for member in given { values[member.key] = member.value }
    self.values = values
    defined = Set(values.keys)
    operationName = "(fragment)"
  }

  /// Why a given value cannot be of a variable's type, for the built-in scalars: an object or a
  /// list where an `ID!` goes. Input objects, enums and custom scalars are the server's to judge.
  static func kindMismatch(_ value: JSONValue, type: TypeReference) -> String? {
    switch type {
    case .nonNull(let inner):
      return kindMismatch(value, type: inner)
    case .list(let elementType):
      // A single value stands for a list of one (input coercion).
      guard case .array(let elements) = value else { return kindMismatch(value, type: elementType) }
      for element in elements where element != .null {
        if let problem = kindMismatch(element, type: elementType) { return problem }
      }
      return nil
    case .named(let name):
      guard ["ID", "String", "Int", "Float", "Boolean"].contains(name) else { return nil }
      switch value {
      case .object: return "is given an object"
      case .array: return "is given a list"
      default: return nil
      }
    }
  }

  /// No variables at all, for selections without any.
  public static let none = VariableValues()

  private init() {
    values = [:]
    defined = []
    operationName = ""
  }

  /// The value of a variable; nil when it was omitted and has no default.
  /// - Throws: ``NormalizationError`` for a variable the operation does not define.
  public func value(of name: String) throws(NormalizationError) -> JSONValue? {
    if let value = values[name] { return value }
    guard defined.contains(name) else {
      throw NormalizationError("variable $\(name) is not defined by operation \(operationName)", path: [])
    }
    return nil
  }

  /// A default value (a constant) as JSON.
  static func json(constant value: Value) -> JSONValue {
    switch value {
    case .variable: .null
    case .int(let int): .int(int)
    case .float(let double): .double(double)
    case .string(let string), .enumValue(let string): .string(string)
    case .boolean(let flag): .bool(flag)
    case .null: .null
    case .list(let values): .array(values.map(json(constant:)))
    case .object(let fields):
      .object(JSONObject(members: fields.map { JSONObject.Member(key: $0.name, value: json(constant: $0.value)) }))
    }
  }

  /// A value with its variables substituted, as JSON; nil when it is an omitted variable.
  /// Omitted variables inside input objects drop their field, inside lists their element (as
  /// Apollo's `InputValue.evaluate` does).
  public func resolve(_ value: Value) throws(NormalizationError) -> JSONValue? {
    switch value {
    case .variable(let name): return try self.value(of: name)
    case .list(let values):
      var result: [JSONValue] = []
      for element in values {
        if let resolved = try resolve(element) { result.append(resolved) }
      }
      return .array(result)
    case .object(let fields):
      var object = JSONObject()
      for field in fields {
        if let resolved = try resolve(field.value) { object.append(key: field.name, value: resolved) }
      }
      return .object(object)
    default:
      return Self.json(constant: value)
    }
  }
}
