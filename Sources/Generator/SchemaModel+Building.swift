import Support

extension SchemaModel {
  /// Draws a schema for the knobs: which types are keyed and how, which implement which
  /// interfaces, the members of unions, every type's fields, and the root fields.
  init(config: GeneratorConfig, random: inout SplitMix64) {
    let nouns = Self.typeNames(count: config.types, random: &random)
    objects = nouns.map { ObjectTypeModel(name: $0.noun + $0.suffix) }
    assignKeys(config: config, random: &random)
    addInterfaces(count: config.interfaces, random: &random)
    addUnions(count: config.unions, random: &random)
    addScalarFields(perType: config.fieldsPerType, random: &random)
    addObjectFields(config: config, nouns: nouns, random: &random)
    addRootFields(nouns: nouns)
  }

  /// Type names from the noun list, shuffled by the seed; numbered once the list runs out.
  private static func typeNames(count: Int, random: inout SplitMix64) -> [(noun: String, suffix: String)] {
    var nouns = Vocabulary.typeNouns
    random.shuffle(&nouns)
    return (0..<count).map { index in
      let round = index / nouns.count
      return (nouns[index % nouns.count], round == 0 ? "" : String(round + 1))
    }
  }

  private mutating func assignKeys(config: GeneratorConfig, random: inout SplitMix64) {
    let keyed = config.keyedTypeCount
    let composite = Int((Double(keyed) * config.compositeKeyShare).rounded())
    var kinds = [Int](repeating: 1, count: keyed - composite) + [Int](repeating: 2, count: composite)
    kinds += [Int](repeating: 0, count: objects.count - keyed)
    random.shuffle(&kinds)
    for index in objects.indices {
      switch kinds[index] {
      case 1:
        objects[index].keyFields = [KeyFieldModel(name: "id", kind: .uuid, shift: 0, bits: 64)]
      case 2:
        let template = random.pick(Vocabulary.compositeKeys)
        let bits = template.count == 2 ? [32, 32] : [24, 20, 20]
        var shift = 64
        objects[index].keyFields = zip(template, bits).map { field, width in
          shift -= width
          return KeyFieldModel(
            name: field.name, kind: field.isInt ? .int : .string(prefix: field.prefix), shift: shift, bits: width)
        }
      default:
        break
      }
    }
  }

  /// About half the interfaces (when there are `id`-keyed types) are entities with
  /// `@typePolicy(keyFields: "id")` that `id`-keyed types inherit; the others are traits any type
  /// may have. Every policy is on `id`, so a type implementing two of them inherits no conflict.
  private mutating func addInterfaces(count: Int, random: inout SplitMix64) {
    let idKeyed = objects.indices.filter { objects[$0].keyFields.first?.kind == .uuid }
    let entityCount = idKeyed.isEmpty ? 0 : (count + 1) / 2
    var names = NameRegistry()
    let plainFields = Vocabulary.scalarFields.filter { $0.argument == nil }
    for index in 0..<count {
      let isEntity = index < entityCount
      let pool = isEntity ? Vocabulary.entityInterfaceNames : Vocabulary.traitInterfaceNames
      let name = names.claim(pool[(isEntity ? index : index - entityCount) % pool.count])
      let fields = random.sample(isEntity ? 1 : 1 + random.int(below: 2), of: plainFields.count).map { plainFields[$0] }
      var interface = InterfaceModel(name: name, hasTypePolicy: isEntity, scalarFields: fields)
      let candidates = isEntity ? idKeyed : Array(objects.indices)
      let implementations = random.sample(isEntity ? 2 : 2 + random.int(below: 2), of: candidates.count)
        .map { candidates[$0] }.sorted()
      for object in implementations {
        objects[object].interfaces.append(index)
        if isEntity, objects[object].inheritsPolicyFrom == nil { objects[object].inheritsPolicyFrom = index }
      }
      interface.implementations = implementations
      interfaces.append(interface)
    }
  }

  private mutating func addUnions(count: Int, random: inout SplitMix64) {
    var names = NameRegistry()
    for index in 0..<count {
      let name = names.claim(Vocabulary.unionNames[index % Vocabulary.unionNames.count])
      let members = random.sample(2 + random.int(below: 3), of: objects.count).sorted()
      unions.append(UnionModel(name: name, members: members))
    }
  }

  /// The interfaces' fields first, then distinct fields of the endless vocabulary.
  private mutating func addScalarFields(perType count: Int, random: inout SplitMix64) {
    let vocabularySize = max(Vocabulary.scalarFields.count, 2 * count)
    for index in objects.indices {
      var fields: [ScalarFieldModel] = []
      for interface in objects[index].interfaces {
        for field in interfaces[interface].scalarFields where !fields.contains(field) { fields.append(field) }
      }
      let wanted = max(count, fields.count)
      for candidate in random.sample(vocabularySize, of: vocabularySize) where fields.count < wanted {
        let field = Vocabulary.scalarField(candidate)
        if !fields.contains(where: { $0.name == field.name }) { fields.append(field) }
      }
      objects[index].scalarFields = fields
    }
  }

  /// `fanOut + 1` object fields per type, named after their targets (`relatedReviews`) and unique
  /// across the schema, so fragments on different types never select one response key with two
  /// shapes.
  private mutating func addObjectFields(
    config: GeneratorConfig, nouns: [(noun: String, suffix: String)], random: inout SplitMix64
  ) {
    var reserved = ["id", "__typename"] + Vocabulary.compositeKeys.flatMap { $0.map(\.name) }
    for object in objects {
      for field in object.scalarFields {
        reserved.append(field.name)
        for value in field.argument?.values ?? [] { reserved.append(Self.alias(of: field.name, value: value)) }
      }
    }
    var names = NameRegistry(reserved: reserved)
    for index in objects.indices {
      for _ in 0...config.fanOut {
        let draw = random.double()
        let target: TypeReferenceModel
        if !interfaces.isEmpty, draw < 0.15 {
          target = .interface(random.int(below: interfaces.count))
        } else if !unions.isEmpty, draw < 0.3 {
          target = .union(random.int(below: unions.count))
        } else {
          target = .object(random.int(below: objects.count))
        }
        let isList = random.chance(config.listShare)
        let hasOrderBy = random.chance(0.5)
        let role = random.pick(isList ? Vocabulary.listRoles : Vocabulary.singleRoles)
        let noun = self.noun(of: target, nouns: nouns)
        let name = names.claim(role + (isList ? noun.plural : noun.singular))
        objects[index].objectFields.append(
          ObjectFieldModel(
            name: name, target: target, isList: isList, hasOrderBy: isList && hasOrderBy,
            previewAlias: names.claim("preview" + Vocabulary.upperFirst(name))))
      }
    }
  }

  /// Entity fields by key for keyed types, paged lists for object types and interfaces, and a
  /// search for each union.
  private mutating func addRootFields(nouns: [(noun: String, suffix: String)]) {
    var names = NameRegistry()
    for index in objects.indices where objects[index].isKeyed {
      rootFields.append(
        RootFieldModel(name: names.claim(Vocabulary.lowerFirst(objects[index].name)), kind: .entity(index)))
    }
    let pages = objects.indices.map { TypeReferenceModel.object($0) } + interfaces.indices.map { .interface($0) }
    for target in pages {
      let name = Vocabulary.lowerFirst(noun(of: target, nouns: nouns).plural)
      rootFields.append(RootFieldModel(name: names.claim(name), kind: .page(target)))
    }
    for index in unions.indices {
      let name = Vocabulary.lowerFirst(noun(of: .union(index), nouns: nouns).plural)
      rootFields.append(RootFieldModel(name: names.claim(name), kind: .search(index)))
    }
  }

  /// How fields name a target: `Category` and `Categories` (`Category2s` stays `Categories2`),
  /// `Node` and `Nodes`, and for a trait interface `NamedItem` and `NamedItems`.
  private func noun(
    of target: TypeReferenceModel, nouns: [(noun: String, suffix: String)]
  ) -> (singular: String, plural: String) {
    switch target {
    case .object(let index):
      let (noun, suffix) = nouns[index]
      return (noun + suffix, Vocabulary.plural(noun) + suffix)
    case .interface(let index) where !interfaces[index].hasTypePolicy:
      return (interfaces[index].name + "Item", interfaces[index].name + "Items")
    default:
      let typeName = name(of: target)
      return (typeName, Vocabulary.plural(typeName))
    }
  }

  /// The alias of a scalar field selected with one argument value: `priceEur`, `excerpt40`.
  static func alias(of field: String, value: String) -> String {
    field + Vocabulary.upperFirst(value)
  }
}
