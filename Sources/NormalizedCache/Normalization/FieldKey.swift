import GraphQLLanguage

/// Renders the key a field is stored under in its record (SPEC §1, "Field keys"):
/// `name`, or `name(arg1:value1,arg2:value2)` with arguments sorted by name.
///
/// ```swift
/// try FieldKey.render(name: "hero", arguments: [Argument(name: "episode", value: .enumValue("JEDI"))], variables: [:])
/// // "hero(episode:JEDI)"
/// ```
/// Values: strings, IDs and enums raw; Int as digits; Float as `String(Double)`; `true`/`false`;
/// `null`; lists `[a,b]`; input objects `{k1:v1,k2:v2}` with keys sorted. Variables are
/// substituted first; an omitted variable with no default drops its argument (or its input field).
public enum FieldKey {
  /// The rendered key of a field with these arguments.
  /// - Throws: ``NormalizationError`` when an argument uses a variable the operation does not
  ///   define and the caller did not give.
  public static func render(
    name: String, arguments: [Argument], variables: VariableValues
  ) throws(NormalizationError) -> String {
    guard !arguments.isEmpty else { return name }
    var rendered: [(name: String, value: String)] = []
    for argument in arguments {
      if let value = try render(argument.value, variables: variables) { rendered.append((argument.name, value)) }
    }
    guard !rendered.isEmpty else { return name }
    rendered.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    return name + "(" + rendered.map { $0.name + ":" + $0.value }.joined(separator: ",") + ")"
  }

  /// A value as it appears in a key, or nil when it is an omitted variable.
  static func render(_ value: Value, variables: VariableValues) throws(NormalizationError) -> String? {
    switch value {
    case .variable(let name):
      return try variables.value(of: name).map(render(json:))
    case .int(let int): return String(int)
    case .float(let double): return String(double)
    case .string(let string), .enumValue(let string): return string
    case .boolean(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .list(let values):
      var elements: [String] = []
      for element in values { elements.append(try render(element, variables: variables) ?? "null") }
      return "[" + elements.joined(separator: ",") + "]"
    case .object(let fields):
      var rendered: [(name: String, value: String)] = []
      for field in fields {
        if let value = try render(field.value, variables: variables) { rendered.append((field.name, value)) }
      }
      rendered.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
      return "{" + rendered.map { $0.name + ":" + $0.value }.joined(separator: ",") + "}"
    }
  }

  /// A variable's JSON value as it appears in a key.
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
  /// Omitted variables inside input objects drop their field, inside lists become null.
  public func resolve(_ value: Value) throws(NormalizationError) -> JSONValue? {
    switch value {
    case .variable(let name): return try self.value(of: name)
    case .list(let values):
      var result: [JSONValue] = []
      for element in values { result.append(try resolve(element) ?? .null) }
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
