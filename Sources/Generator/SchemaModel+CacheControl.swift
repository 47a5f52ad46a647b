import Support

extension SchemaModel {
  /// The `@cacheControl` directives of `generator.cacheControl` as schema extension lines
  /// (docs/ttl.md): a `maxAge` on a share of the object types, which their scalar fields inherit,
  /// and one on a share of the fields of every object type and of `Query`
  /// (`@cacheControlField(name:)`, since an extension cannot add a directive to a field the schema
  /// file defines); an object-typed field chosen for one takes `inheritMaxAge: true` half the time
  /// instead. Drawn from a stream of their own (`seed`), in the schema's order.
  func cacheControlLines(_ config: CacheControlConfig, seed: UInt64) -> [String] {
    var draw = CacheControlDraw(config: config, random: SplitMix64(seed: StableHash.combine(seed, StableHash.fnv1a("cacheControl"))))
    var lines: [String] = []
    for object in objects {
      if draw.random.chance(config.share) { lines.append("extend type \(object.name) @cacheControl(maxAge: \(draw.maxAge()))") }
      for field in object.keyFields.map(\.name) + object.scalarFields.map(\.name) {
        if let line = draw.fieldLine(object.name, field, isObject: false) { lines.append(line) }
      }
      for field in object.objectFields {
        if let line = draw.fieldLine(object.name, field.name, isObject: true) { lines.append(line) }
      }
    }
    for field in rootFields {
      if let line = draw.fieldLine("Query", field.name, isObject: true) { lines.append(line) }
    }
    return lines
  }

  /// The declarations the lines above need, so that the extensions file stays a valid document
  /// for any GraphQL tool.
  static let cacheControlDeclarations = """
    directive @cacheControl(maxAge: Int, inheritMaxAge: Boolean) on FIELD_DEFINITION | OBJECT | INTERFACE | UNION | FIELD
    directive @cacheControlField(name: String!, maxAge: Int, inheritMaxAge: Boolean) repeatable on OBJECT | INTERFACE

    """
}

/// The draws of ``SchemaModel/cacheControlLines(_:seed:)``.
private struct CacheControlDraw {
  let config: CacheControlConfig
  var random: SplitMix64

  mutating func maxAge() -> Int {
    random.chance(config.zeroShare) ? 0 : random.int(in: config.maxAge.range)
  }

  /// A field's line, for a share of the fields.
  mutating func fieldLine(_ type: String, _ field: String, isObject: Bool) -> String? {
    guard random.chance(config.share) else { return nil }
    if isObject, random.chance(0.5) {
      return "extend type \(type) @cacheControlField(name: \"\(field)\", inheritMaxAge: true)"
    }
    return "extend type \(type) @cacheControlField(name: \"\(field)\", maxAge: \(maxAge()))"
  }
}
