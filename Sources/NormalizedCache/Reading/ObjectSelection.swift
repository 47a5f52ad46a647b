import GraphQLLanguage

/// A selection set on a type, to read from any record key, as Apollo iOS's
/// `ReadTransaction.readObject(ofType:withKey:)` reads a fragment: a named fragment of a document,
/// or the selection set under which the normalizer wrote an object.
///
/// ```swift
/// let fragment = try ObjectSelection(fragment: "BookDetails", document: document, schema: schema)
/// let result = try CacheReader(cache: cache).read(fragment, key: "Book:bk123")
/// result.data   // {"title": ..., "author": {...}}
/// ```
public struct ObjectSelection {
  let plan: OperationPlan
  let selection: SelectionPlan

  init(plan: OperationPlan, selection: SelectionPlan) {
    self.plan = plan
    self.selection = selection
  }

  /// A named fragment of the document, on its type condition.
  /// - Throws: ``GraphQLError`` when the document has no such fragment.
  public init(fragment name: String, document: ExecutableDocument, schema: Schema = .empty, variables: JSONObject = [:]) throws {
    let plan = try OperationPlan(fragment: name, document: document, schema: schema, variables: variables)
    self.init(plan: plan, selection: plan.root)
  }

  /// The type the selection set is on, when it is known.
  public var typeName: String? { selection.staticType }
}

extension ResponseProjection {
  /// The part of a response object a selection set selects: what reading it back by the object's
  /// key must return.
  public static func selectedData(of object: JSONObject, selection: ObjectSelection) throws -> JSONObject {
    try project(
      object, plan: selection.selection, typename: object["__typename"]?.stringValue ?? selection.selection.inferredType,
      in: selection.plan)
  }
}
