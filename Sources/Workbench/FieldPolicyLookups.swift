import Generator
import GraphQLLanguage
import NormalizedCache
import Support

/// Reads of single entities through the root fields that have a `@fieldPolicy`: for a written key
/// `Book:123` and `book(id:)` with `keyArgs: "id"`, the operation `{ book(id: "123") { id } }`.
/// They measure what a field policy is for: finding an object without a network request.
struct FieldPolicyLookup {
  let key: CacheKey
  let plan: OperationPlan
}

enum FieldPolicyLookups {
  /// Up to `count` lookups over the root query type's single-object field policies, choosing
  /// existing keys of each policy's return type at random from the seed.
  static func make(schema: Schema, keys: [CacheKey], count: Int, seed: UInt64) throws -> [FieldPolicyLookup] {
    guard count > 0 else { return [] }
    let rootType = schema.rootTypeName(for: .query)
    let policies = (schema.fieldPolicies[rootType] ?? [:]).values.sorted { $0.fieldName < $1.fieldName }
    var candidates: [(policy: FieldPolicy, field: FieldDefinition, keys: [CacheKey], selection: [String])] = []
    for policy in policies {
      guard let field = schema.field(policy.fieldName, on: rootType), !field.type.isList else { continue }
      let typeName = field.type.namedType
      let selection =
        schema.typePolicy(for: typeName)?.keyFields
        ?? (schema.field("id", on: typeName) != nil ? ["id"] : [])
      let prefix = typeName + ":"
      let matching = keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains(".") }
      if !selection.isEmpty, !matching.isEmpty { candidates.append((policy, field, matching, selection)) }
    }
    guard !candidates.isEmpty else { return [] }
    var random = SplitMix64(seed: seed)
    var lookups: [FieldPolicyLookup] = []
    var attempts = 0
    while lookups.count < count, attempts < count * 4 {
      attempts += 1
      let candidate = candidates[Int(random.next() % UInt64(candidates.count))]
      let key = candidate.keys[Int(random.next() % UInt64(candidate.keys.count))]
      let id = String(key.dropFirst(candidate.field.type.namedType.count + 1))
      let parts = splitEscaped(id)
      guard parts.count == candidate.policy.keyArgs.count else { continue }
      var arguments = JSONObject()
      for (path, value) in zip(candidate.policy.keyArgs, parts) {
        arguments = setting(value, at: path, in: arguments, field: candidate.field, schema: schema)
      }
      let argumentText = arguments.members.map { "\($0.key): \(literal($0.value))" }.joined(separator: ", ")
      let text =
        "query FieldPolicyLookup { \(candidate.policy.fieldName)(\(argumentText)) { \(candidate.selection.joined(separator: " ")) } }"
      let document = try ExecutableDocument(parsing: [Source(name: "field-policy lookup", text: text)])
      lookups.append(FieldPolicyLookup(key: key, plan: try OperationPlan(document: document, schema: schema)))
    }
    return lookups
  }

  /// The key-field values of an ID: split on unescaped `+`, with `\+` and `\\` unescaped.
  static func splitEscaped(_ id: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var escaping = false
    for character in id {
      if escaping {
        current.append(character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == "+" {
        parts.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    parts.append(current)
    return parts
  }

  /// Sets `value` at a key argument's path, typed as the argument (or input field) declares.
  private static func setting(_ value: String, at path: [String], in object: JSONObject, field: FieldDefinition, schema: Schema)
    -> JSONObject
  {
    var type = field.arguments.first { $0.name == path[0] }?.type
    for component in path.dropFirst() {
      type = type.flatMap { schema.type(named: $0.namedType)?.inputFields[component]?.type }
    }
    let typed: JSONValue =
      switch type?.namedType {
      case "Int": Int(value).map(JSONValue.int) ?? .string(value)
      case "Float": Double(value).map(JSONValue.double) ?? .string(value)
      default: .string(value)
      }
    func set(_ components: ArraySlice<String>, in object: JSONObject) -> JSONObject {
      var object = object
      guard let first = components.first else { return object }
      if components.count == 1 {
        object[first] = typed
      } else {
        object[first] = .object(set(components.dropFirst(), in: object[first]?.objectValue ?? JSONObject()))
      }
      return object
    }
    return set(path[...], in: object)
  }

  /// A JSON value as a GraphQL literal.
  private static func literal(_ value: JSONValue) -> String {
    switch value {
    case .object(let object): "{" + object.members.map { "\($0.key): \(literal($0.value))" }.joined(separator: ", ") + "}"
    case .array(let values): "[" + values.map(literal).joined(separator: ", ") + "]"
    default: JSONWriter.string(value)
    }
  }
}
