import Foundation

/// The names Swift source files declare, read from their text (no compiler): enough to tell
/// whether a DocC symbol link (``` ``Type/member(label:)`` ```) names something. The types
/// (`class`, `struct`, `enum`, `protocol`, `actor`, `typealias`, `associatedtype`, and the type an
/// `extension` extends), and for each type the members declared directly in its body or an
/// extension's (`func`, `init`, `subscript`, `var`, `let`, `case`, nested types), with their
/// argument labels. Names are keyed by their last component: `extension A.B` adds to `B`'s
/// members, and to `A`'s the type `B`.
///
/// ```swift
/// let swift = SwiftDeclarations()
/// swift.read("struct A { func keys(matching pattern: String) {} }")
/// swift.members["A"]  // [Member(name: "keys", labels: ["matching"])]
/// ```
struct SwiftDeclarations {
  /// A declared member: its name, and its argument labels (`_` for none) when it takes
  /// arguments, nil for a property, a case without values or a type.
  struct Member: Hashable {
    var name: String
    var labels: [String]?
  }

  private(set) var types: Set<String> = []
  /// The members of each type by its name; `""` holds the top level's functions and variables.
  private(set) var members: [String: Set<Member>] = [:]

  /// Every member of every type and the top level.
  var allMembers: Set<Member> { members.values.reduce(into: []) { $0.formUnion($1) } }

  /// Adds the declarations of one file's text.
  mutating func read(_ text: String) {
    let tokens = Self.tokens(Self.codeOnly(Array(text.utf8)))
    // For each open brace, the type whose body it opens, or nil (a function's, a property's).
    var scopes: [String?] = []
    var pendingType: String? = nil
    var index = 0
    func token(_ offset: Int) -> String? { tokens.indices.contains(index + offset) ? tokens[index + offset] : nil }
    while index < tokens.count {
      let word = tokens[index]
      let inType = scopes.last.flatMap { $0 }
      let isMemberPosition = (scopes.isEmpty || inType != nil) && token(-1) != "."
      switch word {
      case "{":
        scopes.append(pendingType)
        pendingType = nil
      case "}":
        if !scopes.isEmpty { scopes.removeLast() }
      case "class", "struct", "enum", "protocol", "actor", "extension":
        guard let name = token(1), Self.isIdentifier(name), !Self.keywords.contains(name) else { break }
        var path = [name]
        while token(path.count * 2) == ".", let next = token(path.count * 2 + 1), Self.isIdentifier(next) { path.append(next) }
        types.insert(path.last!)
        pendingType = path.last!
        if word == "extension" {
          if path.count > 1 { members[path[path.count - 2], default: []].insert(Member(name: path.last!)) }
        } else if let inType {
          members[inType, default: []].insert(Member(name: name))
        }
        index += path.count * 2 - 1
      case "typealias", "associatedtype":
        guard let name = token(1), Self.isIdentifier(name) else { break }
        types.insert(name)
        if let inType { members[inType, default: []].insert(Member(name: name)) }
      case "func", "init", "subscript", "var", "let", "case":
        guard isMemberPosition else { break }
        for member in memberDeclarations(tokens, at: &index) { members[inType ?? "", default: []].insert(member) }
        continue
      default:
        break
      }
      index += 1
    }
  }

  /// The members declared by the keyword at `index` (several for `case a, b(x: Int)`), with
  /// `index` moved past their names and argument lists.
  private func memberDeclarations(_ tokens: [String], at index: inout Int) -> [Member] {
    let keyword = tokens[index]
    index += 1
    func skipGenerics() {
      if index < tokens.count, tokens[index] == "<" { _ = Self.group(tokens, at: &index) }
    }
    switch keyword {
    case "init", "subscript":
      if index < tokens.count, tokens[index] == "?" || tokens[index] == "!" { index += 1 }
      skipGenerics()
      guard index < tokens.count, tokens[index] == "(" else { return [] }
      let parameters = Self.group(tokens, at: &index)
      return [Member(name: keyword, labels: parameters.map { Self.label($0, firstNameIsLabel: keyword == "init") })]
    case "func":
      guard index < tokens.count, Self.isIdentifier(tokens[index]) else { return [] }
      let name = tokens[index]
      index += 1
      skipGenerics()
      guard index < tokens.count, tokens[index] == "(" else { return [Member(name: name)] }
      return [Member(name: name, labels: Self.group(tokens, at: &index).map { Self.label($0, firstNameIsLabel: true) })]
    case "var", "let":
      guard index < tokens.count, Self.isIdentifier(tokens[index]) else { return [] }
      index += 1
      return [Member(name: tokens[index - 1])]
    default:  // case a, b(x: Int), c = 3
      var cases: [Member] = []
      while index < tokens.count, Self.isIdentifier(tokens[index]), !Self.keywords.contains(tokens[index]) {
        let name = tokens[index]
        index += 1
        if index < tokens.count, tokens[index] == "(" {
          cases.append(Member(name: name, labels: Self.group(tokens, at: &index).map { Self.label($0, firstNameIsLabel: true) }))
        } else {
          cases.append(Member(name: name))
        }
        if index < tokens.count, tokens[index] == "=" { index += 2 }
        guard index < tokens.count, tokens[index] == "," else { break }
        index += 1
      }
      return cases
    }
  }

  /// The argument label of one parameter's tokens: the first name before its `:`, unless that is
  /// its only name and `firstNameIsLabel` is false (a subscript's: no label, `_`); a parameter
  /// with no `:` (an enum case's `tooDeep(Int)`) has none either.
  private static func label(_ parameter: [String], firstNameIsLabel: Bool) -> String {
    guard let colon = parameter.firstIndex(of: ":"), colon > 0 else { return "_" }
    return !firstNameIsLabel && colon == 1 ? "_" : parameter[0]
  }

  /// The comma-separated elements of the bracketed group opening at `index` (`(`, `[` or `<`),
  /// with `index` moved past its closing bracket. `->` never closes a `<`.
  private static func group(_ tokens: [String], at index: inout Int) -> [[String]] {
    var depth = 0
    var elements: [[String]] = []
    var current: [String] = []
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      if ["(", "[", "<"].contains(token) {
        depth += 1
        if depth == 1 { continue }
      } else if [")", "]", ">"].contains(token) {
        depth -= 1
        if depth == 0 { break }
      } else if token == ",", depth == 1 {
        elements.append(current)
        current = []
        continue
      }
      current.append(token)
    }
    if !current.isEmpty { elements.append(current) }
    return elements
  }

  /// Words that may follow `class` or `case` without being a declared name.
  private static let keywords: Set<String> = ["func", "var", "let", "init", "subscript", "static", "final", "override"]

  private static func isIdentifier(_ token: String) -> Bool {
    guard let first = token.unicodeScalars.first else { return false }
    return first == "_" || CharacterSet.letters.contains(first)
  }

  /// The text's identifiers (a `` `default` `` as `default`), numbers, `->`, and each other
  /// punctuation character on its own.
  static func tokens(_ code: [UInt8]) -> [String] {
    var tokens: [String] = []
    var index = 0
    func isWord(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte >= 0x80
    }
    while index < code.count {
      let byte = code[index]
      if isWord(byte) {
        let start = index
        while index < code.count, isWord(code[index]) { index += 1 }
        tokens.append(String(decoding: code[start..<index], as: UTF8.self))
      } else if byte == UInt8(ascii: "`"), let end = code[(index + 1)...].firstIndex(of: UInt8(ascii: "`")) {
        tokens.append(String(decoding: code[(index + 1)..<end], as: UTF8.self))
        index = end + 1
      } else if byte == UInt8(ascii: "-"), index + 1 < code.count, code[index + 1] == UInt8(ascii: ">") {
        tokens.append("->")
        index += 2
      } else {
        if byte > 0x20 { tokens.append(String(UnicodeScalar(byte))) }
        index += 1
      }
    }
    return tokens
  }

  /// The text with its comments and string literals (interpolations included) made spaces, line
  /// breaks kept.
  static func codeOnly(_ text: [UInt8]) -> [UInt8] {
    var code = text
    var index = 0
    skipCode(text, &code, at: &index, until: nil)
    return code
  }

  private static func blank(_ code: inout [UInt8], _ range: Range<Int>) {
    for position in range where code[position] != UInt8(ascii: "\n") { code[position] = UInt8(ascii: " ") }
  }

  /// Code up to the `)` that closes it (an interpolation's) or to the end, its comments and
  /// strings blanked.
  private static func skipCode(_ text: [UInt8], _ code: inout [UInt8], at index: inout Int, until close: UInt8?) {
    var depth = 0
    while index < text.count {
      let byte = text[index]
      let next = index + 1 < text.count ? text[index + 1] : 0
      if byte == UInt8(ascii: "/"), next == UInt8(ascii: "/") {
        let start = index
        while index < text.count, text[index] != UInt8(ascii: "\n") { index += 1 }
        blank(&code, start..<index)
      } else if byte == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
        let start = index
        var nesting = 0
        repeat {
          if text[index] == UInt8(ascii: "/"), index + 1 < text.count, text[index + 1] == UInt8(ascii: "*") {
            nesting += 1
            index += 2
          } else if text[index] == UInt8(ascii: "*"), index + 1 < text.count, text[index + 1] == UInt8(ascii: "/") {
            nesting -= 1
            index += 2
          } else {
            index += 1
          }
        } while nesting > 0 && index < text.count
        blank(&code, start..<index)
      } else if byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && (next == UInt8(ascii: "\"") || next == UInt8(ascii: "#"))) {
        let start = index
        skipString(text, &code, at: &index)
        blank(&code, start..<index)
      } else {
        if byte == UInt8(ascii: "(") { depth += 1 }
        if byte == UInt8(ascii: ")") {
          if depth == 0, close != nil { index += 1; return }
          depth -= 1
        }
        index += 1
      }
    }
  }

  /// A string literal (`"…"`, `"""…"""`, `#"…"#`) from its first `#` or quote to past its end.
  private static func skipString(_ text: [UInt8], _ code: inout [UInt8], at index: inout Int) {
    var hashes = 0
    while index < text.count, text[index] == UInt8(ascii: "#") { hashes += 1; index += 1 }
    guard index < text.count, text[index] == UInt8(ascii: "\"") else { return }  // #if, #file: not a string
    let isMultiline = index + 2 < text.count && text[index + 1] == UInt8(ascii: "\"") && text[index + 2] == UInt8(ascii: "\"")
    let quotes = isMultiline ? 3 : 1
    index += quotes
    let closing = [UInt8](repeating: UInt8(ascii: "\""), count: quotes) + [UInt8](repeating: UInt8(ascii: "#"), count: hashes)
    let escape = [UInt8(ascii: "\\")] + [UInt8](repeating: UInt8(ascii: "#"), count: hashes)
    while index < text.count {
      if text[index...].starts(with: closing) {
        index += closing.count
        return
      }
      if text[index...].starts(with: escape) {
        index += escape.count
        if index < text.count, text[index] == UInt8(ascii: "(") {
          index += 1
          skipCode(text, &code, at: &index, until: UInt8(ascii: ")"))
        } else {
          index += 1
        }
        continue
      }
      if !isMultiline, text[index] == UInt8(ascii: "\n") { return }
      index += 1
    }
  }
}

extension SwiftDeclarations.Member {
  init(name: String) { self.init(name: name, labels: nil) }
}
