import Results
import Support

/// Wrong usage: printed as `Error: message` and the usage line, exit code 64.
struct UsageError: Error, ExitCodeCarrying {
  let message: String
  let usage: String?

  var exitCode: ExitCode { .usage }
}

/// The options and positional arguments of one invocation, in the order given, read through
/// their declarations:
///
/// ```swift
/// let ttl = try arguments[Options.ttl]            // TTLEnforcement, its default when absent
/// let schemas = try arguments.all(Options.schema) // [String], in command-line order
/// let allowLarge = arguments[Flag.allowLarge]     // Bool
/// ```
///
/// A value with few allowed values (an enum's) is checked when the command line is read; any
/// other value when the command reads it, so that a command's own checks keep their order.
/// Reading an option the command does not declare is a programmer error, and traps.
struct ParsedArguments {
  /// One option given on the command line: its name and its value (nil for a flag).
  struct Occurrence {
    let name: String
    let value: String?
  }

  /// Each option occurrence, in command-line order.
  private(set) var occurrences: [Occurrence] = []
  private(set) var positionals: [String] = []
  /// The command's usage line, for the errors of values read later.
  let usage: String
  private let declared: Set<String>

  /// Parses arguments against a spec: `--name value`, `--name=value`, flags, `--` ends options.
  /// - Throws: ``UsageError`` for an unknown option (suggesting a near miss), a missing value, a
  ///   value not allowed, a repeated non-repeatable option, the wrong number of positionals, or
  ///   a missing required option. Only the first two when `--help` is given.
  init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
    usage = spec.usage
    declared = Set(spec.acceptedOptions.map(\.name))
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      if argument == "-h" {
        occurrences.append(Occurrence(name: Flag.help.name, value: nil))
        continue
      }
      let (option, value) = try Self.option(argument, following: arguments, at: &index, spec: spec)
      if !option.repeatable, option.name != Flag.help.name, occurrences.contains(where: { $0.name == option.name }) {
        throw UsageError(message: "The option '--\(option.name)' was given more than once.", usage: spec.usage)
      }
      occurrences.append(Occurrence(name: option.name, value: value))
    }
    if isSet(Flag.help) { return }
    if positionals.count < spec.minimumPositionals {
      throw UsageError(message: "Missing expected argument '\(spec.positionalName ?? "<argument>")'.", usage: spec.usage)
    }
    if positionals.count > spec.maximumPositionals {
      throw UsageError(message: "Unexpected argument '\(positionals[spec.maximumPositionals])'.", usage: spec.usage)
    }
    let missing = spec.options.filter { option in option.isRequired && !occurrences.contains { $0.name == option.name } }
    if !missing.isEmpty {
      let names = missing.map { "'\($0.synopsis)'" }
      throw UsageError(
        message: "Missing expected option\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ", last: " and ")).",
        usage: spec.usage)
    }
  }

  /// Whether the option was given on the command line (a default applies otherwise).
  func isSet(_ option: any OptionDeclaration) -> Bool {
    checkDeclared(option.name)
    return occurrences.contains { $0.name == option.name }
  }

  /// Whether the flag was given.
  subscript(flag: Flag) -> Bool { isSet(flag) }

  /// The value of a non-repeatable option: the one given, else the declared default (nil for an
  /// optional option without one).
  /// - Throws: ``UsageError`` for a value the option's type does not take.
  subscript<Value>(option: Option<Value>) -> Value {
    get throws(UsageError) {
      precondition(!option.repeatable, "--\(option.name) is repeatable: read it with all(_:)")
      checkDeclared(option.name)
      guard let text = occurrences.last(where: { $0.name == option.name })?.value else {
        guard let value = option.defaultValue else {
          preconditionFailure("--\(option.name) is required, so parsing the command line found it")
        }
        return value
      }
      return try value(text, of: option)
    }
  }

  /// Every value of a repeatable option, in command-line order.
  /// - Throws: ``UsageError`` for the first value the option's type does not take.
  func all<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
    precondition(option.repeatable, "--\(option.name) is not repeatable: read it with its subscript")
    checkDeclared(option.name)
    var values: [Value] = []
    for occurrence in occurrences where occurrence.name == option.name {
      if let text = occurrence.value { values.append(try value(text, of: option)) }
    }
    return values
  }

  /// `text` read as `option`'s value, for a command that walks ``occurrences`` itself.
  /// - Throws: ``UsageError`` when the option's type does not take `text`.
  func value<Value>(_ text: String, of option: Option<Value>) throws(UsageError) -> Value {
    if let value = option.parse(text) { return value }
    if let allowed = Value.allowedValues { throw Self.notAllowed(text, option: option.name, allowed: allowed, usage: usage) }
    throw UsageError(message: "The value '\(text)' is invalid for '--\(option.name)'; expected \(option.expected).", usage: usage)
  }

  private func checkDeclared(_ name: String) {
    precondition(declared.contains(name), "--\(name) is not an option of this command")
  }

  /// The option `argument` names and its value, taken inline (`--name=value`) or from the next
  /// argument, which `index` then moves past. A value of few allowed values is checked here.
  private static func option(
    _ argument: String, following arguments: [String], at index: inout Int, spec: CommandSpec
  ) throws(UsageError) -> (OptionSpec, String?) {
    let options = spec.acceptedOptions
    // Two dashes and a name; `---quick` names no option, so it is not read as `--quick`.
    var name = String(argument.dropFirst(argument.hasPrefix("--") ? 2 : 1))
    var inlineValue: String?
    if let equals = name.firstIndex(of: "=") {
      inlineValue = String(name[name.index(after: equals)...])
      name = String(name[..<equals])
    }
    guard argument.hasPrefix("--"), let option = options.first(where: { $0.name == name }) else {
      var message = "Unknown option '\(argument.split(separator: "=").first.map(String.init) ?? argument)'."
      if let suggestion = Self.nearest(to: String(name.drop { $0 == "-" }), in: options.map(\.name)) {
        message += " Did you mean '--\(suggestion)'?"
      }
      throw UsageError(message: message, usage: spec.usage)
    }
    guard let placeholder = option.placeholder else {
      if inlineValue != nil { throw UsageError(message: "The flag '--\(name)' takes no value.", usage: spec.usage) }
      return (option, nil)
    }
    let value: String
    if let inlineValue {
      value = inlineValue
    } else if index < arguments.count {
      value = arguments[index]
      index += 1
    } else {
      throw UsageError(message: "Missing value for '--\(name) \(placeholder)'.", usage: spec.usage)
    }
    if let allowed = option.allowed, !allowed.contains(value) {
      throw notAllowed(value, option: name, allowed: allowed, usage: spec.usage)
    }
    return (option, value)
  }

  /// A value not among an option's few: the values, and the nearest when one is close.
  private static func notAllowed(_ value: String, option name: String, allowed: [String], usage: String) -> UsageError {
    var message = "The value '\(value)' is invalid for '--\(name)'; expected one of: \(allowed.joined(separator: ", "))."
    if let suggestion = nearest(to: value, in: allowed) { message += " Did you mean '\(suggestion)'?" }
    return UsageError(message: message, usage: usage)
  }

  static func nearest(to word: String, in candidates: [String]) -> String? {
    Suggestion.nearest(to: word, in: candidates)
  }
}

extension Array where Element == String {
  /// `a`, `a and b`, `a, b and c`.
  fileprivate func joined(separator: String, last: String) -> String {
    count < 2 ? joined(separator: separator) : dropLast().joined(separator: separator) + last + self.last!
  }
}
