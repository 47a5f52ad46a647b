/// An operation as the generator builds it: rendered as GraphQL text for the files, compiled for
/// the response writer, so both come from one description.
struct OperationModel: Sendable {
  let name: String
  var variables: [VariableModel]
  var rootFields: [RootSelectionModel]
  var fragments: [FragmentModel]
}

/// `$name: Type`, and where its per-response value comes from.
struct VariableModel: Sendable, Hashable {
  enum Role: Sendable, Hashable {
    /// The page number: the response index plus one, so page fields never repeat a field key.
    case page
    /// One key field of the entity a root entity field fetches.
    case key(root: Int, field: Int)
    /// A `FilterInput`'s `query` string.
    case query
    /// A whole `FilterInput`.
    case filter
    /// A `SearchInput`'s `text`.
    case text
    /// A whole `SearchInput`, with `size` when given.
    case searchInput(size: Int?)
  }

  let name: String
  let type: String
  let role: Role
}

/// A field of `Query` as selected.
struct RootSelectionModel: Sendable {
  let alias: String?
  /// Index into ``SchemaModel/rootFields``.
  let field: Int
  let arguments: [ArgumentModel]
  /// The most objects a page or search returns (`size`), when the operation says.
  let sizeLimit: Int?
  let selections: [SelectionModel]
}

struct ArgumentModel: Sendable {
  indirect enum Value: Sendable {
    case int(Int)
    case enumValue(String)
    case variable(String)
    case object([(name: String, value: Value)])

    /// As written in a document: `5`, `DESC`, `$page`, `{query: $query, order: DESC}`.
    var text: String {
      switch self {
      case .int(let int): String(int)
      case .enumValue(let value): value
      case .variable(let name): "$" + name
      case .object(let fields): "{" + fields.map { "\($0.name): \($0.value.text)" }.joined(separator: ", ") + "}"
      }
    }
  }

  let name: String
  let value: Value
}

indirect enum SelectionModel: Sendable {
  case typename
  /// A key field, by name: `id`, `sku`.
  case key(String)
  case scalar(ScalarSelectionModel)
  case object(ObjectSelectionModel)
  case inlineFragment(TypeReferenceModel, [SelectionModel])
  /// Index into ``OperationModel/fragments``.
  case fragmentSpread(Int)
}

struct ScalarSelectionModel: Sendable {
  let alias: String?
  let field: ScalarFieldModel
  /// The argument's literal, when given.
  let argumentValue: String?

  var responseKey: String { alias ?? field.name }

  /// The key the field is stored under (docs/keys.md): `price` or `price(currency:EUR)`.
  var fieldKey: String {
    guard let argumentValue, let argument = field.argument else { return field.name }
    return "\(field.name)(\(argument.name):\(argumentValue))"
  }
}

struct ObjectSelectionModel: Sendable {
  let alias: String?
  let field: ObjectFieldModel
  let first: Int?
  let orderBy: String?
  let selections: [SelectionModel]

  var responseKey: String { alias ?? field.name }

  /// `relatedReviews(first:5,orderBy:DESC)`: arguments sorted by name, as field keys sort them.
  var fieldKey: String {
    var arguments: [String] = []
    if let first { arguments.append("first:\(first)") }
    if let orderBy { arguments.append("orderBy:\(orderBy)") }
    return arguments.isEmpty ? field.name : field.name + "(" + arguments.joined(separator: ",") + ")"
  }
}

struct FragmentModel: Sendable {
  let name: String
  let typeCondition: TypeReferenceModel
  var selections: [SelectionModel]
}
