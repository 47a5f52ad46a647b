import GraphQLLanguage

/// What every response of a workload shares: the schema, the knobs, the identity space and the
/// reuse distribution.
struct Generation: Sendable {
  let config: GeneratorConfig
  let schema: SchemaModel
  let identities: IdentitySpace
  let responseSalt: UInt64
  let zipf: ZipfDistribution
  /// `"Product"`, quoted, by object type.
  let typenameJSON: [String]
  /// Each enum's values, quoted, by enum name (looked up, never iterated).
  let enumValueJSON: [String: [String]]

  init(seed: UInt64, config: GeneratorConfig, schema: SchemaModel) {
    self.config = config
    self.schema = schema
    identities = IdentitySpace(salt: StableHash.combine(seed, StableHash.fnv1a("identity")))
    responseSalt = StableHash.combine(seed, StableHash.fnv1a("response"))
    zipf = ZipfDistribution(count: config.poolSize, exponent: config.zipf)
    typenameJSON = schema.objects.map { JSONWriter.string(.string($0.name)) }
    var enums: [String: [String]] = [:]
    for (name, values) in Vocabulary.enums { enums[name] = values.map { JSONWriter.string(.string($0)) } }
    enumValueJSON = enums
  }
}
