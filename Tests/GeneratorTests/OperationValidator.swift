import GraphQLLanguage

/// The rules of [GraphQL spec §5](https://spec.graphql.org/October2021/#sec-Validation) that a
/// generated operation could break, checked against the parsed schema independently of the
/// generator's own model: fields and arguments exist, leaf and composite selections, input values
/// of the right type, fragments on possible types and all used, variables defined, used and of
/// compatible types, and one field per response key.
struct OperationValidator {
  let schema: Schema
  let document: ExecutableDocument
  private(set) var problems: [String] = []
  private var usedVariables: Set<String> = []
  private var variableTypes: [String: TypeReference] = [:]
  private var spreadFragments: Set<String> = []

  init(schema: Schema, document: ExecutableDocument) {
    self.schema = schema
    self.document = document
  }

  static func problems(schema: Schema, document: ExecutableDocument) -> [String] {
    var validator = OperationValidator(schema: schema, document: document)
    validator.run()
    return validator.problems
  }

  private mutating func run() {
    for operation in document.operations {
      variableTypes = [:]
      usedVariables = []
      for definition in operation.variableDefinitions {
        if variableTypes[definition.name] != nil { problems.append("variable $\(definition.name) defined twice") }
        variableTypes[definition.name] = definition.type
        if schema.type(named: definition.type.namedType).map({ $0.kind == .object || $0.isAbstract }) ?? true {
          problems.append("variable $\(definition.name) has a non-input type \(definition.type)")
        }
      }
      check(operation.selectionSet, on: schema.rootTypeName(for: operation.operationType), path: operation.name ?? "")
      for fragment in document.fragments.values.sorted(by: { $0.name < $1.name }) {
        check(fragment.selectionSet, on: fragment.typeCondition, path: "fragment \(fragment.name)")
      }
      for name in variableTypes.keys.sorted() where !usedVariables.contains(name) {
        problems.append("variable $\(name) is never used")
      }
    }
    for name in document.fragments.keys.sorted() where !spreadFragments.contains(name) {
      problems.append("fragment \(name) is never used")
    }
  }

  private mutating func check(_ selections: [Selection], on parent: String, path: String) {
    guard let parentType = schema.type(named: parent), parentType.kind == .object || parentType.isAbstract else {
      problems.append("\(path): \(parent) is not a composite type")
      return
    }
    checkResponseKeys(selections, on: parent, path: path)
    for selection in selections {
      switch selection {
      case .field(let field):
        checkField(field, on: parent, path: path + "." + field.responseKey)
      case .inlineFragment(let fragment):
        let condition = fragment.typeCondition ?? parent
        checkSpread(of: condition, on: parent, path: path)
        check(fragment.selectionSet, on: condition, path: path + "(on \(condition))")
      case .fragmentSpread(let spread):
        spreadFragments.insert(spread.name)
        guard let fragment = document.fragments[spread.name] else {
          problems.append("\(path): unknown fragment \(spread.name)")
          continue
        }
        checkSpread(of: fragment.typeCondition, on: parent, path: path)
      }
    }
  }

  private mutating func checkField(_ field: Field, on parent: String, path: String) {
    if field.name == "__typename" {
      if field.selectionSet != nil || !field.arguments.isEmpty {
        problems.append("\(path): __typename with arguments or selections")
      }
      return
    }
    guard let definition = schema.field(field.name, on: parent) else {
      problems.append("\(path): \(parent) has no field \(field.name)")
      return
    }
    for argument in field.arguments {
      guard let argumentDefinition = definition.arguments.first(where: { $0.name == argument.name }) else {
        problems.append("\(path): \(parent).\(field.name) has no argument \(argument.name)")
        continue
      }
      checkValue(argument.value, type: argumentDefinition.type, path: path + "(\(argument.name))")
    }
    for argument in definition.arguments where argument.type.isNonNull && argument.defaultValue == nil {
      if !field.arguments.contains(where: { $0.name == argument.name }) {
        problems.append("\(path): required argument \(argument.name) missing")
      }
    }
    let named = definition.type.namedType
    let isLeaf = schema.type(named: named)?.isLeaf ?? false
    if isLeaf, field.selectionSet != nil { problems.append("\(path): leaf field \(field.name) has a selection set") }
    if !isLeaf {
      guard let selections = field.selectionSet, !selections.isEmpty else {
        problems.append("\(path): field \(field.name) of type \(named) needs a selection set")
        return
      }
      check(selections, on: named, path: path)
    }
  }

  private mutating func checkSpread(of condition: String, on parent: String, path: String) {
    guard let type = schema.type(named: condition), type.kind == .object || type.isAbstract else {
      problems.append("\(path): fragment on \(condition), which is not a composite type")
      return
    }
    if schema.possibleTypes(of: condition).isDisjoint(with: schema.possibleTypes(of: parent)) {
      problems.append("\(path): fragment on \(condition) can never apply to \(parent)")
    }
  }

  private mutating func checkValue(_ value: Value, type: TypeReference, path: String) {
    switch value {
    case .variable(let name):
      usedVariables.insert(name)
      guard let variableType = variableTypes[name] else {
        problems.append("\(path): undefined variable $\(name)")
        return
      }
      if !Self.isCompatible(variable: variableType, argument: type) {
        problems.append("\(path): variable $\(name) of type \(variableType) used where \(type) is expected")
      }
    case .null:
      if type.isNonNull { problems.append("\(path): null for \(type)") }
    case .list(let elements):
      guard case .list(let element) = Self.nullable(type) else {
        problems.append("\(path): a list for \(type)")
        return
      }
      for item in elements { checkValue(item, type: element, path: path) }
    case .object(let fields):
      guard let input = schema.type(named: type.namedType), input.kind == .inputObject, !Self.nullable(type).isList
      else {
        problems.append("\(path): an input object for \(type)")
        return
      }
      for field in fields {
        guard let definition = input.inputFields[field.name] else {
          problems.append("\(path): \(input.name) has no input field \(field.name)")
          continue
        }
        checkValue(field.value, type: definition.type, path: path + "." + field.name)
      }
      for (name, definition) in input.inputFields.sorted(by: { $0.key < $1.key })
      where definition.type.isNonNull && definition.defaultValue == nil && !fields.contains(where: { $0.name == name }) {
        problems.append("\(path): required input field \(name) missing")
      }
    case .int, .float, .string, .boolean, .enumValue:
      checkScalar(value, type: Self.nullable(type), path: path)
    }
  }

  private mutating func checkScalar(_ value: Value, type: TypeReference, path: String) {
    guard case .named(let name) = type else {
      problems.append("\(path): a scalar for \(type)")
      return
    }
    let fits: Bool
    switch (name, value) {
    case ("Int", .int), ("Float", .int), ("Float", .float), ("String", .string), ("ID", .string), ("ID", .int),
      ("Boolean", .boolean):
      fits = true
    case (_, .enumValue(let enumValue)):
      fits = schema.type(named: name)?.enumValues.contains(enumValue) ?? false
    default:
      fits = false
    }
    if !fits { problems.append("\(path): \(value) is not a \(name)") }
  }

  /// Fields of one response key must be one field with one set of arguments where their parents
  /// may be the same object, and of one type everywhere.
  private mutating func checkResponseKeys(_ selections: [Selection], on parent: String, path: String) {
    var seen: [String: [(parent: String, field: Field, type: String)]] = [:]
    func gather(_ selections: [Selection], on parent: String, visited: inout Set<String>) {
      for selection in selections {
        switch selection {
        case .field(let field):
          let type =
            field.name == "__typename" ? "String!" : schema.field(field.name, on: parent).map { "\($0.type)" } ?? "?"
          seen[field.responseKey, default: []].append((parent, field, type))
        case .inlineFragment(let fragment):
          gather(fragment.selectionSet, on: fragment.typeCondition ?? parent, visited: &visited)
        case .fragmentSpread(let spread):
          guard visited.insert(spread.name).inserted, let fragment = document.fragments[spread.name] else { continue }
          gather(fragment.selectionSet, on: fragment.typeCondition, visited: &visited)
        }
      }
    }
    var visited: Set<String> = []
    gather(selections, on: parent, visited: &visited)
    for (key, fields) in seen.sorted(by: { $0.key < $1.key }) {
      for other in fields.dropFirst() {
        let first = fields[0]
        if other.type != first.type {
          problems.append("\(path): response key \(key) has types \(first.type) and \(other.type)")
        }
        let bothObjects = [first.parent, other.parent].allSatisfy { schema.type(named: $0)?.kind == .object }
        if bothObjects, first.parent != other.parent { continue }
        if other.field.name != first.field.name || other.field.arguments != first.field.arguments {
          problems.append("\(path): response key \(key) selects different fields or arguments")
        }
      }
    }
  }

  private static func nullable(_ type: TypeReference) -> TypeReference {
    if case .nonNull(let inner) = type { return inner }
    return type
  }

  /// A variable fits where its type, or its type made nullable, equals the expected type.
  private static func isCompatible(variable: TypeReference, argument: TypeReference) -> Bool {
    switch (variable, argument) {
    case (.nonNull(let inner), .nonNull(let expected)): isCompatible(variable: inner, argument: expected)
    case (_, .nonNull): false
    case (.nonNull(let inner), _): isCompatible(variable: inner, argument: argument)
    case (.list(let inner), .list(let expected)): isCompatible(variable: inner, argument: expected)
    case (.named(let name), .named(let expected)): name == expected
    default: false
    }
  }
}
