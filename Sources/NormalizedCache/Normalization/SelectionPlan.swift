import GraphQLLanguage

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
  /// The fields a read of an object here may look at, under any runtime type (a projected load's
  /// set, ``OperationPlan/projectedFields(_:)``); nil until a projected read asks.
  var projectedFields: FieldSet?

  /// The `maxAge` of the field this selection is on, as the fields here inherit it (docs/ttl.md):
  /// what its leaves, and the fields that say `inheritMaxAge`, take. At a root, the root type's own.
  let parentMaxAge: InheritedMaxAge

  init(selections: [[Selection]], staticType: String?, schema: Schema, parentMaxAge: InheritedMaxAge) {
    self.selections = selections
    self.staticType = staticType
    self.parentMaxAge = parentMaxAge
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
    let found =
      parentType.map { parentType in
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
