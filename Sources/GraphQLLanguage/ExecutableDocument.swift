/// The operations and fragments of one or more executable GraphQL files, checked together.
///
/// An operation file and its fragment files (as the calendar corpus has) form one document:
/// ```swift
/// let document = try ExecutableDocument(parsing: [query, fragmentA, fragmentB])
/// let operation = try document.operation(named: "ItemsQuery")
/// ```
/// Checks ([GraphQL spec §5.5](https://spec.graphql.org/October2021/#sec-Validation.Fragments)):
/// unique operation and fragment names, every spread names a known fragment, no fragment cycles.
public struct ExecutableDocument: Sendable {
  public let operations: [OperationDefinition]
  public let fragments: [String: FragmentDefinition]

  /// Parses each source and checks them as one document.
  /// - Throws: ``GraphQLError`` naming the file, line and column at fault.
  public init(parsing sources: [Source]) throws(GraphQLError) {
    var documents: [Document] = []
    for source in sources { documents.append(try Parser.parse(source)) }
    try self.init(documents: documents)
  }

  public init(documents: [Document]) throws(GraphQLError) {
    var operations: [OperationDefinition] = []
    var fragments: [String: FragmentDefinition] = [:]
    for document in documents {
      for definition in document.definitions {
        switch definition {
        case .operation(let operation):
          if let name = operation.name, let other = operations.first(where: { $0.name == name }) {
            throw GraphQLError(
              "There can be only one operation named \"\(name)\" (the other is at \(other.location))",
              at: operation.location)
          }
          operations.append(operation)
        case .fragment(let fragment):
          if let other = fragments[fragment.name] {
            throw GraphQLError(
              "There can be only one fragment named \"\(fragment.name)\" (the other is at \(other.location))",
              at: fragment.location)
          }
          fragments[fragment.name] = fragment
        case .type(let type):
          throw GraphQLError(
            "Type definition \"\(type.name)\" in an executable document; pass schema files as the schema",
            at: type.location)
        case .schema(let schema):
          throw GraphQLError("Schema definition in an executable document", at: schema.location)
        case .directive(let directive):
          throw GraphQLError(
            "Directive definition \"@\(directive.name)\" in an executable document", at: directive.location)
        }
      }
    }
    if operations.count > 1, let anonymous = operations.first(where: { $0.name == nil }) {
      throw GraphQLError("An anonymous operation must be the only operation in the document", at: anonymous.location)
    }
    self.operations = operations
    self.fragments = fragments
    try checkFragmentSpreads()
  }

  /// The operation of this name, or the only operation when `name` is nil.
  /// - Throws: ``GraphQLError`` when there is no such operation, or several and no name.
  public func operation(named name: String?) throws(GraphQLError) -> OperationDefinition {
    if let name {
      guard let operation = operations.first(where: { $0.name == name }) else {
        let known = operations.compactMap(\.name)
        throw GraphQLError(
          "No operation named \"\(name)\"" + (known.isEmpty ? "" : "; the document has \(known.joined(separator: ", "))"),
          at: nil)
      }
      return operation
    }
    switch operations.count {
    case 1: return operations[0]
    case 0: throw GraphQLError("The document has no operation", at: nil)
    default:
      let names = operations.compactMap(\.name).joined(separator: ", ")
      throw GraphQLError("The document has \(operations.count) operations (\(names)); name the one to use", at: nil)
    }
  }

  private func checkFragmentSpreads() throws(GraphQLError) {
    for operation in operations {
      var visiting: [String] = []
      try check(operation.selectionSet, visiting: &visiting)
    }
    for fragment in fragments.values.sorted(by: { $0.name < $1.name }) {
      var visiting = [fragment.name]
      try check(fragment.selectionSet, visiting: &visiting)
    }
  }

  private func check(_ selections: [Selection], visiting: inout [String]) throws(GraphQLError) {
    for selection in selections {
      switch selection {
      case .field(let field):
        if let nested = field.selectionSet { try check(nested, visiting: &visiting) }
      case .inlineFragment(let fragment):
        try check(fragment.selectionSet, visiting: &visiting)
      case .fragmentSpread(let spread):
        guard let fragment = fragments[spread.name] else {
          throw GraphQLError("Unknown fragment \"\(spread.name)\"", at: spread.location)
        }
        if visiting.contains(spread.name) {
          throw GraphQLError(
            "Cannot spread fragment \"\(spread.name)\" within itself (\((visiting + [spread.name]).joined(separator: " -> ")))",
            at: spread.location)
        }
        visiting.append(spread.name)
        try check(fragment.selectionSet, visiting: &visiting)
        visiting.removeLast()
      }
    }
  }
}
