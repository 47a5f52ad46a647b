import GraphQLLanguage

/// An operation flattened for the response writer: for every place an object appears and every
/// type it may have there, the response keys in order, as
/// [CollectFields](https://spec.graphql.org/October2021/#CollectFields()) yields them (fragments
/// applied, one entry per response key), so a response matches its selections exactly.
struct CompiledOperation: Sendable {
  /// A place in the operation where an object appears.
  struct Position: Sendable {
    let possibleTypes: [Int]
    /// The fields of an object of `possibleTypes[i]`.
    let fields: [[Field]]
  }

  struct Field: Sendable {
    enum Kind: Sendable {
      case typename
      /// The key field of this index in the type's key.
      case key(Int)
      case scalar(ScalarKind)
      case object(position: Int, isList: Bool, limit: Int?)
    }

    /// `"responseKey":`, escaped, ready to append.
    let member: String
    /// Seeds the field's value from its object's identity: the same field key gives the same value.
    let fieldKeyHash: UInt64
    let kind: Kind
  }

  struct Root: Sendable {
    enum Kind: Sendable {
      case list(limit: Int?)
      case entity(object: Int)
    }

    let member: String
    let fieldKeyHash: UInt64
    let position: Int
    let kind: Kind
  }

  private(set) var positions: [Position] = []
  private(set) var roots: [Root] = []

  init(_ operation: OperationModel, schema: SchemaModel) {
    var compiler = Compiler(schema: schema, fragments: operation.fragments)
    for root in operation.rootFields {
      let field = schema.rootFields[root.field]
      let target: TypeReferenceModel
      let kind: Root.Kind
      switch field.kind {
      case .entity(let object):
        (target, kind) = (.object(object), .entity(object: object))
      case .page(let pageTarget):
        (target, kind) = (pageTarget, .list(limit: root.sizeLimit))
      case .search(let union):
        (target, kind) = (.union(union), .list(limit: root.sizeLimit))
      }
      let arguments = root.arguments.map { "\($0.name):\($0.value.text)" }.joined(separator: ",")
      roots.append(
        Root(
          member: Self.member(root.alias ?? field.name),
          fieldKeyHash: StableHash.fnv1a(field.name + "(" + arguments + ")"),
          position: compiler.compile([root.selections], target: target), kind: kind))
    }
    positions = compiler.positions
  }

  static func member(_ key: String) -> String {
    var writer = JSONWriter()
    writer.writeString(key)
    writer.append(":")
    return String(decoding: writer.bytes, as: UTF8.self)
  }
}

private struct Compiler {
  let schema: SchemaModel
  let fragments: [FragmentModel]
  var positions: [CompiledOperation.Position] = []

  init(schema: SchemaModel, fragments: [FragmentModel]) {
    self.schema = schema
    self.fragments = fragments
  }

  /// One response key's selections, merged: what a field contributes, and for an object field
  /// every selection set under that key.
  private struct Group {
    let responseKey: String
    let selection: SelectionModel
    var subselections: [[SelectionModel]]
  }

  mutating func compile(_ selectionSets: [[SelectionModel]], target: TypeReferenceModel) -> Int {
    let index = positions.count
    let possibleTypes = schema.possibleTypes(of: target)
    positions.append(CompiledOperation.Position(possibleTypes: possibleTypes, fields: []))
    var fieldsByType: [[CompiledOperation.Field]] = []
    for object in possibleTypes {
      var groups: [Group] = []
      var groupIndex: [String: Int] = [:]
      for selections in selectionSets {
        collect(selections, object: object, into: &groups, index: &groupIndex)
      }
      fieldsByType.append(groups.map { field(for: $0, object: object) })
    }
    positions[index] = CompiledOperation.Position(possibleTypes: possibleTypes, fields: fieldsByType)
    return index
  }

  private func collect(
    _ selections: [SelectionModel], object: Int, into groups: inout [Group], index: inout [String: Int]
  ) {
    for selection in selections {
      let responseKey: String
      var subselections: [SelectionModel]?
      switch selection {
      case .typename:
        responseKey = "__typename"
      case .key(let name):
        responseKey = name
      case .scalar(let scalar):
        responseKey = scalar.responseKey
      case .object(let field):
        responseKey = field.responseKey
        subselections = field.selections
      case .inlineFragment(let condition, let nested):
        if schema.condition(condition, appliesTo: object) {
          collect(nested, object: object, into: &groups, index: &index)
        }
        continue
      case .fragmentSpread(let fragmentIndex):
        let fragment = fragments[fragmentIndex]
        if schema.condition(fragment.typeCondition, appliesTo: object) {
          collect(fragment.selections, object: object, into: &groups, index: &index)
        }
        continue
      }
      if let existing = index[responseKey] {
        if let subselections { groups[existing].subselections.append(subselections) }
      } else {
        index[responseKey] = groups.count
        groups.append(
          Group(responseKey: responseKey, selection: selection, subselections: subselections.map { [$0] } ?? []))
      }
    }
  }

  private mutating func field(for group: Group, object: Int) -> CompiledOperation.Field {
    let member = CompiledOperation.member(group.responseKey)
    switch group.selection {
    case .typename:
      return .init(member: member, fieldKeyHash: 0, kind: .typename)
    case .key(let name):
      guard let keyIndex = schema.objects[object].keyFields.firstIndex(where: { $0.name == name }) else {
        preconditionFailure("key field \(name) selected on \(schema.objects[object].name), which has no such key field")
      }
      return .init(member: member, fieldKeyHash: StableHash.fnv1a(name), kind: .key(keyIndex))
    case .scalar(let scalar):
      return .init(member: member, fieldKeyHash: StableHash.fnv1a(scalar.fieldKey), kind: .scalar(scalar.field.kind))
    case .object(let selection):
      let position = compile(group.subselections, target: selection.field.target)
      return .init(
        member: member, fieldKeyHash: StableHash.fnv1a(selection.fieldKey),
        kind: .object(position: position, isList: selection.field.isList, limit: selection.first))
    case .inlineFragment, .fragmentSpread:
      preconditionFailure("fragments are collected, never grouped")
    }
  }
}
