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
        guard composite else {
          throw Self.misplaced(directive, "\(definition.kind.article) \(definition.kind.rawValue) (\"\(definition.name)\")")
        }
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

  /// The `maxAge` of the field `name` read on an object of type `parentType` reached through a
  /// field whose `maxAge` was `parentMaxAge` (docs/ttl.md#cachecontrol), and what the fields below
  /// it inherit:
  ///
  /// 1. the field's `@cacheControl(maxAge:)` in the operation, then on the parent type's field in
  ///    the schema, then on that field of the interfaces the parent implements;
  /// 2. `inheritMaxAge: true` there, or on the type an object-typed field returns: the parent
  ///    field's;
  /// 3. a leaf (a scalar or an enum) without either: the parent field's;
  /// 4. an object-typed field without either has none (a reference is not aged by the type it
  ///    points to), and the fields below it inherit the type of the object there: its own
  ///    `maxAge` (its runtime type's, else the field's type's).
  ///
  /// So a scalar takes its parent field's resolved `maxAge`, as in Apollo Server and Apollo iOS's
  /// cache-control samples: the type's when the parent field took the type's, the field's own when
  /// it has one (`books @cacheControl(maxAge: 900) { id }`: 900), an inherited one when it
  /// inherits.
  /// ```swift
  /// schema.maxAge(ofField: "price", on: "Book", operation: nil, parentMaxAge: 3600).checked    // 60: the field's own
  /// schema.maxAge(ofField: "title", on: "Book", operation: nil, parentMaxAge: 3600).checked    // 3600: a scalar inherits
  /// schema.maxAge(ofField: "author", on: "Book", operation: nil, parentMaxAge: 3600).checked   // nil: a reference
  /// ```
  /// - Parameter operation: the field's `@cacheControl` in the operation (``CacheControl/ofOperationField(_:)``).
  public func maxAge(ofField name: String, on parentType: String?, operation: CacheControl?, parentMaxAge: Int?) -> FieldMaxAge {
    var inherits = false
    for control in [operation, fieldCacheControl(name, on: parentType)] {
      switch control?.setting {
      case .maxAge(let seconds)?: return FieldMaxAge(checked: seconds, inherited: .fixed(seconds))
      case .inherit?: inherits = true
      case nil: break
      }
    }
    let fromParent = FieldMaxAge(checked: parentMaxAge, inherited: .fixed(parentMaxAge))
    if inherits { return fromParent }
    guard let parentType, let returned = types[parentType]?.fields[name]?.type.namedType, let returnedType = types[returned],
      !returnedType.isLeaf
    else { return fromParent }
    return typeCacheControl(returned)?.setting == .inherit ? fromParent : FieldMaxAge(checked: nil, inherited: .ofType)
  }

  /// The `maxAge` a read checks the field `name` by, read on an object of type `parentType`
  /// reached through a field that took its `maxAge` from that type (the common case, and a
  /// fragment read from a record of that type): ``maxAge(ofField:on:operation:parentMaxAge:)``
  /// with the type's own as the parent's.
  /// ```swift
  /// schema.maxAge(ofField: "title", on: "Book", operation: nil)    // 3600: Book's, a scalar inherits
  /// schema.maxAge(ofField: "author", on: "Book", operation: nil)   // nil: a reference
  /// ```
  public func maxAge(ofField name: String, on parentType: String?, operation: CacheControl?) -> Int? {
    maxAge(ofField: name, on: parentType, operation: operation, parentMaxAge: parentType.flatMap(typeMaxAge)).checked
  }

  /// The `maxAge` the field resolves to as Apollo Server resolves it (the cache-control samples'
  /// figures): ``maxAge(ofField:on:operation:parentMaxAge:)``'s, and for an object-typed field
  /// whose `maxAge` comes from its type, the type's own (none without one).
  public func resolvedMaxAge(ofField name: String, on parentType: String?, operation: CacheControl?, parentMaxAge: Int?) -> Int? {
    switch maxAge(ofField: name, on: parentType, operation: operation, parentMaxAge: parentMaxAge).inherited {
    case .fixed(let seconds): seconds
    case .ofType: parentType.flatMap { types[$0]?.fields[name]?.type.namedType }.flatMap(typeMaxAge)
    }
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

  /// The type's own `maxAge`, else the one its interfaces give: what a field that returns it takes
  /// (nil when it has none, or only inherits).
  public func typeMaxAge(_ typeName: String) -> Int? {
    if case .maxAge(let seconds)? = typeCacheControl(typeName)?.setting { return seconds }
    return nil
  }

  /// The type's own `@cacheControl`, else the first of its interfaces' (they agree: checked when
  /// the schema is built).
  private func typeCacheControl(_ typeName: String) -> CacheControl? {
    if let own = typeCacheControls[typeName] { return own }
    for interface in allInterfaces[typeName] ?? [] {
      if let inherited = typeCacheControls[interface] { return inherited }
    }
    return nil
  }

  /// Whether any type or field of the schema has a `@cacheControl`.
  public var hasCacheControls: Bool { !typeCacheControls.isEmpty || !fieldCacheControls.isEmpty }
}

/// A field's `maxAge` (``Schema/maxAge(ofField:on:operation:parentMaxAge:)``): the one a read checks
/// it by, and the one the fields below it take as their parent's.
public struct FieldMaxAge: Hashable, Sendable {
  /// What a read checks the field's value by; nil: it never expires.
  public let checked: Int?
  /// What the fields below it take as their parent field's `maxAge`.
  public let inherited: InheritedMaxAge
}

/// What the fields below a field take as their parent field's `maxAge`.
public enum InheritedMaxAge: Hashable, Sendable {
  /// The field's own (a directive on it gave it, or it inherited its parent's); nil: none.
  case fixed(Int?)
  /// The own `maxAge` of the type of the object below (its runtime type's, else the field's type's).
  case ofType
}
