import GraphQLLanguage

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
  /// How long the field stays fresh after it is written, in seconds (`@cacheControl`, resolved by
  /// ``Schema/maxAge(ofField:on:operation:parentMaxAge:)``); nil when it never expires.
  let maxAge: Int?
  /// How many lists the schema wraps the field's type in (`[[Book]]`: 2), nil without a schema's
  /// definition: the shape of the response the normalizer checks, once a level.
  let listDepth: Int?

  init(
    responseKey: String, name: String, arguments: [Argument], fieldKey: String, definition: FieldDefinition?,
    child: SelectionPlan?, isConditional: Bool, repeatsFieldKey: Bool, maxAge: Int? = nil
  ) {
    self.responseKey = responseKey
    self.name = name
    self.arguments = arguments
    self.fieldKey = fieldKey
    self.definition = definition
    self.child = child
    self.isConditional = isConditional
    self.repeatsFieldKey = repeatsFieldKey
    self.maxAge = maxAge
    listDepth = definition?.type.listDepth
  }

  /// The `@cacheControl` that the operation puts on a field selected under one response key by
  /// `fields` (merged by field collection): the smallest `maxAge` any of them gives, else
  /// `inheritMaxAge` if one asks for it, else nil.
  static func operationCacheControl(_ fields: [Field]) -> CacheControl? {
    let controls = fields.compactMap(CacheControl.ofOperationField)
    var chosen: CacheControl?
    for control in controls {
      switch (control.setting, chosen?.setting) {
      case (.maxAge(let seconds), .maxAge(let smallest)?) where seconds < smallest: chosen = control
      case (.maxAge, .inherit?), (_, nil): chosen = control
      default: break
      }
    }
    return chosen
  }
}
