import GraphQLLanguage

/// Plans of one document and schema, for many sets of variables, that share the selections in
/// which no variable appears.
///
/// A plan collects and keeps the fields of each selection per runtime type as responses meet them
/// (``OperationPlan``): some 50 KB for a response of 300 objects. A run keeps a plan per
/// response, so 4,000 generated responses held 205 MB of plans that were, below their root
/// fields, all alike. Below a field whose selection uses no variable (in arguments, `@skip` or
/// `@include`, through fragments too), the collected fields do not depend on the variables: the
/// plans made here keep one ``SelectionPlan`` there for all of them.
///
/// ```swift
/// let plans = SharedPlans(document: document, schema: schema)
/// let first = try plans.plan(operationName: "Feed", variables: ["page": 1])
/// let second = try plans.plan(operationName: "Feed", variables: ["page": 2])  // shares first's selections below `feed`
/// ```
/// Not `Sendable`, as plans are not: use one per thread.
public final class SharedPlans {
  public let document: ExecutableDocument
  public let schema: Schema

  /// The selections below fields, by the fields' places in the document and their static type:
  /// the shared one, or nil where a variable appears (each place is judged once).
  private var selections: [Place: SelectionPlan?] = [:]
  /// Whether each fragment uses a variable, directly or through the fragments it spreads.
  private var fragmentUsesVariables: [String: Bool] = [:]

  private struct Place: Hashable {
    let fields: [SourceLocation]
    let staticType: String?
    /// The field's `maxAge`, which the selection's leaves take: one place in the document can be
    /// reached through fields of different ones (a fragment spread under several).
    let parentMaxAge: InheritedMaxAge
  }

  public init(document: ExecutableDocument, schema: Schema = .empty) {
    self.document = document
    self.schema = schema
  }

  /// A plan of an operation of the document, sharing with the other plans made here.
  /// - Throws: as ``OperationPlan/init(document:operationName:schema:variables:)``.
  public func plan(operationName: String? = nil, variables: JSONObject = [:]) throws -> OperationPlan {
    try OperationPlan(document: document, operationName: operationName, schema: schema, variables: variables, shared: self)
  }

  /// The number of selections shared so far.
  public var sharedCount: Int { selections.values.count { $0 != nil } }

  /// The shared selection `sets` below `fields` make (made by `make` the first time), or nil when
  /// a variable appears in them: each plan then makes its own.
  func selectionPlan(
    _ sets: [[Selection]], below fields: [Field], staticType: String?, parentMaxAge: InheritedMaxAge, make: () -> SelectionPlan
  ) -> SelectionPlan? {
    let place = Place(fields: fields.map(\.location), staticType: staticType, parentMaxAge: parentMaxAge)
    if let known = selections[place] { return known }
    let shared = usesNoVariables(sets) ? make() : nil
    selections[place] = .some(shared)
    return shared
  }

  /// Whether no variable appears in these selections, nor in the fragments they spread.
  func usesNoVariables(_ sets: [[Selection]]) -> Bool {
    var visiting: Set<String> = []
    return !sets.contains { usesVariables($0, visiting: &visiting) }
  }

  private func usesVariables(_ selections: [Selection], visiting: inout Set<String>) -> Bool {
    for selection in selections {
      switch selection {
      case .field(let field):
        if field.arguments.contains(where: { !$0.value.variableNames.isEmpty }) { return true }
        if usesVariables(field.directives) { return true }
        if let below = field.selectionSet, usesVariables(below, visiting: &visiting) { return true }
      case .inlineFragment(let fragment):
        if usesVariables(fragment.directives) || usesVariables(fragment.selectionSet, visiting: &visiting) { return true }
      case .fragmentSpread(let spread):
        if usesVariables(spread.directives) || fragmentUsesVariables(spread.name, visiting: &visiting) { return true }
      }
    }
    return false
  }

  private func usesVariables(_ directives: [Directive]) -> Bool {
    directives.contains { $0.arguments.contains { !$0.value.variableNames.isEmpty } }
  }

  private func fragmentUsesVariables(_ name: String, visiting: inout Set<String>) -> Bool {
    if let known = fragmentUsesVariables[name] { return known }
    // A fragment met again on the way down (a cycle, which validation rejects): counted as using
    // variables, so that nothing on the cycle is shared on partial knowledge.
    guard visiting.insert(name).inserted else { return true }
    guard let fragment = document.fragments[name] else { return false }
    let uses = usesVariables(fragment.selectionSet, visiting: &visiting)
    visiting.remove(name)
    fragmentUsesVariables[name] = uses
    return uses
  }
}
