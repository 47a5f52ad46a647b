import Support

/// An option's declaration with its type erased: what parsing, usage lines and help need. Made
/// from an ``Option`` or a ``Flag``, never written by hand.
struct OptionSpec: Sendable {
  let name: String
  /// The placeholder of the value in help (`<file>`); nil for a flag.
  let placeholder: String?
  /// The help as printed: the declaration's help, then its default, its values and `Repeatable.`
  let help: String
  let repeatable: Bool
  /// Whether the command cannot run without it (an option with neither a default nor an absent value).
  let isRequired: Bool
  /// Left out of a generated usage line (an option for the program's own use, such as `--instructions-only`).
  let isHidden: Bool
  /// The values allowed, when they are few: checked when the command line is read.
  let allowed: [String]?

  /// `--keys path|typePolicy|programmatic`, `--out <FILE.csv>`, or `--quick` for a flag.
  var synopsis: String {
    guard let placeholder else { return "--\(name)" }
    return "--\(name) " + (allowed?.joined(separator: "|") ?? "<\(placeholder)>")
  }

  /// The option as a usage line shows it: `[--out <FILE.csv>]`, `--out <DIR>` when required,
  /// `[--schema <file> ...]` when repeatable.
  var usage: String {
    if isRequired { return synopsis }
    return "[\(synopsis)\(repeatable ? " ..." : "")]"
  }
}

/// Anything a ``CommandSpec`` lists among its options: an ``Option`` or a ``Flag``.
protocol OptionDeclaration: Sendable {
  var name: String { get }
  var spec: OptionSpec { get }
}

/// A flag: `--quick`, true when given. It takes no value.
struct Flag: OptionDeclaration {
  let name: String
  let help: String

  init(_ name: String, help: String) {
    self.name = name
    self.help = help
  }

  var spec: OptionSpec {
    OptionSpec(name: name, placeholder: nil, help: help, repeatable: false, isRequired: false, isHidden: false, allowed: nil)
  }

  /// `-h`, `--help`, which every command takes.
  static let help = Flag("help", help: "Show help information.")

  /// `--allow-large`, as `run`, `generate`, `validate` and `soak` take it.
  static let allowLarge = Flag(
    "allow-large",
    help:
      "Run what is estimated too large: generated responses past 2 million objects or 200 MB per response, or 20 million objects or 2 GB in all, or a run holding past 2 GB (schema, operations, responses and records); store records past 20 million or 2 GB; a traffic session past 20 GB of responses per store and key strategy."
  )

  /// `--no-progress`, as `run` and `soak` take it.
  static let noProgress = Flag("no-progress", help: "No progress lines on stderr.")
}

/// An option with a value, declared once: its name, the type its value is read as, its default,
/// its help. Usage lines, help (`Default: x`, the allowed values), validation and parsing all
/// come from the declaration, and a command reads the typed value
/// (`arguments[option]`), never a name:
///
/// ```swift
/// static let ttl = Option<TTLEnforcement>(
///   "ttl", placeholder: "mode", help: "How the read treats an expired field.", default: .strict)
/// let ttl = try arguments[Options.ttl]          // .strict when --ttl is absent
/// ```
///
/// An `Option<T?>` without a default reads nil when absent; ``required(_:placeholder:help:)`` is
/// refused (64) when absent; ``repeatable(_:placeholder:help:)`` is read with
/// ``ParsedArguments/all(_:)``.
struct Option<Value: OptionValue>: OptionDeclaration {
  let name: String
  let placeholder: String
  /// The help without what the declaration adds (`Default: x`, the values, `Repeatable.`).
  let help: String
  /// The value when the option is absent; nil for a required or repeatable option.
  let defaultValue: Value?
  let repeatable: Bool
  /// What a value must be, for the error on one that does not parse: `a whole number from 1 to
  /// 10` gives "The value 'x' is invalid for '--n'; expected a whole number from 1 to 10.".
  let expected: String
  let isHidden: Bool
  let parse: @Sendable (String) -> Value?

  /// The general form; the initializers below name its common cases.
  init(
    _ name: String, placeholder: String, help: String, defaultValue: Value?, repeatable: Bool = false,
    expected: String = "a value", isHidden: Bool = false, parse: @escaping @Sendable (String) -> Value? = { Value(argument: $0) }
  ) {
    self.name = name
    self.placeholder = placeholder
    self.help = help
    self.defaultValue = defaultValue
    self.repeatable = repeatable
    self.expected = expected
    self.isHidden = isHidden
    self.parse = parse
  }

  /// An option whose absence means `default`, which help states (`Default: strict.`).
  init(_ name: String, placeholder: String, help: String, default: Value) {
    self.init(name, placeholder: placeholder, help: help, defaultValue: `default`)
  }

  /// An option the command cannot run without: its absence is a usage error (64).
  static func required(_ name: String, placeholder: String, help: String) -> Option {
    Option(name, placeholder: placeholder, help: help, defaultValue: nil)
  }

  /// An option given any number of times, each value used in the order given.
  static func repeatable(
    _ name: String, placeholder: String, help: String, expected: String = "a value",
    parse: @escaping @Sendable (String) -> Value? = { Value(argument: $0) }
  ) -> Option {
    Option(name, placeholder: placeholder, help: help, defaultValue: nil, repeatable: true, expected: expected, parse: parse)
  }

  /// The allowed values when they are few (an enum's cases), rendered `a|b` in usage lines.
  var choices: String { Value.allowedValues?.joined(separator: "|") ?? "<\(placeholder)>" }

  var spec: OptionSpec {
    var text = help
    if let defaultText = defaultValue?.argument { text += " Default: \(defaultText)." }
    if let allowed = Value.allowedValues { text += " (values: \(allowed.joined(separator: ", ")))" }
    if repeatable { text += " Repeatable." }
    return OptionSpec(
      name: name, placeholder: placeholder, help: text, repeatable: repeatable, isRequired: defaultValue == nil && !repeatable,
      isHidden: isHidden, allowed: Value.allowedValues)
  }
}

extension Option {
  /// An option that may be absent, then nil; its help says what absence means.
  init<Wrapped>(_ name: String, placeholder: String, help: String, expected: String = "a value", isHidden: Bool = false)
  where Value == Wrapped? {
    self.init(name, placeholder: placeholder, help: help, defaultValue: .some(nil), expected: expected, isHidden: isHidden)
  }
}

extension Option where Value == Int {
  /// A whole number in `range`, `default` when absent.
  init(_ name: String, placeholder: String, help: String, default: Int, range: ClosedRange<Int>) {
    self.init(
      name, placeholder: placeholder, help: help, defaultValue: `default`, expected: Self.wholeNumber(in: range),
      parse: { DecimalNumber.integer($0, negative: range.lowerBound < 0).flatMap { range.contains($0) ? $0 : nil } })
  }

  static func wholeNumber(in range: ClosedRange<Int>) -> String {
    "a whole number from \(range.lowerBound) to \(range.upperBound)"
  }
}

extension Option where Value == Int? {
  /// A whole number in `range`, nil when absent.
  init(_ name: String, placeholder: String, help: String, range: ClosedRange<Int>) {
    self.init(
      name, placeholder: placeholder, help: help, defaultValue: .some(nil), expected: Option<Int>.wholeNumber(in: range),
      parse: { text -> Int?? in
        // nil (not a number in range), never .some(nil) (absent).
        guard let number = DecimalNumber.integer(text, negative: range.lowerBound < 0), range.contains(number) else { return .none }
        return .some(.some(number))
      })
  }
}

extension Option where Value == Double {
  /// A percentage: a finite number, 0 or more; `default` when absent. The error on another value
  /// gives the default as its example ("expected a percentage such as 10").
  static func percentage(_ name: String, help: String, default: Double) -> Option {
    Option(
      name, placeholder: "PCT", help: help, defaultValue: `default`, expected: "a percentage such as \(`default`.argument!)",
      parse: { DecimalNumber.number($0, negative: false) })
  }
}

extension Option where Value == Double? {
  /// A percentage: a finite number, 0 or more; nil when absent, for a default that depends on
  /// other options (its help says which). `example` is for the error on another value.
  static func percentage(_ name: String, help: String, example: Int) -> Option {
    Option(
      name, placeholder: "PCT", help: help, defaultValue: .some(nil), expected: "a percentage such as \(example)",
      parse: { text -> Double?? in
        guard let number = DecimalNumber.number(text, negative: false) else { return .none }
        return .some(.some(number))
      })
  }
}
