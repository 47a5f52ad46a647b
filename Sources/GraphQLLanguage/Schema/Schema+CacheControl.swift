/// The `@cacheControl` directives of schema files as they are read, checked for where they stand,
/// before the schema knows every type.
struct CacheControlDirectives {
  var onTypes: [(type: String, control: CacheControl)] = []
  var onFields: [(type: String, field: String, control: CacheControl)] = []

  /// The directives of one type definition or extension, and of its fields.
  mutating func collect(_ definition: TypeDefinition) throws(GraphQLError) {
    let composite = definition.kind == .object || definition.kind == .interface || definition.kind == .union
    for directive in definition.directives {
      switch directive.name {
      case CacheControl.directiveName:
        guard composite else { throw Self.misplaced(directive, "\(definition.kind.article) \(definition.kind.rawValue) (\"\(definition.name)\")") }
        onTypes.append((definition.name, try CacheControl.parse(directive)))
      case CacheControl.fieldDirectiveName:
        guard definition.kind == .object || definition.kind == .interface else {
          throw GraphQLError(
            "@cacheControlField applies to object types and interfaces, not to \(definition.kind.article) \(definition.kind.rawValue) (\"\(definition.name)\")",
            at: directive.location)
        }
        guard case .string(let field)? = directive.argument("name"), !field.isEmpty else {
          throw GraphQLError("@cacheControlField needs name: the field's name as a String", at: directive.location)
        }
        onFields.append((definition.name, field, try CacheControl.parse(directive, extraArguments: ["name"])))
      default:
        break
      }
    }
    for field in definition.fields {
      for directive in field.directives where directive.name == CacheControl.fieldDirectiveName {
        throw GraphQLError(
          "@cacheControlField is for a type or its extension (extend type \(definition.name) @cacheControlField(name: \"\(field.name)\", maxAge: 60)), not for a field definition (\"\(definition.name).\(field.name)\"): write @cacheControl(maxAge: ...) on the field",
          at: directive.location)
      }
      if let control = try CacheControl.find(in: field.directives) { onFields.append((definition.name, field.name, control)) }
      for argument in field.arguments {
        try Self.refuse(argument.directives, on: "an argument (\"\(definition.name).\(field.name)(\(argument.name):)\")")
      }
    }
    for field in definition.inputFields {
      try Self.refuse(field.directives, on: "an input field (\"\(definition.name).\(field.name)\")")
    }
  }

  /// Refuses `@cacheControl` and `@cacheControlField` among `directives` of a place that takes neither.
  static func refuse(_ directives: [Directive], on place: String) throws(GraphQLError) {
    for directive in directives
    where directive.name == CacheControl.directiveName || directive.name == CacheControl.fieldDirectiveName {
      throw misplaced(directive, place)
    }
  }

  private static func misplaced(_ directive: Directive, _ place: String) -> GraphQLError {
    GraphQLError(
      "@\(directive.name) applies to object types, interfaces, unions and their fields, not to \(place)",
      at: directive.location)
  }
}

extension Schema {
  /// Records the directives once every type is known: each type-level one on a type of the schema,
  /// each field-level one on a field its type has (when a file defines the type), none twice, and
  /// no type or field left to choose between two interfaces that say different things.
  mutating func addCacheControls(_ directives: CacheControlDirectives) throws(GraphQLError) {
    for (typeName, control) in directives.onTypes {
      if let other = typeCacheControls[typeName] {
        throw GraphQLError("\"\(typeName)\" already has a @cacheControl (at \(other.location))", at: control.location)
      }
      typeCacheControls[typeName] = control
    }
    for (typeName, fieldName, control) in directives.onFields {
      if let type = types[typeName], type.isDefined, type.fields[fieldName] == nil {
        throw GraphQLError(
          "@cacheControlField names field \"\(fieldName)\", which \"\(typeName)\" does not have", at: control.location)
      }
      if let other = fieldCacheControls[typeName]?[fieldName] {
        throw GraphQLError(
          "\"\(typeName).\(fieldName)\" already has a @cacheControl (at \(other.location))", at: control.location)
      }
      fieldCacheControls[typeName, default: [:]][fieldName] = control
    }
    try checkInheritedCacheControls()
  }

  /// A type, or a field of it, that declares no `@cacheControl` of its own and implements
  /// interfaces declaring different ones is an error, as for `@typePolicy`: nothing says which wins.
  private func checkInheritedCacheControls() throws(GraphQLError) {
    for type in types.values.sorted(by: { $0.name < $1.name }) where type.kind == .object || type.kind == .interface {
      let interfaces = allInterfaces[type.name] ?? []
      if typeCacheControls[type.name] == nil {
        let inherited = interfaces.compactMap { name in typeCacheControls[name].map { (name, $0) } }
        try Self.checkAgree(inherited, owner: "Type \"\(type.name)\"", location: type.location)
      }
      var fieldNames = Set(type.fields.keys)
      for interface in interfaces {
        if let declared = fieldCacheControls[interface] { fieldNames.formUnion(declared.keys) }
      }
      for field in fieldNames.sorted() where fieldCacheControls[type.name]?[field] == nil {
        let inherited = interfaces.compactMap { name in fieldCacheControls[name]?[field].map { (name, $0) } }
        try Self.checkAgree(
          inherited, owner: "Field \"\(type.name).\(field)\"", location: type.fields[field]?.location ?? type.location)
      }
    }
  }

  private static func checkAgree(
    _ inherited: [(interface: String, control: CacheControl)], owner: String, location: SourceLocation?
  ) throws(GraphQLError) {
    guard let first = inherited.first, let other = inherited.first(where: { $0.control.setting != first.control.setting }) else {
      return
    }
    throw GraphQLError(
      "\(owner) inherits conflicting @cacheControl from its interfaces \"\(first.interface)\" (\(first.control.setting)) and \"\(other.interface)\" (\(other.control.setting)); give it a @cacheControl of its own",
      at: location ?? first.control.location)
  }

  // MARK: Resolution

  /// The `maxAge` of the field `name` read on an object of type `parentType` (docs/ttl.md, Apollo
  /// iOS 3.0's plan §4.1), in seconds; nil when nothing gives it one (the field never expires).
  ///
  /// Most specific first: the field's `@cacheControl` in the operation, then on the parent type's
  /// field in the schema, then on that field of the interfaces the parent implements. A field
  /// that none of these gives a `maxAge` takes the parent type's own (`@cacheControl` on the type,
  /// else on its interfaces) if it is a leaf; an object-typed field takes it only when
  /// `inheritMaxAge: true` is on the field or on the type it returns.
  /// ```swift
  /// schema.maxAge(ofField: "price", on: "Book", operation: nil)    // 60: the field's own
  /// schema.maxAge(ofField: "title", on: "Book", operation: nil)    // 3600: Book's, a scalar inherits
  /// schema.maxAge(ofField: "author", on: "Book", operation: nil)   // nil: an object does not
  /// ```
  /// - Parameter operation: the field's `@cacheControl` in the operation (``CacheControl/ofOperationField(_:)``).
  public func maxAge(ofField name: String, on parentType: String?, operation: CacheControl?) -> Int? {
    var inherits = false
    for control in [operation, fieldCacheControl(name, on: parentType)] {
      switch control?.setting {
      case .maxAge(let seconds)?: return seconds
      case .inherit?: inherits = true
      case nil: break
      }
    }
    guard let parentType else { return nil }
    if let returned = types[parentType]?.fields[name]?.type.namedType, let returnedType = types[returned], !returnedType.isLeaf {
      guard inherits || typeCacheControls[returned]?.setting == .inherit else { return nil }
    }
    return typeMaxAge(parentType)
  }

  /// The field's own `@cacheControl` on `typeName`, else on the first interface that has one.
  private func fieldCacheControl(_ name: String, on typeName: String?) -> CacheControl? {
    guard let typeName else { return nil }
    if let own = fieldCacheControls[typeName]?[name] { return own }
    for interface in allInterfaces[typeName] ?? [] {
      if let inherited = fieldCacheControls[interface]?[name] { return inherited }
    }
    return nil
  }

  /// The type's own `maxAge`, else the one its interfaces give.
  private func typeMaxAge(_ typeName: String) -> Int? {
    if case .maxAge(let seconds)? = typeCacheControls[typeName]?.setting { return seconds }
    for interface in allInterfaces[typeName] ?? [] {
      if case .maxAge(let seconds)? = typeCacheControls[interface]?.setting { return seconds }
    }
    return nil
  }

  /// Whether any type or field of the schema has a `@cacheControl`.
  public var hasCacheControls: Bool { !typeCacheControls.isEmpty || !fieldCacheControls.isEmpty }
}
