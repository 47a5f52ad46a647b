import Foundation

/// The declarations of Swift sources, by the type (or extension) they are nested in, read well
/// enough to tell whether a DocC symbol link (` ``Type/member(label:)`` `) in a doc comment names
/// something: each `struct`, `class`, `enum`, `protocol`, `actor` and `extension` opens a scope
/// (by the last component of its name, so ``SQLiteNormalizedCache/Options`` and an
/// `extension SQLiteNormalizedCache.Options` are one scope), and each `func`, `var`, `let`,
/// `case`, `init`, `subscript`, `typealias` and `associatedtype` in it is a member, by its base
/// name. Comments and string literals are skipped, braces counted to close scopes.
///
/// ```swift
/// var index = SymbolIndex()
/// index.add(source: "struct A { func b(c: Int) {} }")
/// index.resolves("A/b(c:)")   // true
/// index.resolves("A/d")       // false
/// ```
struct SymbolIndex {
  /// Members by the simple name of the type declaring them; the names of the file's top level
  /// under "".
  private(set) var members: [String: Set<String>] = [:]

  /// Reads one file's declarations.
  mutating func add(source: String) {
    let code = Self.withoutCommentsAndStrings(source)
    var scopes: [(name: String, depth: Int)] = []
    var depth = 0
    var pendingScope: String?
    let tokens = Self.tokens(code)
    var index = 0
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      switch token {
      case "{":
        depth += 1
        if let name = pendingScope {
          scopes.append((name, depth))
          pendingScope = nil
        }
      case "}":
        if let last = scopes.last, last.depth == depth { scopes.removeLast() }
        depth -= 1
      case "struct", "class", "enum", "protocol", "actor", "extension":
        guard index < tokens.count, let name = Self.identifier(tokens[index]) else { continue }
        // `class func`, `class var`: a member's modifier, not a type.
        if token == "class", ["func", "var", "let", "subscript", "init"].contains(name) { continue }
        let simple = String(name.split(separator: ".").last ?? Substring(name))
        if token != "extension" { members[scopes.last?.name ?? "", default: []].insert(simple) }
        members[simple, default: []].formUnion([])
        pendingScope = simple
      case "func", "var", "let", "typealias", "associatedtype", "case":
        // Only a type's (or the file's) own members: not the locals of a function body.
        guard depth == (scopes.last?.depth ?? 0) else { continue }
        var next = index
        repeat {
          guard next < tokens.count, let name = Self.identifier(tokens[next]) else { break }
          members[scopes.last?.name ?? "", default: []].insert(name)
          next += 1
          // `case a, b(Int), c`: every name of the list.
          guard token == "case" else { break }
          var nesting = 0
          while next < tokens.count {
            let part = tokens[next]
            if part == "(" { nesting += 1 } else if part == ")" { nesting -= 1 }
            if nesting == 0 && (part == "," || part == "{" || part == "}" || Self.keywords.contains(part)) { break }
            next += 1
          }
          guard next < tokens.count, tokens[next] == "," else { break }
          next += 1
        } while true
      case "init", "subscript", "deinit":
        if depth == (scopes.last?.depth ?? 0) { members[scopes.last?.name ?? "", default: []].insert(token) }
      default:
        break
      }
    }
  }

  /// Whether a symbol link's path names a declaration: each component a member of the one
  /// before it (the first a type, or a member of any type, as a link resolves from where it is
  /// written); a function's labels are not checked, its base name is.
  func resolves(_ link: String) -> Bool {
    let parts = link.split(separator: "/").map { part -> String in
      var name = String(part)
      if let paren = name.firstIndex(of: "(") { name = String(name[..<paren]) }
      // A disambiguation suffix (`-swift.property`, `-3xyz`).
      if let dash = name.firstIndex(of: "-") { name = String(name[..<dash]) }
      return name
    }
    guard let first = parts.first else { return false }
    if parts.count == 1 {
      return members[first] != nil || members.values.contains { $0.contains(first) }
    }
    guard members[first] != nil else { return false }
    var scope = first
    for part in parts.dropFirst() {
      guard members[scope]?.contains(part) == true else { return false }
      scope = part
    }
    return true
  }

  /// The words that end a `case` list's element.
  private static let keywords: Set<String> = ["case", "func", "var", "let", "init", "static", "public", "package", "indirect"]

  private static func identifier(_ token: String) -> String? {
    let trimmed = token.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
    guard let first = trimmed.unicodeScalars.first, CharacterSet.letters.contains(first) || first == "_" else { return nil }
    return trimmed
  }

  /// Identifiers (with dots, as `A.B`), and each other character alone.
  private static func tokens(_ code: String) -> [String] {
    var tokens: [String] = []
    var word = ""
    for character in code {
      if character.isLetter || character.isNumber || character == "_" || character == "`" || (character == "." && !word.isEmpty) {
        word.append(character)
      } else {
        if !word.isEmpty {
          tokens.append(word.hasSuffix(".") ? String(word.dropLast()) : word)
          word = ""
        }
        if !character.isWhitespace { tokens.append(String(character)) }
      }
    }
    if !word.isEmpty { tokens.append(word) }
    return tokens
  }

  /// The code with its comments and the contents of its string literals (single-line, multi-line
  /// and raw) blanked, so that braces and words in them count for nothing.
  static func withoutCommentsAndStrings(_ source: String) -> String {
    var output = ""
    let characters = Array(source)
    var index = 0
    func starts(_ text: String, at position: Int) -> Bool {
      let pattern = Array(text)
      return position + pattern.count <= characters.count && Array(characters[position..<position + pattern.count]) == pattern
    }
    while index < characters.count {
      if starts("//", at: index) {
        while index < characters.count && characters[index] != "\n" { index += 1 }
      } else if starts("/*", at: index) {
        index += 2
        while index < characters.count && !starts("*/", at: index) { index += 1 }
        index += 2
      } else if characters[index] == "#" || characters[index] == "\"" {
        // A raw string's hashes, then its quotes; the same number of hashes closes it.
        var hashes = 0
        var position = index
        while position < characters.count && characters[position] == "#" {
          hashes += 1
          position += 1
        }
        guard position < characters.count, characters[position] == "\"" else {
          output.append(characters[index])
          index += 1
          continue
        }
        let multiline = starts("\"\"\"", at: position)
        let close = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
        position += multiline ? 3 : 1
        while position < characters.count && !starts(close, at: position) {
          // An escaped quote, or an interpolation's strings, never closes a plain one.
          if characters[position] == "\\" && hashes == 0 { position += 1 }
          if characters[position] == "\n" { output.append("\n") }
          position += 1
        }
        index = position + close.count
        output.append("\"\"")
      } else {
        output.append(characters[index])
        index += 1
      }
    }
    return output
  }
}

/// The DocC symbol links (` ``...`` ` in `///` comments) of the Swift files under `directories`
/// (from `root`) that name no declaration of those files, nor one of `known` (the standard
/// library's and Foundation's names the comments use). One line each, `path:line: ``link```.
func brokenSymbolLinks(under directories: [String], root: URL, known: Set<String>) throws -> [String] {
  var files: [String] = []
  for directory in directories {
    let base = root.appendingPathComponent(directory)
    guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
    for case let path as String in walker where path.hasSuffix(".swift") { files.append(directory + "/" + path) }
  }
  files.sort()
  var index = SymbolIndex()
  var sources: [(path: String, text: String)] = []
  for path in files {
    let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    index.add(source: text)
    sources.append((path, text))
  }
  var problems: [String] = []
  for (path, text) in sources {
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      guard let comment = line.range(of: "///") else { continue }
      var rest = line[comment.upperBound...]
      while let open = rest.range(of: "``") {
        guard let close = rest[open.upperBound...].range(of: "``") else { break }
        let link = String(rest[open.upperBound..<close.lowerBound])
        rest = rest[close.upperBound...]
        let head = String(link.split(separator: "/").first ?? "")
        if known.contains(head) || index.resolves(link) { continue }
        problems.append("\(path):\(number + 1): ``\(link)``")
      }
    }
  }
  return problems
}
