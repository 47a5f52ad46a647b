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
    self.init(
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
    root = SelectionPlan(
      selections: [operation.selectionSet], staticType: rootTypeName, schema: schema, parentMaxAge: .ofType)
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
    root = SelectionPlan(
      selections: [fragment.selectionSet], staticType: fragment.typeCondition, schema: schema,
      parentMaxAge: .ofType)
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
    let (order, groups) = try groupFields(plan, runtimeType: runtimeType)
    let parentType = runtimeType ?? plan.staticType
    // The parent field's maxAge, which leaves and inheriting fields take (docs/ttl.md).
    let parentMaxAge: Int? =
      switch plan.parentMaxAge {
      case .fixed(let seconds): seconds
      case .ofType: parentType.flatMap(schema.typeMaxAge)
      }
    var fields: [PlannedField] = []
    fields.reserveCapacity(order.count)
    var fieldKeys: Set<String> = []
    for responseKey in order {
      let group = groups[responseKey]!
      let first = group.fields[0]
      let fieldKey = try FieldKey.render(name: first.name, arguments: first.arguments, variables: variables)
      let definition = parentType.flatMap { schema.field(first.name, on: $0) }
      let maxAge = schema.maxAge(
        ofField: first.name, on: parentType, operation: PlannedField.operationCacheControl(group.fields), parentMaxAge: parentMaxAge)
      let subselections = group.fields.compactMap(\.selectionSet)
      let child =
        subselections.isEmpty
        ? nil : childPlan(subselections, of: group.fields, staticType: definition?.type.namedType, parentMaxAge: maxAge.inherited)
      fields.append(
        PlannedField(
          responseKey: responseKey, name: first.name, arguments: first.arguments, fieldKey: fieldKey,
          definition: definition, child: child, isConditional: group.conditional,
          repeatsFieldKey: !fieldKeys.insert(fieldKey).inserted, maxAge: maxAge.checked))
    }
    return PlannedSelection(
      fields: fields, selectsTypename: groups["__typename"] != nil,
      typePolicy: runtimeType.flatMap { schema.typePolicy(for: $0) } ?? plan.interfacePolicy)
  }

  /// The fields of a selection for an object of `runtimeType`, by response key in the order they
  /// are first selected, fragments that apply (or may: then conditional) merged in; each key's
  /// fields, and whether every one of them is conditional.
  private func groupFields(_ plan: SelectionPlan, runtimeType: String?) throws(NormalizationError)
    -> (order: [String], groups: [String: (fields: [Field], conditional: Bool)])
  {
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
    return (order, groups)
  }

  /// The selection below a field: the one all plans of a ``SharedPlans`` share when nothing in it
  /// uses a variable (its collected fields are then the same for any variables), else this plan's own.
  private func childPlan(_ selections: [[Selection]], of fields: [Field], staticType: String?, parentMaxAge: InheritedMaxAge)
    -> SelectionPlan
  {
    let make = { SelectionPlan(selections: selections, staticType: staticType, schema: self.schema, parentMaxAge: parentMaxAge) }
    return shared?.selectionPlan(selections, below: fields, staticType: staticType, parentMaxAge: parentMaxAge, make: make) ?? make()
  }

  /// Every field key a read of an object at this place may look at, under any runtime type, and
  /// `__typename`, by which the reader picks the runtime type: what a projected load needs of the
  /// object's record (docs/stores.md#projected-loads). Every fragment counts, whatever its type
  /// condition (two fragments on other types may select one response key with other arguments);
  /// `@skip` and `@include` as the read takes them. Memoized on the place.
  /// - Throws: ``NormalizationError`` for a bad variable or directive, as a read would.
  func projectedFields(_ plan: SelectionPlan) throws(NormalizationError) -> FieldSet {
    if let known = plan.projectedFields { return known }
    var keys = ["__typename"]
    var visitedFragments: Set<String> = []
    func visit(_ selections: [Selection]) throws(NormalizationError) {
      for selection in selections {
        switch selection {
        case .field(let field):
          guard try shouldInclude(field.directives) else { continue }
          keys.append(try FieldKey.render(name: field.name, arguments: field.arguments, variables: variables))
        case .inlineFragment(let fragment):
          guard try shouldInclude(fragment.directives) else { continue }
          try visit(fragment.selectionSet)
        case .fragmentSpread(let spread):
          guard try shouldInclude(spread.directives), visitedFragments.insert(spread.name).inserted,
            let fragment = document.fragments[spread.name]
          else { continue }
          try visit(fragment.selectionSet)
        }
      }
    }
    for selections in plan.selections { try visit(selections) }
    let set = FieldSet(keys)
    plan.projectedFields = set
    return set
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
