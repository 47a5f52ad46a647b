/// What a command accepts: its options, its positional arguments and its help text.
struct CommandSpec: Sendable {
  let name: String
  let abstract: String
  /// The usage line after `cachebench `: generated from the options unless the command's
  /// options have a structure a list does not show (normalize's read, ab's `--paired` group).
  let usage: String
  let options: [OptionSpec]
  /// The name of the positional arguments in help (`<workload>`), or nil when there are none.
  let positionalName: String?
  let positionalHelp: String?
  let minimumPositionals: Int
  let maximumPositionals: Int
  let discussion: String?

  /// - Parameter usage: the usage line after `cachebench `, for a command whose options a plain
  ///   list does not describe; nil (the default) generates it: the name, the positional
  ///   arguments (`<workload>...` when several are taken), then every option in the order given.
  init(
    name: String, abstract: String, usage: String? = nil, options: [any OptionDeclaration], positionalName: String? = nil,
    positionalHelp: String? = nil, minimumPositionals: Int = 0, maximumPositionals: Int = 0, discussion: String? = nil
  ) {
    self.name = name
    self.abstract = abstract
    self.options = options.map(\.spec)
    self.positionalName = positionalName
    self.positionalHelp = positionalHelp
    self.minimumPositionals = minimumPositionals
    self.maximumPositionals = maximumPositionals
    self.discussion = discussion
    self.usage =
      usage
      ?? Self.usage(
        name: name, options: self.options, positionalName: positionalName,
        repeatsPositionals: maximumPositionals > minimumPositionals)
  }

  private static func usage(name: String, options: [OptionSpec], positionalName: String?, repeatsPositionals: Bool) -> String {
    var parts = [name]
    if let positionalName { parts.append(positionalName + (repeatsPositionals ? "..." : "")) }
    parts += options.filter { !$0.isHidden }.map(\.usage)
    return parts.joined(separator: " ")
  }

  /// The options a command line may give: the declared ones and `--help`.
  var acceptedOptions: [OptionSpec] { options + [Flag.help.spec] }
}

extension CommandSpec {
  /// Help in argument-parser's shape: OVERVIEW, USAGE, ARGUMENTS, OPTIONS.
  var help: String {
    var lines = ["OVERVIEW: \(abstract)", "", "USAGE: cachebench \(usage)", ""]
    if let positionalName, let positionalHelp {
      lines += ["ARGUMENTS:", Self.row(positionalName, positionalHelp), ""]
    }
    lines.append("OPTIONS:")
    for option in acceptedOptions {
      var left = option.name == Flag.help.name ? "-h, --help" : "--\(option.name)"
      if let placeholder = option.placeholder { left += " <\(placeholder)>" }
      lines.append(Self.row(left, option.help))
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
