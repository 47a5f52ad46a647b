import Support

/// Draws one operation over a ``SchemaModel``: its root fields and their arguments, and
/// selections nested to the configured depth with aliases, named and inline fragments.
///
/// Validity ([GraphQL spec §5](https://spec.graphql.org/October2021/#sec-Validation)) holds by
/// construction: fields exist on their parent types; fragments are on possible types; every
/// variable is defined once, used, and of its argument's type; a response key has one field
/// name and one set of arguments per object (object field names and aliases are unique across
/// the schema, a scalar's name fixes its type, and an aliased selection always has the same
/// arguments).
struct OperationBuilder {
  let schema: SchemaModel
  let config: GeneratorConfig
  private var random: SplitMix64
  private var variables: [VariableModel] = []
  private var fragments: [FragmentModel] = []
  private var fragmentNames = NameRegistry()
  /// Named fragments by type and remaining depth, for reuse (lookups only, never iterated).
  private var fragmentsByShape: [FragmentShape: Int] = [:]

  private struct FragmentShape: Hashable {
    let object: Int
    let depth: Int
  }

  init(schema: SchemaModel, config: GeneratorConfig, random: SplitMix64) {
    self.schema = schema
    self.config = config
    self.random = random
  }

  /// Builds an operation; `names` hands out unique operation names.
  mutating func build(names: inout NameRegistry) -> OperationModel {
    let entities = schema.rootFields.indices.filter {
      if case .entity = schema.rootFields[$0].kind { return true }
      return false
    }
    let lists = schema.rootFields.indices.filter { !entities.contains($0) }
    var roots: [Int] = []
    if !entities.isEmpty, random.chance(0.4) {
      roots.append(random.pick(entities))
      if random.chance(0.3) { roots.append(random.pick(lists)) }
    } else {
      roots.append(random.pick(lists))
      if lists.count > 1, random.chance(0.25) {
        roots.append(random.pick(lists.filter { $0 != roots[0] }))
      }
    }
    let first = schema.rootFields[roots[0]]
    let name: String
    if case .entity(let object) = first.kind {
      name = names.claim(schema.objects[object].name + "DetailQuery")
    } else {
      name = names.claim(Vocabulary.upperFirst(first.name) + "Query")
    }
    let rootSelections = roots.enumerated().map { position, field in rootSelection(field, position: position) }
    return OperationModel(name: name, variables: variables, rootFields: rootSelections, fragments: fragments)
  }

  private mutating func rootSelection(_ index: Int, position: Int) -> RootSelectionModel {
    let field = schema.rootFields[index]
    var arguments: [ArgumentModel] = []
    var sizeLimit: Int?
    let target: TypeReferenceModel
    switch field.kind {
    case .entity(let object):
      target = .object(object)
      for (keyIndex, key) in schema.objects[object].keyFields.enumerated() {
        declare(key.name, key.sdlType, .key(root: position, field: keyIndex))
        arguments.append(ArgumentModel(name: key.name, value: .variable(key.name)))
      }
    case .page(let pageTarget):
      target = pageTarget
      declare("page", "Int!", .page)
      arguments.append(ArgumentModel(name: "page", value: .variable("page")))
      if random.chance(0.5) {
        sizeLimit = config.listLength.max
        arguments.append(ArgumentModel(name: "size", value: .int(config.listLength.max)))
      }
      let filter = random.double()
      if filter < 0.25 {
        declare("filter", "FilterInput", .filter)
        arguments.append(ArgumentModel(name: "filter", value: .variable("filter")))
      } else if filter < 0.5 {
        declare("query", "String", .query)
        let order = random.pick(["ASC", "DESC"])
        arguments.append(
          ArgumentModel(name: "filter", value: .object([("query", .variable("query")), ("order", .enumValue(order))])))
      }
    case .search(let union):
      target = .union(union)
      sizeLimit = config.listLength.max
      if random.chance(0.5) {
        declare("input", "SearchInput!", .searchInput(size: config.listLength.max))
        arguments.append(ArgumentModel(name: "input", value: .variable("input")))
      } else {
        declare("text", "String!", .text)
        declare("page", "Int!", .page)
        let order = random.pick(["ASC", "DESC"])
        arguments.append(
          ArgumentModel(
            name: "input",
            value: .object([
              ("text", .variable("text")), ("page", .variable("page")), ("size", .int(config.listLength.max)),
              ("filter", .object([("order", .enumValue(order))])),
            ])))
      }
    }
    let alias = random.chance(0.2) ? "featured" + Vocabulary.upperFirst(field.name) : nil
    return RootSelectionModel(
      alias: alias, field: index, arguments: arguments, sizeLimit: sizeLimit,
      selections: selections(for: target, depth: config.depth))
  }

  private mutating func declare(_ name: String, _ type: String, _ role: VariableModel.Role) {
    guard !variables.contains(where: { $0.name == name }) else { return }
    variables.append(VariableModel(name: name, type: type, role: role))
  }

  /// The selection set of a field of this type, with `depth` object levels including this one.
  private mutating func selections(for target: TypeReferenceModel, depth: Int) -> [SelectionModel] {
    switch target {
    case .object(let object):
      return (random.chance(0.5) ? [.typename] : []) + concreteSelections(object, depth: depth)
    case .interface(let index):
      let interface = schema.interfaces[index]
      var result: [SelectionModel] = [.typename]
      if interface.hasTypePolicy { result.append(.key("id")) }
      for field in interface.scalarFields where random.chance(0.7) {
        result.append(.scalar(ScalarSelectionModel(alias: nil, field: field, argumentValue: nil)))
      }
      return result + memberSelections(interface.implementations, count: 2, depth: depth)
    case .union(let index):
      return [.typename] + memberSelections(schema.unions[index].members, count: 3, depth: depth)
    }
  }

  /// Fragments on some of the possible types of an abstract field; the others get only what is
  /// selected on the abstract type, plus their key fields when they have a key: an operation that
  /// left a keyed type's key out would store it under its path here and under its key elsewhere,
  /// and the two writes would not meet (Apollo's "always fetch the fields your keys use").
  private mutating func memberSelections(_ members: [Int], count: Int, depth: Int) -> [SelectionModel] {
    let chosen = random.sample(count, of: members.count).sorted()
    var result = chosen.map { position -> SelectionModel in
      let object = members[position]
      if let reused = reusableFragment(object, depth: depth) { return .fragmentSpread(reused) }
      if random.chance(0.3) { return .fragmentSpread(namedFragment(object, depth: depth)) }
      return .inlineFragment(.object(object), body(object, depth: depth))
    }
    for (position, object) in members.enumerated() where !chosen.contains(position) && schema.objects[object].isKeyed {
      result.append(.inlineFragment(.object(object), schema.objects[object].keyFields.map { .key($0.name) }))
    }
    return result
  }

  private mutating func concreteSelections(_ object: Int, depth: Int) -> [SelectionModel] {
    if let reused = reusableFragment(object, depth: depth) { return [.fragmentSpread(reused)] }
    if random.chance(0.2) { return [.fragmentSpread(namedFragment(object, depth: depth))] }
    return body(object, depth: depth)
  }

  /// A named fragment already made for this type and depth, half of the time.
  private mutating func reusableFragment(_ object: Int, depth: Int) -> Int? {
    guard let index = fragmentsByShape[FragmentShape(object: object, depth: depth)] else { return nil }
    return random.chance(0.5) ? index : nil
  }

  private mutating func namedFragment(_ object: Int, depth: Int) -> Int {
    let index = fragments.count
    let name = fragmentNames.claim(schema.objects[object].name + "Fields")
    fragments.append(FragmentModel(name: name, typeCondition: .object(object), selections: []))
    fragments[index].selections = body(object, depth: depth)
    fragmentsByShape[FragmentShape(object: object, depth: depth)] = index
    return index
  }

  /// Key fields, about three quarters of the scalar fields (some with arguments, some twice under
  /// an alias), and `fanOut` object fields when a level remains below.
  private mutating func body(_ object: Int, depth: Int) -> [SelectionModel] {
    let type = schema.objects[object]
    var result = type.keyFields.map { SelectionModel.key($0.name) }
    var scalars = type.scalarFields.filter { _ in random.chance(0.75) }
    if scalars.isEmpty { scalars = [type.scalarFields[0]] }
    for field in scalars {
      guard let argument = field.argument else {
        result.append(.scalar(ScalarSelectionModel(alias: nil, field: field, argumentValue: nil)))
        continue
      }
      let value = random.chance(0.3) ? nil : random.pick(argument.values)
      result.append(.scalar(ScalarSelectionModel(alias: nil, field: field, argumentValue: value)))
      let others = argument.values.filter { $0 != value }
      if random.chance(0.3), !others.isEmpty {
        let other = random.pick(others)
        let alias = SchemaModel.alias(of: field.name, value: other)
        result.append(.scalar(ScalarSelectionModel(alias: alias, field: field, argumentValue: other)))
      }
    }
    guard depth > 1 else { return result }
    var slots: [(alias: String?, field: ObjectFieldModel, first: Int?, orderBy: String?)] = []
    for fieldIndex in random.sample(config.fanOut, of: type.objectFields.count) {
      let field = type.objectFields[fieldIndex]
      let first = field.isList && random.chance(0.7) ? config.listLength.max : nil
      let orderBy = field.hasOrderBy && random.chance(0.5) ? random.pick(["ASC", "DESC"]) : nil
      slots.append((nil, field, first, orderBy))
    }
    // Now and then the last slot selects an earlier list field again, shorter, under an alias
    // (decided before any selection is drawn, so no fragment is made for a slot given up).
    let previewLength = max(1, config.listLength.max / 2)
    if slots.count > 1, random.chance(0.2),
      let listed = slots.dropLast().first(where: { $0.field.isList && $0.first != previewLength })
    {
      slots[slots.count - 1] = (listed.field.previewAlias, listed.field, previewLength, listed.orderBy)
    }
    var objectSelections: [ObjectSelectionModel] = []
    for slot in slots {
      objectSelections.append(
        ObjectSelectionModel(
          alias: slot.alias, field: slot.field, first: slot.first, orderBy: slot.orderBy,
          selections: selections(for: slot.field.target, depth: depth - 1)))
    }
    return result + objectSelections.map(SelectionModel.object)
  }
}
