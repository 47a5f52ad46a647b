extension Schema {
  /// Builds a schema from parsed schema and extension documents.
  /// - Throws: ``GraphQLError``; see ``init(parsing:)``.
  public init(documents: [Document]) throws(GraphQLError) {
    self.init()
    var typePolicyDirectives: [(type: String, directive: Directive)] = []
    var fieldPolicyDirectives: [(type: String, directive: Directive)] = []
    var cacheControls = CacheControlDirectives()

    for document in documents {
      for definition in document.definitions {
        switch definition {
        case .type(let definition):
          try add(definition)
          try cacheControls.collect(definition)
          for directive in definition.directives {
            switch directive.name {
            case "typePolicy": typePolicyDirectives.append((definition.name, directive))
            case "fieldPolicy": fieldPolicyDirectives.append((definition.name, directive))
            default: break
            }
          }
        case .schema(let schema):
          try CacheControlDirectives.refuse(schema.directives, on: "a schema definition")
          for (operation, name) in schema.operationTypes { rootTypes[operation] = name }
        case .directive:
          break
        case .operation(let operation):
          throw GraphQLError("Operation in a schema document; pass it as an operation", at: operation.location)
        case .fragment(let fragment):
          throw GraphQLError("Fragment \"\(fragment.name)\" in a schema document", at: fragment.location)
        }
      }
    }
    // An extension of a type no file defines is a typo (`extend type Boook`), and so is an
    // interface no file defines (`implements Nod`), unless no type is defined at all: a workload
    // may give its extensions without the schema they extend.
    if types.values.contains(where: { $0.isDefined && $0.location != nil }) {
      for document in documents {
        for case .type(let definition) in document.definitions {
          if definition.isExtension, let type = types[definition.name], !type.isDefined {
            throw GraphQLError(
              "\"extend \(definition.kind.rawValue) \(definition.name)\" extends a type no schema file defines",
              at: definition.location)
          }
          try checkImplemented(definition)
        }
      }
    }
    computeInterfaces()
    try checkNoInterfaceCycle()
    for (typeName, directive) in typePolicyDirectives { try addTypePolicy(directive, on: typeName) }
    try computeEffectiveTypePolicies()
    for (typeName, directive) in fieldPolicyDirectives { try addFieldPolicy(directive, on: typeName) }
    try addCacheControls(cacheControls)
  }

  private mutating func add(_ definition: TypeDefinition) throws(GraphQLError) {
    var type: NamedType
    if let existing = types[definition.name] {
      guard existing.kind == definition.kind else {
        throw GraphQLError(
          "\"\(definition.name)\" is \(existing.kind.article) \(existing.kind.rawValue) type"
            + (existing.location.map { " (at \($0))" } ?? "")
            + ", not \(definition.kind.article) \(definition.kind.rawValue) type",
          at: definition.location)
      }
      if !definition.isExtension, existing.isDefined, existing.location != nil {
        throw GraphQLError(
          "There can be only one type named \"\(definition.name)\" (the other is at \(existing.location!))",
          at: definition.location)
      }
      type = existing
    } else {
      type = NamedType(kind: definition.kind, name: definition.name, location: definition.location)
    }
    if !definition.isExtension { type.isDefined = true }
    for interface in definition.interfaces where !type.interfaces.contains(interface) {
      type.interfaces.append(interface)
    }
    for field in definition.fields {
      if let other = type.fields[field.name] {
        throw GraphQLError(
          "Field \"\(definition.name).\(field.name)\" is already defined at \(other.location)", at: field.location)
      }
      type.fields[field.name] = field
    }
    for member in definition.unionMembers where !type.unionMembers.contains(member) {
      type.unionMembers.append(member)
    }
    type.enumValues += definition.enumValues
    for field in definition.inputFields { type.inputFields[field.name] = field }
    types[definition.name] = type
  }

  /// Each interface a type implements must be an interface some file defines.
  private func checkImplemented(_ definition: TypeDefinition) throws(GraphQLError) {
    for name in definition.interfaces {
      guard let interface = types[name], interface.isDefined else {
        throw GraphQLError("\"\(definition.name)\" implements \"\(name)\", which no schema file defines", at: definition.location)
      }
      guard interface.kind == .interface else {
        throw GraphQLError(
          "\"\(definition.name)\" implements \"\(name)\", which is \(interface.kind.article) \(interface.kind.rawValue) type, not an interface",
          at: definition.location)
      }
    }
  }

  /// An interface may not implement itself, directly or through others
  /// ([§3.7](https://spec.graphql.org/October2021/#sec-Interfaces.Type-Validation)): the first
  /// interface (by name) in a cycle is reported, with the cycle.
  private func checkNoInterfaceCycle() throws(GraphQLError) {
    for type in types.values.sorted(by: { $0.name < $1.name }) where type.kind == .interface {
      guard (allInterfaces[type.name] ?? []).contains(type.name) else { continue }
      // The shortest way back to the type, breadth first.
      var previous: [String: String] = [:]
      var queue = [type.name]
      var head = 0
      search: while head < queue.count {
        let current = queue[head]
        head += 1
        for next in types[current]?.interfaces ?? [] where previous[next] == nil {
          previous[next] = current
          if next == type.name { break search }
          queue.append(next)
        }
      }
      var cycle = [type.name]
      var step = previous[type.name]
      while let name = step, name != type.name {
        cycle.insert(name, at: 0)
        step = previous[name]
      }
      cycle.insert(type.name, at: 0)
      throw GraphQLError(
        "Interface \"\(type.name)\" implements itself (\(cycle.joined(separator: " implements "))): interfaces may not form a cycle",
        at: type.location)
    }
  }

  /// Transitive interfaces of every object and interface, and the possible types of every abstract type.
  private mutating func computeInterfaces() {
    // An interface named only in an `implements` clause is known, if only by name.
    for type in types.values {
      for interface in type.interfaces where types[interface] == nil {
        types[interface] = NamedType(kind: .interface, name: interface, location: nil)
      }
      for member in type.unionMembers where types[member] == nil {
        types[member] = NamedType(kind: .object, name: member, location: nil)
      }
    }
    func collect(_ name: String, into result: inout [String], visiting: inout Set<String>) {
      guard let type = types[name], visiting.insert(name).inserted else { return }
      for interface in type.interfaces where !result.contains(interface) { result.append(interface) }
      for interface in type.interfaces { collect(interface, into: &result, visiting: &visiting) }
    }
    for type in types.values where type.kind == .object || type.kind == .interface {
      var result: [String] = []
      var visiting: Set<String> = []
      collect(type.name, into: &result, visiting: &visiting)
      allInterfaces[type.name] = result
    }
    for type in types.values {
      switch type.kind {
      case .object:
        for interface in allInterfaces[type.name] ?? [] { possibleTypes[interface, default: []].insert(type.name) }
      case .union:
        possibleTypes[type.name, default: []].formUnion(type.unionMembers)
      case .interface:
        possibleTypes[type.name, default: []].formUnion([])
      default:
        break
      }
    }
  }

  private mutating func addTypePolicy(_ directive: Directive, on typeName: String) throws(GraphQLError) {
    guard let type = types[typeName], type.kind == .object || type.kind == .interface else {
      throw GraphQLError("@typePolicy applies to object types and interfaces, not to \"\(typeName)\"", at: directive.location)
    }
    let keyFields = try Self.names(in: directive, argument: "keyFields")
    if let existing = ownTypePolicies[typeName] {
      throw GraphQLError(
        "\"\(typeName)\" already has a @typePolicy (at \(existing.location))", at: directive.location)
    }
    for field in keyFields where type.isDefined {
      guard let definition = type.fields[field] else {
        throw GraphQLError(
          "@typePolicy on \"\(typeName)\" names key field \"\(field)\", which \"\(typeName)\" does not have",
          at: directive.location)
      }
      let fieldType = definition.type.namedType
      if definition.type.isList || (types[fieldType].map { !$0.isLeaf } ?? false) {
        throw GraphQLError(
          "@typePolicy key field \"\(typeName).\(field)\" must be a scalar, not \(definition.type)",
          at: directive.location)
      }
    }
    ownTypePolicies[typeName] = TypePolicy(keyFields: keyFields, declaredOn: typeName, location: directive.location)
  }

  /// Own policy first; else the single policy inherited from the type's interfaces.
  private mutating func computeEffectiveTypePolicies() throws(GraphQLError) {
    for type in types.values.sorted(by: { $0.name < $1.name }) where type.kind == .object {
      if let own = ownTypePolicies[type.name] {
        effectiveTypePolicies[type.name] = own
        continue
      }
      var inherited: [TypePolicy] = []
      for interface in allInterfaces[type.name] ?? [] {
        if let policy = ownTypePolicies[interface], !inherited.contains(where: { $0.keyFields == policy.keyFields }) {
          inherited.append(policy)
        }
      }
      if inherited.count > 1 {
        let list = inherited.map { "\"\($0.declaredOn)\" (keyFields: \"\($0.keyFields.joined(separator: " "))\")" }
        throw GraphQLError(
          "Type \"\(type.name)\" inherits conflicting @typePolicy key fields from its interfaces "
            + list.joined(separator: " and ") + "; give \"\(type.name)\" a @typePolicy of its own",
          at: type.location ?? inherited[0].location)
      }
      if let policy = inherited.first { effectiveTypePolicies[type.name] = policy }
    }
  }

  private mutating func addFieldPolicy(_ directive: Directive, on typeName: String) throws(GraphQLError) {
    guard case .string(let fieldName)? = directive.argument("forField"), !fieldName.isEmpty else {
      throw GraphQLError("@fieldPolicy needs forField: a field name as a String", at: directive.location)
    }
    let keyArgs = try Self.names(in: directive, argument: "keyArgs").map { $0.split(separator: ".").map(String.init) }
    if fieldPolicies[typeName]?[fieldName] != nil {
      throw GraphQLError("\"\(typeName).\(fieldName)\" already has a @fieldPolicy", at: directive.location)
    }
    if let type = types[typeName], type.isDefined {
      guard let field = type.fields[fieldName] else {
        throw GraphQLError(
          "@fieldPolicy names field \"\(fieldName)\", which \"\(typeName)\" does not have", at: directive.location)
      }
      var listArguments = 0
      for path in keyArgs {
        guard let argument = field.arguments.first(where: { $0.name == path[0] }) else {
          throw GraphQLError(
            "@fieldPolicy key argument \"\(path.joined(separator: "."))\" is not an argument of \"\(typeName).\(fieldName)\"",
            at: directive.location)
        }
        var current = argument.type
        for component in path.dropFirst() {
          guard let input = types[current.namedType], input.kind == .inputObject,
            let next = input.inputFields[component]
          else {
            throw GraphQLError(
              "@fieldPolicy key argument \"\(path.joined(separator: "."))\": \"\(current.namedType)\" has no input field \"\(component)\"",
              at: directive.location)
          }
          current = next.type
        }
        if let named = types[current.namedType], named.kind == .inputObject {
          throw GraphQLError(
            "@fieldPolicy key argument \"\(path.joined(separator: "."))\" of \"\(typeName).\(fieldName)\" is the input object \"\(current)\", not a scalar: name one of its fields with dot notation (\"\(path.joined(separator: ".")).\(named.inputFields.keys.sorted().first ?? "field")\")",
            at: directive.location)
        }
        if current.isList { listArguments += 1 }
      }
      if field.type.isList, listArguments != 1 {
        throw GraphQLError(
          "@fieldPolicy on \"\(typeName).\(fieldName)\": a field returning a list needs exactly one list key argument, found \(listArguments)",
          at: directive.location)
      }
      if !field.type.isList, listArguments > 0 {
        throw GraphQLError(
          "@fieldPolicy on \"\(typeName).\(fieldName)\": a list key argument needs a field that returns a list",
          at: directive.location)
      }
    }
    fieldPolicies[typeName, default: [:]][fieldName] = FieldPolicy(
      typeName: typeName, fieldName: fieldName, keyArgs: keyArgs, location: directive.location)
  }

  /// The space-separated names of a String argument: `keyFields: "firstName lastName"`.
  private static func names(in directive: Directive, argument: String) throws(GraphQLError) -> [String] {
    guard case .string(let text)? = directive.argument(argument) else {
      throw GraphQLError("@\(directive.name) needs \(argument): a String of space-separated names", at: directive.location)
    }
    let names = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "," }).map(String.init)
    guard !names.isEmpty else {
      throw GraphQLError("@\(directive.name)(\(argument):) is empty", at: directive.location)
    }
    return names
  }
}

extension TypeKind {
  var article: String { self == .object || self == .interface || self == .enumeration || self == .inputObject ? "an" : "a" }
}
