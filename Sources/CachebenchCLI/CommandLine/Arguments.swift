import Results

/// What a command accepts: its options, its positional arguments and its help text.
struct CommandSpec {
  let name: String
  let abstract: String
  /// The usage line after `cachebench `.
  let usage: String
  var options: [OptionSpec]
  /// The name of the positional arguments in help (`<workload>`), or nil when there are none.
  var positionalName: String? = nil
  var positionalHelp: String? = nil
  var minimumPositionals = 0
  var maximumPositionals = 0
  var discussion: String? = nil

  var helpOption: OptionSpec { OptionSpec("help", help: "Show help information.") }
}

/// `--name <value>` or the flag `--name`.
struct OptionSpec {
  let name: String
  /// The placeholder of the value in help; nil for a flag.
  let valueName: String?
  let help: String
  var repeatable = false
  /// The values allowed, when they are few.
  var allowed: [String]? = nil

  init(_ name: String, value: String? = nil, help: String, repeatable: Bool = false, allowed: [String]? = nil) {
    self.name = name
    self.valueName = value
    self.help = help
    self.repeatable = repeatable
    self.allowed = allowed
  }
}

/// Wrong usage: printed as `Error: message` and the usage line, exit code 64.
struct UsageError: Error, ExitCodeCarrying {
  let message: String
  let usage: String?

  var exitCode: ExitCode { .usage }
}

/// The options and positional arguments of one invocation, in the order given.
struct ParsedArguments {
  /// Each option occurrence, in command-line order.
  private(set) var occurrences: [(name: String, value: String?)] = []
  private(set) var positionals: [String] = []

  func values(_ name: String) -> [String] { occurrences.filter { $0.name == name }.compactMap(\.value) }
  func value(_ name: String) -> String? { values(name).last }
  func has(_ name: String) -> Bool { occurrences.contains { $0.name == name } }

  /// The whole number `--name` gives, nil without the option.
  /// - Throws: ``UsageError`` (with `usage`) for a value that is not a whole number in `range`.
  func integer(_ name: String, in range: ClosedRange<Int>, usage: String) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    return try Self.integer(text, option: name, in: range, usage: usage)
  }

  /// `text` as the whole number option `--option` must give.
  /// - Throws: ``UsageError`` (with `usage`) for a value that is not a whole number in `range`.
  static func integer(_ text: String, option name: String, in range: ClosedRange<Int>, usage: String) throws(UsageError) -> Int {
    guard let number = Int(text), range.contains(number) else {
      throw UsageError(
        message: "The value '\(text)' is invalid for '--\(name)'; expected a whole number from \(range.lowerBound) to \(range.upperBound).",
        usage: usage)
    }
    return number
  }

  /// Parses arguments against a spec: `--name value`, `--name=value`, flags, `--` ends options.
  /// - Throws: ``UsageError`` for an unknown option (suggesting a near miss), a missing value, a
  ///   value not allowed, a repeated non-repeatable option, or the wrong number of positionals.
  init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
    let options = spec.options + [spec.helpOption]
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
        occurrences.append(("help", nil))
        continue
      }
      let (option, value) = try Self.option(argument, following: arguments, at: &index, spec: spec, options: options)
      if !option.repeatable, option.name != "help", has(option.name) {
        throw UsageError(message: "The option '--\(option.name)' was given more than once.", usage: spec.usage)
      }
      occurrences.append((option.name, value))
    }
    if has("help") { return }
    if positionals.count < spec.minimumPositionals {
      throw UsageError(message: "Missing expected argument '\(spec.positionalName ?? "<argument>")'.", usage: spec.usage)
    }
    if positionals.count > spec.maximumPositionals {
      throw UsageError(message: "Unexpected argument '\(positionals[spec.maximumPositionals])'.", usage: spec.usage)
    }
  }

  /// The option `argument` names and its value, taken inline (`--name=value`) or from the next
  /// argument, which `index` then moves past.
  private static func option(
    _ argument: String, following arguments: [String], at index: inout Int, spec: CommandSpec, options: [OptionSpec]
  ) throws(UsageError) -> (OptionSpec, String?) {
    var name = String(argument.drop(while: { $0 == "-" }))
    var inlineValue: String?
    if let equals = name.firstIndex(of: "=") {
      inlineValue = String(name[name.index(after: equals)...])
      name = String(name[..<equals])
    }
    guard argument.hasPrefix("--"), let option = options.first(where: { $0.name == name }) else {
      var message = "Unknown option '\(argument.split(separator: "=").first.map(String.init) ?? argument)'."
      if let suggestion = Self.nearest(to: name, in: options.map(\.name)) {
        message += " Did you mean '--\(suggestion)'?"
      }
      throw UsageError(message: message, usage: spec.usage)
    }
    var value: String?
    if option.valueName != nil {
      if let inlineValue {
        value = inlineValue
      } else if index < arguments.count {
        value = arguments[index]
        index += 1
      } else {
        throw UsageError(message: "Missing value for '--\(name) \(option.valueName!)'.", usage: spec.usage)
      }
      if let allowed = option.allowed, let given = value, !allowed.contains(given) {
        var message = "The value '\(given)' is invalid for '--\(name)'; expected one of: \(allowed.joined(separator: ", "))."
        if let suggestion = Self.nearest(to: given, in: allowed) { message += " Did you mean '\(suggestion)'?" }
        throw UsageError(message: message, usage: spec.usage)
      }
    } else if inlineValue != nil {
      throw UsageError(message: "The flag '--\(name)' takes no value.", usage: spec.usage)
    }
    return (option, value)
  }

  static func nearest(to word: String, in candidates: [String]) -> String? {
    Suggestion.nearest(to: word, in: candidates)
  }
}

extension CommandSpec {
  /// Help in argument-parser's shape: OVERVIEW, USAGE, ARGUMENTS, OPTIONS.
  var help: String {
    var lines = ["OVERVIEW: \(abstract)", "", "USAGE: cachebench \(usage)", ""]
    if let positionalName, let positionalHelp {
      lines += ["ARGUMENTS:", Self.row(positionalName, positionalHelp), ""]
    }
    lines.append("OPTIONS:")
    for option in options + [helpOption] {
      var left = "--\(option.name)"
      if option.name == "help" { left = "-h, --help" }
      if let valueName = option.valueName { left += " <\(valueName)>" }
      var help = option.help
      if let allowed = option.allowed { help += " (values: \(allowed.joined(separator: ", ")))" }
      if option.repeatable { help += " Repeatable." }
      lines.append(Self.row(left, help))
    }
    if let discussion { lines += ["", discussion] }
    return lines.joined(separator: "\n") + "\n"
  }

  static func row(_ left: String, _ right: String) -> String {
    let padded = "  " + left
    if padded.count >= 28 { return padded + "\n" + String(repeating: " ", count: 28) + right }
    return padded + String(repeating: " ", count: 28 - padded.count) + right
  }
}

extension OptionSpec {
  /// `--allow-large`, as `run`, `generate` and `validate` take it.
  static let allowLarge = OptionSpec(
    "allow-large",
    help: "Run what is estimated too large: generated responses past 2 million objects or 200 MB per response, or 20 million objects or 2 GB in all; store records past 20 million or 2 GB; a traffic session past 20 GB of responses per store and key strategy.")
}
