import Support

/// The operations of `generator.narrowReads` (docs/workloads.md): for each keyed type, a list
/// screen that reads a few of its fields and a detail screen that reads them all, so that a read
/// projected to its selection has fields to leave behind.
///
/// Keyed type `T` with key `id` and scalar fields `f1 … fn` gives
/// ```graphql
/// query TListQuery { ts(page: 1) { __typename id f1 … fk } }
/// query TDetailQuery($id: ID!) { t(id: $id) { __typename id f1 … fn } }
/// ```
/// Both draw their objects from the type's pool (a list's elements with probability
/// `duplication`, as every list's; the detail's entity likewise), so the list reads records the
/// details wrote whole. The list is always page 1, fetched again with new elements, as a list
/// screen is: a page a response would grow `QUERY_ROOT` by a list field each, until the root
/// record, loaded by every read, outweighed the entities (200 responses of lists of 100: 10,000
/// references). A later list then changes what an earlier one reads back, so such a workload
/// needs `"read": {"verify": false}`. No draw is made here: the types' fields are already the
/// seed's.
struct NarrowReadOperations {
  /// The keyed types, in schema order; operation `2t` is type `t`'s list, `2t + 1` its detail.
  let types: [Int]
  let share: Double

  init(schema: SchemaModel, config: NarrowReadsConfig) {
    types = schema.objects.indices.filter { schema.objects[$0].isKeyed }
    share = config.share
    precondition(!types.isEmpty, "narrowReads needs a keyed type; validate() says so")
  }

  /// Two operations a keyed type: its narrow list, then its whole detail.
  func models(schema: SchemaModel, fields: Int, names: inout NameRegistry) -> [OperationModel] {
    types.flatMap { object in
      [list(object, schema: schema, fields: fields, names: &names), detail(object, schema: schema, names: &names)]
    }
  }

  /// Response `index` reads type `index mod T`, by its list with probability `share` (a draw of
  /// its own per response, from `salt`), else by its detail.
  func operationIndex(response index: Int, salt: UInt64) -> Int {
    var random = SplitMix64(seed: StableHash.combine(salt, UInt64(index), 0x4E52))
    let narrow = random.double() < share
    return 2 * (index % types.count) + (narrow ? 0 : 1)
  }

  /// Whether operation `index` is a narrow one.
  static func isNarrow(operation index: Int) -> Bool { index % 2 == 0 }

  private func list(_ object: Int, schema: SchemaModel, fields: Int, names: inout NameRegistry) -> OperationModel {
    guard
      let root = schema.rootFields.firstIndex(where: {
        if case .page(.object(object)) = $0.kind { return true }
        return false
      })
    else { preconditionFailure("\(schema.objects[object].name) has no page field") }
    let type = schema.objects[object]
    return OperationModel(
      name: names.claim(type.name + "ListQuery"),
      variables: [],
      rootFields: [
        RootSelectionModel(
          alias: nil, field: root, arguments: [ArgumentModel(name: "page", value: .int(1))], sizeLimit: nil,
          selections: Self.selections(type, scalars: type.scalarFields.prefix(fields)))
      ],
      fragments: [])
  }

  private func detail(_ object: Int, schema: SchemaModel, names: inout NameRegistry) -> OperationModel {
    guard
      let root = schema.rootFields.firstIndex(where: {
        if case .entity(object) = $0.kind { return true }
        return false
      })
    else { preconditionFailure("\(schema.objects[object].name) has no entity field") }
    let type = schema.objects[object]
    let variables = type.keyFields.enumerated().map { index, key in
      VariableModel(name: key.name, type: key.sdlType, role: .key(root: 0, field: index))
    }
    return OperationModel(
      name: names.claim(type.name + "DetailQuery"),
      variables: variables,
      rootFields: [
        RootSelectionModel(
          alias: nil, field: root, arguments: type.keyFields.map { ArgumentModel(name: $0.name, value: .variable($0.name)) },
          sizeLimit: nil, selections: Self.selections(type, scalars: type.scalarFields[...]))
      ],
      fragments: [])
  }

  /// `__typename`, the key fields, then the scalars, each once and without its argument.
  private static func selections(_ type: ObjectTypeModel, scalars: ArraySlice<ScalarFieldModel>) -> [SelectionModel] {
    [.typename] + type.keyFields.map { .key($0.name) }
      + scalars.map { .scalar(ScalarSelectionModel(alias: nil, field: $0, argumentValue: nil)) }
  }
}
