import GraphQLLanguage

/// An operation prepared for one set of variables: its selections collected per runtime type, with
/// every field key rendered once, for the normalizer and the reader to walk responses and records.
///
/// ```swift
/// let plan = try OperationPlan(document: document, operationName: "GetBook", schema: schema, variables: ["id": "123"])
/// let normalized = try Normalizer(strategy: .typePolicy).normalize(response, plan: plan)
/// ```
/// Field collection follows [GraphQL's CollectFields](https://spec.graphql.org/October2021/#CollectFields()):
/// `@skip` and `@include`, fragment spreads and inline fragments, type conditions judged by the
/// schema. A type condition the schema cannot judge (no schema, an unknown type, an object without
/// `__typename`) matches leniently: its fields are stored when the response has them.
///
/// A plan memoizes as it goes, so it is not `Sendable`: use one per thread.
public final class OperationPlan {
  public let operation: OperationDefinition
  public let document: ExecutableDocument
  public let schema: Schema
  public let variables: VariableValues
  /// `QUERY_ROOT`, `MUTATION_ROOT` or `SUBSCRIPTION_ROOT`.
  public let rootKey: CacheKey
  /// The schema's root type for the operation: `Query` unless the schema says otherwise.
  public let rootTypeName: String
  let root: SelectionPlan
  /// Where selections that use no variables come from, when this plan shares them with other
  /// plans of its document (``SharedPlans``).
  private let shared: SharedPlans?

  /// - Throws: ``GraphQLError`` when the document has no such operation;
  ///   ``NormalizationError`` when a required variable is missing.
  public convenience init(
    document: ExecutableDocument, operationName: String? = nil, schema: Schema = .empty, variables: JSONObject = [:]
  ) throws {
    try self.init(document: document, operationName: operationName, schema: schema, variables: variables, shared: nil)
  }

  convenience init(
    document: ExecutableDocument, operationName: String?, schema: Schema, variables: JSONObject, shared: SharedPlans?
  ) throws {
    let operation = try document.operation(named: operationName)
    try self.init(
      operation: operation, document: document, schema: schema,
      variables: try VariableValues(operation: operation, given: variables), shared: shared)
  }

  /// What makes an operation's plan, without the memos a plan fills as it is used: `Sendable`, so
  /// that each thread can make a plan of its own from one (``init(_:)``).
  public struct Recipe: Sendable {
    let operation: OperationDefinition
    let document: ExecutableDocument
    let schema: Schema
    let variables: VariableValues
  }

  /// The recipe of this plan; nil for a fragment's plan (``init(fragment:document:schema:variables:)``).
  public var recipe: Recipe? {
    rootKey.isEmpty ? nil : Recipe(operation: operation, document: document, schema: schema, variables: variables)
  }

  /// A plan of the recipe's operation and variables, with memos of its own (and no sharing).
  public convenience init(_ recipe: Recipe) {
    self.init(operation: recipe.operation, document: recipe.document, schema: recipe.schema, variables: recipe.variables, shared: nil)
  }

  private init(
    operation: OperationDefinition, document: ExecutableDocument, schema: Schema, variables: VariableValues, shared: SharedPlans?
  ) {
    self.shared = shared
    self.operation = operation
    self.document = document
    self.schema = schema
    self.variables = variables
    switch operation.operationType {
    case .query: rootKey = RootKey.query
    case .mutation: rootKey = RootKey.mutation
    case .subscription: rootKey = RootKey.subscription
    }
    rootTypeName = schema.rootTypeName(for: operation.operationType)
    root = SelectionPlan(selections: [operation.selectionSet], staticType: rootTypeName, schema: schema)
  }

  /// A plan for a named fragment of the document, read from any record key (see
  /// ``ObjectSelection``): its root is the fragment's selection set on its type condition.
  /// Variables the fragment uses are the given ones; there are no definitions to check them by.
  /// - Throws: ``GraphQLError`` when the document has no such fragment.
  public init(fragment name: String, document: ExecutableDocument, schema: Schema = .empty, variables: JSONObject = [:]) throws {
    guard let fragment = document.fragments[name] else {
      let known = document.fragments.keys.sorted()
      throw GraphQLError(
        "no fragment named \(name) in the document"
          + (known.isEmpty ? "" : " (it has \(known.joined(separator: ", ")))"),
        at: nil)
    }
    operation = OperationDefinition(
      operationType: .query, name: name, selectionSet: fragment.selectionSet, location: fragment.location)
    self.document = document
    self.schema = schema
    self.variables = VariableValues(given: variables)
    shared = nil
    rootKey = ""
    rootTypeName = fragment.typeCondition
    root = SelectionPlan(selections: [fragment.selectionSet], staticType: fragment.typeCondition, schema: schema)
  }

  /// The fields to write or read for an object of this runtime type (nil: unknown).
  func selection(_ plan: SelectionPlan, runtimeType: String?) throws(NormalizationError) -> PlannedSelection {
    let type = runtimeType ?? ""
    // Objects at one place are mostly of one type: compare with the last before hashing.
    if plan.lastType == type, let last = plan.lastSelection { return last }
    if let cached = plan.byType[type] {
      plan.lastType = type
      plan.lastSelection = cached
      return cached
    }
    let collected = try collect(plan, runtimeType: runtimeType)
    plan.byType[type] = collected
    plan.lastType = type
    plan.lastSelection = collected
    return collected
  }

  private func collect(_ plan: SelectionPlan, runtimeType: String?) throws(NormalizationError) -> PlannedSelection {
    var order: [String] = []
    var groups: [String: (fields: [Field], conditional: Bool)] = [:]
    var visitedFragments: Set<String> = []

    func visit(_ selections: [Selection], conditional: Bool) throws(NormalizationError) {
      for selection in selections {
        switch selection {
        case .field(let field):
          guard try shouldInclude(field.directives) else { continue }
          let key = field.responseKey
          if var group = groups[key] {
            group.fields.append(field)
            group.conditional = group.conditional && conditional
            groups[key] = group
          } else {
            order.append(key)
            groups[key] = ([field], conditional)
          }
        case .inlineFragment(let fragment):
          guard try shouldInclude(fragment.directives) else { continue }
          guard let applies = judge(fragment.typeCondition, plan: plan, runtimeType: runtimeType) else {
            try visit(fragment.selectionSet, conditional: true)
            continue
          }
          if applies { try visit(fragment.selectionSet, conditional: conditional) }
        case .fragmentSpread(let spread):
          guard try shouldInclude(spread.directives), visitedFragments.insert(spread.name).inserted,
            let fragment = document.fragments[spread.name]
          else { continue }
          guard let applies = judge(fragment.typeCondition, plan: plan, runtimeType: runtimeType) else {
            try visit(fragment.selectionSet, conditional: true)
            continue
          }
          if applies { try visit(fragment.selectionSet, conditional: conditional) }
        }
      }
    }
    for selections in plan.selections { try visit(selections, conditional: false) }

    let parentType = runtimeType ?? plan.staticType
    var fields: [PlannedField] = []
    fields.reserveCapacity(order.count)
    var fieldKeys: Set<String> = []
    for responseKey in order {
      let group = groups[responseKey]!
      let first = group.fields[0]
      let fieldKey = try FieldKey.render(name: first.name, arguments: first.arguments, variables: variables)
      let definition = parentType.flatMap { schema.field(first.name, on: $0) }
      let subselections = group.fields.compactMap(\.selectionSet)
      let child =
        subselections.isEmpty
        ? nil : childPlan(subselections, of: group.fields, staticType: definition?.type.namedType)
      fields.append(
        PlannedField(
          responseKey: responseKey, name: first.name, arguments: first.arguments, fieldKey: fieldKey,
          definition: definition, child: child, isConditional: group.conditional,
          repeatsFieldKey: !fieldKeys.insert(fieldKey).inserted))
    }
    return PlannedSelection(
      fields: fields, selectsTypename: groups["__typename"] != nil,
      typePolicy: runtimeType.flatMap { schema.typePolicy(for: $0) } ?? plan.interfacePolicy)
  }

  /// The selection below a field: the one all plans of a ``SharedPlans`` share when nothing in it
  /// uses a variable (its collected fields are then the same for any variables), else this plan's own.
  private func childPlan(_ selections: [[Selection]], of fields: [Field], staticType: String?) -> SelectionPlan {
    let make = { SelectionPlan(selections: selections, staticType: staticType, schema: self.schema) }
    return shared?.selectionPlan(selections, below: fields, staticType: staticType, make: make) ?? make()
  }

  /// Whether a fragment applies: true, false, or nil when the schema cannot tell.
  private func judge(_ condition: String?, plan: SelectionPlan, runtimeType: String?) -> Bool? {
    guard let condition else { return true }
    if let runtimeType { return schema.typeCondition(condition, appliesTo: runtimeType) }
    guard let staticType = plan.staticType else { return nil }
    if condition == staticType { return true }
    // An object typed by an interface: a fragment on an interface it implements applies.
    if schema.interfaces(of: staticType).contains(condition) { return true }
    return nil
  }

  /// `@skip(if:)` and `@include(if:)`.
  private func shouldInclude(_ directives: [Directive]) throws(NormalizationError) -> Bool {
    for directive in directives where directive.name == "skip" || directive.name == "include" {
      guard let argument = directive.argument("if"),
        case .bool(let flag)? = try variables.resolve(argument)
      else {
        throw NormalizationError("@\(directive.name) needs if: a Boolean (at \(directive.location))", path: [])
      }
      if directive.name == "skip" ? flag : !flag { return false }
    }
    return true
  }

  /// The selection of the operation's root.
  var rootSelection: SelectionPlan { root }
}

/// A merged selection set below one field, with its collected fields memoized per runtime type.
final class SelectionPlan {
  let selections: [[Selection]]
  /// The named type of the field this selection is on, when the schema knows it.
  let staticType: String?
  /// The type an object here has when its response carries no `__typename`: the static type, if it
  /// is an object type.
  let inferredType: String?
  /// The `@typePolicy` of the static type when it is an interface: the key fields of an object
  /// here whose own type has none (or which the schema does not know), as Apollo's
  /// `cacheKey(for:inferredToImplementInterface:)`.
  let interfacePolicy: TypePolicy?
  var byType: [String: PlannedSelection] = [:]
  /// The selection used last, and its type.
  var lastType: String?
  var lastSelection: PlannedSelection?

  init(selections: [[Selection]], staticType: String?, schema: Schema) {
    self.selections = selections
    self.staticType = staticType
    if let staticType, schema.type(named: staticType)?.kind == .object {
      inferredType = staticType
    } else {
      inferredType = nil
    }
    if let staticType, schema.type(named: staticType)?.kind == .interface {
      interfacePolicy = schema.typePolicy(for: staticType)
    } else {
      interfacePolicy = nil
    }
  }
}

/// The fields of an object of one runtime type.
///
/// Classes, not structs: the walks copy them for every object, and a copy is then one retain
/// instead of one for each string and array inside.
final class PlannedSelection {
  let fields: [PlannedField]
  /// Whether `__typename` is selected explicitly.
  let selectsTypename: Bool
  /// The distinct field keys of the fields, in order: what a read of a record through this
  /// selection looks at (its dependent keys).
  let fieldKeys: [String]
  /// The `@typePolicy` that keys an object of this runtime type here: its type's own or inherited,
  /// else that of the interface the selection is on.
  let typePolicy: TypePolicy?

  /// Whether any field here has a `@fieldPolicy` on the parent type it is read under (one per
  /// selection: the selection is of one runtime type, or of the static type when there is none);
  /// nil until a read asks. One flag, not a cache per field: a run keeps a plan per response.
  private var hasFieldPolicies: Bool?

  /// Whether any field with a selection has a `@fieldPolicy` on `parentType` in `schema`.
  @inline(__always)
  func hasFieldPolicies(on parentType: String?, schema: Schema) -> Bool {
    if let known = hasFieldPolicies { return known }
    let found = parentType.map { parentType in
      fields.contains { $0.child != nil && schema.fieldPolicy(forField: $0.name, on: parentType) != nil }
    } ?? false
    hasFieldPolicies = found
    return found
  }

  /// The fields as a reader walks them (``ReadSteps``), made by the first read through this
  /// selection; the buffer is kept apart from its owner, so that reading it counts no reference.
  private var readStepsOwner: ReadSteps?
  private var readStepBuffer: UnsafeBufferPointer<ReadSteps.Step>?

  /// The steps of a read through this selection, valid while the selection lives.
  @inline(__always)
  func readSteps() -> UnsafeBufferPointer<ReadSteps.Step> {
    if let readStepBuffer { return readStepBuffer }
    let owner = ReadSteps(fields)
    readStepsOwner = owner
    readStepBuffer = owner.buffer
    return owner.buffer
  }

  init(fields: [PlannedField], selectsTypename: Bool, typePolicy: TypePolicy? = nil) {
    self.fields = fields
    self.selectsTypename = selectsTypename
    self.typePolicy = typePolicy
    fieldKeys = fields.filter { !$0.repeatsFieldKey }.map(\.fieldKey)
  }
}

/// A selection's fields as the reader walks them for thousands of records: plain values and
/// unowned references, so that a walk counts no references but the response keys it puts in
/// the response (a field's class, its child plan and its name's bytes were retained and released
/// for every field of every record).
final class ReadSteps {
  struct Step {
    let name: RecordCodec.FieldName.Probe
    let responseKey: String
    /// The field, for what is rare: field policies, misses, nulls and lists checked against the schema.
    let field: Unmanaged<PlannedField>
    let child: Unmanaged<SelectionPlan>?
    let isConditional: Bool
    /// Whether the schema's type of the field is non-null at some level: a null or a list there is checked.
    let checksNulls: Bool
  }

  /// The steps, in the selection's order; valid while this lives.
  let buffer: UnsafeBufferPointer<Step>
  /// The field keys' encoded prefixes, one after another, which the steps' probes point into.
  private let prefixes: UnsafeMutableRawBufferPointer
  /// The fields the steps point to, kept alive with them.
  private let fields: [PlannedField]

  /// Three allocations, whatever the number of fields: a plan made for one response is read once.
  init(_ fields: [PlannedField]) {
    self.fields = fields
    let encoded = RecordCodec.FieldName.prefixes(of: fields.lazy.map(\.fieldKey))
    prefixes = .allocate(byteCount: max(encoded.count, 1), alignment: 8)
    prefixes.copyBytes(from: encoded)
    let steps = UnsafeMutableBufferPointer<Step>.allocate(capacity: fields.count)
    var offset = 0
    for (index, field) in fields.enumerated() {
      // The prefix's length: its varint and the name.
      var end = offset
      let nameLength = Int(RecordCodec.readVarint(UnsafeRawBufferPointer(prefixes), &end))
      end += nameLength
      let probe = RecordCodec.FieldName.Probe(prefix: UnsafeRawBufferPointer(rebasing: prefixes[offset..<end]))
      offset = end
      (steps.baseAddress! + index).initialize(
        to: Step(
          name: probe, responseKey: field.responseKey, field: Unmanaged.passUnretained(field),
          child: field.child.map { Unmanaged.passUnretained($0) }, isConditional: field.isConditional,
          checksNulls: field.definition.map { Self.hasNonNull($0.type) } ?? false))
    }
    buffer = UnsafeBufferPointer(steps)
  }

  deinit {
    let steps = UnsafeMutableBufferPointer(mutating: buffer)
    steps.baseAddress?.deinitialize(count: steps.count)
    steps.deallocate()
    prefixes.deallocate()
  }

  private static func hasNonNull(_ type: TypeReference) -> Bool {
    switch type {
    case .nonNull: true
    case .list(let element): hasNonNull(element)
    case .named: false
    }
  }
}

/// One field to write or read.
final class PlannedField {
  let responseKey: String
  let name: String
  let arguments: [Argument]
  /// The key the field is stored under in its record.
  let fieldKey: String
  let definition: FieldDefinition?
  /// The selection below the field; nil for a leaf.
  let child: SelectionPlan?
  /// Behind a type condition the schema could not judge: skipped when the response lacks it.
  let isConditional: Bool
  /// Another field of the selection, under another alias, has the same field key.
  let repeatsFieldKey: Bool

  init(
    responseKey: String, name: String, arguments: [Argument], fieldKey: String, definition: FieldDefinition?,
    child: SelectionPlan?, isConditional: Bool, repeatsFieldKey: Bool
  ) {
    self.responseKey = responseKey
    self.name = name
    self.arguments = arguments
    self.fieldKey = fieldKey
    self.definition = definition
    self.child = child
    self.isConditional = isConditional
    self.repeatsFieldKey = repeatsFieldKey
  }
}
