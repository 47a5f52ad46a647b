import GraphQLLanguage

/// Checks that a response is exactly what its operation selects, walking the parsed document over
/// the JSON independently of the generator: every object has the response keys that
/// [CollectFields](https://spec.graphql.org/October2021/#CollectFields()) gives for its type, in
/// order, and nothing else; leaves hold values of their scalar type; lists and nulls only where
/// the schema allows them; `__typename` names a possible type.
struct ResponseShapeChecker {
  let schema: Schema
  let document: ExecutableDocument
  private(set) var problems: [String] = []

  static func problems(schema: Schema, document: ExecutableDocument, operationName: String, data: JSONObject)
    -> [String]
  {
    var checker = ResponseShapeChecker(schema: schema, document: document)
    guard let operation = try? document.operation(named: operationName) else {
      return ["no operation \(operationName)"]
    }
    checker.checkObject(data, selections: [operation.selectionSet], staticType: "Query", path: "data")
    return checker.problems
  }

  private init(schema: Schema, document: ExecutableDocument) {
    self.schema = schema
    self.document = document
  }

  private mutating func checkObject(_ object: JSONObject, selections: [[Selection]], staticType: String, path: String) {
    var runtimeType = staticType
    if let typename = object["__typename"] {
      guard case .string(let name) = typename, schema.possibleTypes(of: staticType).contains(name) || name == staticType
      else {
        problems.append("\(path): __typename \(typename) is not a possible type of \(staticType)")
        return
      }
      runtimeType = name
    } else if schema.type(named: staticType)?.isAbstract ?? false {
      problems.append("\(path): an object of abstract type \(staticType) without __typename")
      return
    }
    var order: [String] = []
    var fields: [String: (name: String, selections: [[Selection]])] = [:]
    var visited: Set<String> = []
    func collect(_ selections: [Selection]) {
      for selection in selections {
        switch selection {
        case .field(let field):
          if fields[field.responseKey] == nil {
            order.append(field.responseKey)
            fields[field.responseKey] = (field.name, [])
          }
          if let nested = field.selectionSet { fields[field.responseKey]!.selections.append(nested) }
        case .inlineFragment(let fragment):
          if fragment.typeCondition.map({ schema.typeCondition($0, appliesTo: runtimeType) == true }) ?? true {
            collect(fragment.selectionSet)
          }
        case .fragmentSpread(let spread):
          guard visited.insert(spread.name).inserted, let fragment = document.fragments[spread.name] else { continue }
          if schema.typeCondition(fragment.typeCondition, appliesTo: runtimeType) == true {
            collect(fragment.selectionSet)
          }
        }
      }
    }
    for selectionSet in selections { collect(selectionSet) }
    if object.keys != order {
      problems.append("\(path): members \(object.keys) but the operation selects \(order) on \(runtimeType)")
      return
    }
    for key in order {
      let (name, nested) = fields[key]!
      let value = object[key]!
      if name == "__typename" {
        if value != .string(runtimeType) { problems.append("\(path).\(key): \(value) is not \(runtimeType)") }
        continue
      }
      guard let definition = schema.field(name, on: runtimeType) else {
        problems.append("\(path).\(key): \(runtimeType) has no field \(name)")
        continue
      }
      checkValue(value, type: definition.type, selections: nested, path: path + "." + key)
    }
  }

  private mutating func checkValue(_ value: JSONValue, type: TypeReference, selections: [[Selection]], path: String) {
    switch (type, value) {
    case (.nonNull(let inner), _):
      if value == .null {
        problems.append("\(path): null for \(type)")
      } else {
        checkValue(value, type: inner, selections: selections, path: path)
      }
    case (_, .null):
      return
    case (.list(let element), .array(let elements)):
      for (index, item) in elements.enumerated() {
        checkValue(item, type: element, selections: selections, path: path + "." + String(index))
      }
    case (.list, _):
      problems.append("\(path): \(value.kindDescription) for the list type \(type)")
    case (.named(let name), _):
      guard let named = schema.type(named: name) else {
        problems.append("\(path): unknown type \(name)")
        return
      }
      if named.isLeaf {
        if !Self.fits(value, scalar: name, enumValues: named.enumValues) {
          problems.append("\(path): \(value.kindDescription) is not a \(name)")
        }
      } else if case .object(let object) = value {
        checkObject(object, selections: selections, staticType: name, path: path)
      } else {
        problems.append("\(path): \(value.kindDescription) for the object type \(name)")
      }
    }
  }

  private static func fits(_ value: JSONValue, scalar: String, enumValues: [String]) -> Bool {
    switch (scalar, value) {
    case ("Int", .int), ("Float", .double), ("Float", .int), ("Boolean", .bool), ("String", .string), ("ID", .string):
      true
    case (_, .string(let string)):
      enumValues.contains(string)
    default:
      false
    }
  }
}
