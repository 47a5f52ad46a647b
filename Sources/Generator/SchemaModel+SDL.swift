extension SchemaModel {
  /// The schema as SDL ([GraphQL spec §3](https://spec.graphql.org/October2021/#sec-Type-System)):
  /// enums, inputs, interfaces, object types, unions and `Query`, without cache directives.
  func schemaSDL(header: String) -> String {
    var text = "# \(header)\n"
    for (name, values) in Vocabulary.enums {
      text += "\nenum \(name) {\n" + values.map { "  \($0)\n" }.joined() + "}\n"
    }
    text += """

      input FilterInput {
        query: String
        order: SortOrder
        status: Status
      }

      input SearchInput {
        text: String!
        page: Int!
        size: Int
        filter: FilterInput
      }

      """
    for interface in interfaces {
      text += "\ninterface \(interface.name) {\n"
      if interface.hasTypePolicy { text += "  id: ID!\n" }
      for field in interface.scalarFields { text += "  " + Self.sdl(field) + "\n" }
      text += "}\n"
    }
    for object in objects { text += objectSDL(object) }
    for union in unions {
      text += "\nunion \(union.name) = " + union.members.map { objects[$0].name }.joined(separator: " | ") + "\n"
    }
    text += "\ntype Query {\n"
    for field in rootFields {
      switch field.kind {
      case .entity(let object):
        let arguments = objects[object].keyFields.map { "\($0.name): \($0.sdlType)" }.joined(separator: ", ")
        text += "  \(field.name)(\(arguments)): \(objects[object].name)\n"
      case .page(let target):
        text += "  \(field.name)(page: Int!, size: Int, filter: FilterInput): [\(name(of: target))!]!\n"
      case .search(let union):
        text += "  \(field.name)(input: SearchInput!): [\(unions[union].name)!]!\n"
      }
    }
    return text + "}\n"
  }

  /// One object type: its key fields, scalar fields and fields of object types.
  private func objectSDL(_ object: ObjectTypeModel) -> String {
    var text = "\ntype \(object.name)"
    if !object.interfaces.isEmpty {
      text += " implements " + object.interfaces.map { interfaces[$0].name }.joined(separator: " & ")
    }
    text += " {\n"
    for key in object.keyFields { text += "  \(key.name): \(key.sdlType)\n" }
    for field in object.scalarFields { text += "  " + Self.sdl(field) + "\n" }
    for field in object.objectFields {
      let target = name(of: field.target)
      if field.isList {
        text += "  \(field.name)(first: Int\(field.hasOrderBy ? ", orderBy: SortOrder" : "")): [\(target)!]!\n"
      } else {
        text += "  \(field.name): \(target)\n"
      }
    }
    text += "}\n"
    return text
  }

  /// The cache directives as schema extensions, as Apollo iOS reads them from a `.graphqls` file:
  /// `@typePolicy` on interfaces and on keyed types that inherit none, `@fieldPolicy` on the
  /// entity fields of `Query`.
  ///
  /// The file starts by declaring the two directives, so that it is a valid document on its own
  /// (and not an empty one when no type is keyed) for any GraphQL tool.
  /// With `cacheControl`, the `@cacheControl` directives follow (``cacheControlLines(_:seed:)``).
  func extensionsSDL(header: String, cacheControl: CacheControlConfig? = nil, seed: UInt64 = 0) -> String {
    var text = "# \(header)\n\n"
    text += "directive @typePolicy(keyFields: String!) on OBJECT | INTERFACE\n"
    text += "directive @fieldPolicy(forField: String!, keyArgs: String!) repeatable on OBJECT\n"
    if cacheControl != nil { text += Self.cacheControlDeclarations }
    var lines: [String] = []
    for interface in interfaces where interface.hasTypePolicy {
      lines.append("extend interface \(interface.name) @typePolicy(keyFields: \"id\")")
    }
    for object in objects where object.isKeyed && object.inheritsPolicyFrom == nil {
      let keyFields = object.keyFields.map(\.name).joined(separator: " ")
      lines.append("extend type \(object.name) @typePolicy(keyFields: \"\(keyFields)\")")
    }
    for field in rootFields {
      guard case .entity(let object) = field.kind else { continue }
      let keyArgs = objects[object].keyFields.map(\.name).joined(separator: " ")
      lines.append("extend type Query @fieldPolicy(forField: \"\(field.name)\", keyArgs: \"\(keyArgs)\")")
    }
    if let cacheControl { lines += cacheControlLines(cacheControl, seed: seed) }
    if !lines.isEmpty { text += "\n" + lines.joined(separator: "\n") + "\n" }
    return text
  }

  private static func sdl(_ field: ScalarFieldModel) -> String {
    guard let argument = field.argument else { return "\(field.name): \(field.kind.sdl)" }
    return "\(field.name)(\(argument.name): \(argument.type)): \(field.kind.sdl)"
  }
}
