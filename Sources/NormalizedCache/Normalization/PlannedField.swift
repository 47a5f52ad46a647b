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
