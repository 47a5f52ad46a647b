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
    try checkCacheControls()
  }

  /// `@cacheControl` stands on fields only, well formed (docs/ttl.md): not on an operation, a
  /// fragment, a spread, an inline fragment or a variable.
  private func checkCacheControls() throws(GraphQLError) {
    for operation in operations {
      try CacheControlDirectives.refuse(operation.directives, on: "an operation (fields of an operation take it)")
      for variable in operation.variableDefinitions {
        try CacheControlDirectives.refuse(variable.directives, on: "a variable (fields of an operation take it)")
      }
      try Self.checkCacheControls(in: operation.selectionSet)
    }
    for fragment in fragments.values.sorted(by: { $0.name < $1.name }) {
      try CacheControlDirectives.refuse(fragment.directives, on: "a fragment (fields of an operation take it)")
      try Self.checkCacheControls(in: fragment.selectionSet)
    }
  }

  /// The directives of a selection set, at every level (the parser bounds its depth).
  private static func checkCacheControls(in selections: [Selection]) throws(GraphQLError) {
    for selection in selections {
      switch selection {
      case .field(let field):
        for directive in field.directives where directive.name == CacheControl.fieldDirectiveName {
          throw GraphQLError(
            "@cacheControlField belongs in schema extensions; a field of an operation takes @cacheControl", at: directive.location)
        }
        _ = try CacheControl.find(in: field.directives)
        if let nested = field.selectionSet { try checkCacheControls(in: nested) }
      case .inlineFragment(let fragment):
        try CacheControlDirectives.refuse(fragment.directives, on: "an inline fragment (fields of an operation take it)")
        try checkCacheControls(in: fragment.selectionSet)
      case .fragmentSpread(let spread):
        try CacheControlDirectives.refuse(spread.directives, on: "a fragment spread (fields of an operation take it)")
      }
    }
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

  /// Fragments may spread each other at most this deep: planning follows spreads by recursion.
  public static let maximumFragmentDepth = 256

  /// Every spread names a known fragment; no fragment reaches itself; no chain of spreads is
  /// deeper than ``maximumFragmentDepth``. Each fragment is walked once (a document whose fragments
  /// each spread the next one twice has 2^n paths, and walking every path never ended), and the
  /// graph of spreads is searched without recursion (a chain of 20,000 fragments overflowed the
  /// stack).
  private func checkFragmentSpreads() throws(GraphQLError) {
    var spreads: [String: [FragmentSpread]] = [:]
    for (name, fragment) in fragments {
      var found: [FragmentSpread] = []
      Self.collectSpreads(fragment.selectionSet, into: &found)
      spreads[name] = found
    }
    for operation in operations {
      var found: [FragmentSpread] = []
      Self.collectSpreads(operation.selectionSet, into: &found)
      for spread in found where fragments[spread.name] == nil {
        throw GraphQLError("Unknown fragment \"\(spread.name)\"", at: spread.location)
      }
    }
    // Depth-first, with an explicit stack: `depth[name]` is the longest chain of spreads below a
    // finished fragment; a fragment on the stack and met again closes a cycle.
    var depth: [String: Int] = [:]
    var onStack: Set<String> = []
    for root in fragments.keys.sorted() where depth[root] == nil {
      var stack: [(name: String, next: Int)] = [(root, 0)]
      onStack.insert(root)
      while let top = stack.last {
        let children = spreads[top.name] ?? []
        if top.next < children.count {
          stack[stack.count - 1].next += 1
          let spread = children[top.next]
          guard fragments[spread.name] != nil else {
            throw GraphQLError("Unknown fragment \"\(spread.name)\"", at: spread.location)
          }
          if onStack.contains(spread.name) {
            let start = stack.firstIndex { $0.name == spread.name } ?? 0
            let cycle = stack[start...].map(\.name) + [spread.name]
            throw GraphQLError(
              "Cannot spread fragment \"\(spread.name)\" within itself (\(cycle.joined(separator: " -> ")))",
              at: spread.location)
          }
          if depth[spread.name] != nil { continue }
          stack.append((spread.name, 0))
          onStack.insert(spread.name)
        } else {
          let chain = 1 + (children.map { depth[$0.name] ?? 0 }.max() ?? 0)
          if chain > Self.maximumFragmentDepth {
            throw GraphQLError(
              "Fragment \"\(top.name)\" starts a chain of spreads more than \(Self.maximumFragmentDepth) fragments deep",
              at: fragments[top.name]?.location)
          }
          depth[top.name] = chain
          onStack.remove(top.name)
          stack.removeLast()
        }
      }
    }
  }

  /// The fragment spreads of a selection set, at every level (the parser bounds its depth).
  private static func collectSpreads(_ selections: [Selection], into found: inout [FragmentSpread]) {
    for selection in selections {
      switch selection {
      case .field(let field):
        if let nested = field.selectionSet { collectSpreads(nested, into: &found) }
      case .inlineFragment(let fragment):
        collectSpreads(fragment.selectionSet, into: &found)
      case .fragmentSpread(let spread):
        found.append(spread)
      }
    }
  }
}
