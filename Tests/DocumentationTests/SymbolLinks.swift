import Foundation

/// A DocC symbol link as a doc comment writes it, ``` ``Type/member(label:_:)`` ```: its path's
/// components, each a name and, when written, its argument labels (`_` for an unlabelled one).
/// A disambiguation suffix (`-swift.struct`, `-3d7f2`) is dropped.
struct SymbolLink: Equatable {
  struct Component: Equatable {
    var name: String
    var labels: [String]?
  }

  var components: [Component]

  init(_ text: String) {
    var parts: [Substring] = []
    var depth = 0
    var start = text.startIndex
    for index in text.indices {
      if text[index] == "(" { depth += 1 }
      if text[index] == ")" { depth -= 1 }
      if text[index] == "/", depth == 0 {
        parts.append(text[start..<index])
        start = text.index(after: index)
      }
    }
    parts.append(text[start...])
    components = parts.map { part in
      var part = part
      if let dash = part.lastIndex(of: "-"), !part[dash...].contains(")"), dash != part.startIndex { part = part[..<dash] }
      guard let open = part.firstIndex(of: "("), part.last == ")" else { return Component(name: String(part), labels: nil) }
      let inside = part[part.index(after: open)..<part.index(before: part.endIndex)]
      return Component(name: String(part[..<open]), labels: inside.split(separator: ":").map(String.init))
    }
  }
}

extension SwiftDeclarations {
  /// What is wrong with `link`, or nil when it names a declaration: its first component must be
  /// a type or (alone) a member of any type, and each next one a member of the one before it.
  func problem(with link: SymbolLink) -> String? {
    guard let first = link.components.first else { return "empty" }
    if link.components.count == 1 {
      if first.labels == nil, types.contains(first.name) { return nil }
      return allMembers.contains { Self.matches($0, first) } ? nil : "no type or member \(Self.spelled(first)) in Sources"
    }
    guard types.contains(first.name) else { return "no type \(first.name) in Sources" }
    var owner = first.name
    for component in link.components.dropFirst() {
      guard members[owner, default: []].contains(where: { Self.matches($0, component) }) else {
        return "\(owner) declares no \(Self.spelled(component))"
      }
      owner = component.name
    }
    return nil
  }

  private static func matches(_ member: Member, _ component: SymbolLink.Component) -> Bool {
    member.name == component.name && (component.labels == nil || member.labels == component.labels)
  }

  private static func spelled(_ component: SymbolLink.Component) -> String {
    component.name + (component.labels.map { "(" + $0.map { $0 + ":" }.joined() + ")" } ?? "")
  }
}

/// The Swift files under `directory` of `root`, as paths from `root`, sorted.
func swiftFiles(under directory: String, root: URL) throws -> [String] {
  let base = root.appendingPathComponent(directory)
  guard let walk = FileManager.default.enumerator(atPath: base.path) else { return [] }
  return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { directory + "/" + $0 }
}

/// What is wrong with the DocC symbol links (``` ``Name`` ```) of the doc comments (`///` lines,
/// their code blocks left out) of the Swift files at `paths` (from `root`): each must name a type
/// or member that those files declare. One line each, `path:line: ``link``: what is wrong`.
func brokenSymbolLinks(in paths: [String], root: URL) throws -> [String] {
  let texts = try paths.map { try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }
  var declarations = SwiftDeclarations()
  for text in texts { declarations.read(text) }
  var problems: [String] = []
  for (path, text) in zip(paths, texts) {
    var inCode = false
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.drop { $0 == " " }
      guard trimmed.hasPrefix("///") else { continue }
      let comment = trimmed.dropFirst(3).drop { $0 == " " }
      if comment.hasPrefix("```") { inCode.toggle() }
      guard !inCode else { continue }
      for match in comment.matches(of: #/``([^`]+)``/#) {
        let text = String(match.output.1)
        if let problem = declarations.problem(with: SymbolLink(text)) {
          problems.append("\(path):\(number + 1): ``\(text)``: \(problem)")
        }
      }
    }
  }
  return problems
}
