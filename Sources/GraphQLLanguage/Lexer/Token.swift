/// The kinds of lexical token of GraphQL.
///
/// See [GraphQL spec §2.1 Source Text](https://spec.graphql.org/October2021/#sec-Language.Source-Text).
public enum TokenKind: Sendable, Hashable {
  case bang, dollar, amp, parenL, parenR, spread, colon, equals, at
  case bracketL, bracketR, braceL, pipe, braceR
  case name, int, float, string, blockString
  case eof

  var punctuator: String? {
    switch self {
    case .bang: "!"
    case .dollar: "$"
    case .amp: "&"
    case .parenL: "("
    case .parenR: ")"
    case .spread: "..."
    case .colon: ":"
    case .equals: "="
    case .at: "@"
    case .bracketL: "["
    case .bracketR: "]"
    case .braceL: "{"
    case .pipe: "|"
    case .braceR: "}"
    default: nil
    }
  }

  /// How an expectation names the kind: `"{"`, `Name`, `Int`, `String`, `<EOF>`.
  var expectationName: String {
    if let punctuator { return "\"\(punctuator)\"" }
    switch self {
    case .name: return "Name"
    case .int: return "Int"
    case .float: return "Float"
    case .string, .blockString: return "String"
    case .eof: return "<EOF>"
    default: return "token"
    }
  }
}

/// One token: its kind, where it starts (byte offset), and its value for names, numbers and strings.
struct Token: Sendable {
  var kind: TokenKind
  var start: Int
  var end: Int
  var value: String

  /// How an error message names the token it found: `"}"`, `Name "query"`, `Int "12"`, `<EOF>`.
  var description: String {
    switch kind {
    case .name: return "Name \"\(value)\""
    case .int: return "Int \"\(value)\""
    case .float: return "Float \"\(value)\""
    case .string, .blockString: return "String \"\(value)\""
    case .eof: return "<EOF>"
    default: return kind.expectationName
    }
  }
}
