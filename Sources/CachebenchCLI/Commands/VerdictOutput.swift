import Results
import Support

/// How `compare` and `ab` print their verdicts: the terminal's tables (the default) or Markdown
/// (`--format markdown`), and Markdown to a file besides (`--markdown FILE`).
enum VerdictOutput {
  static let options = [
    OptionSpec(
      "format", value: "FORMAT", help: "What standard output gets: the terminal's tables (text, the default) or GitHub-flavoured markdown.",
      allowed: ["text", "markdown"]),
    OptionSpec("markdown", value: "FILE.md", help: "Write the markdown summary to this file as well (e.g. for $GITHUB_STEP_SUMMARY)."),
  ]

  /// Checks `--format` before anything runs.
  static func format(_ arguments: ParsedArguments, usage: String) throws -> String {
    let format = arguments.value("format") ?? "text"
    guard format == "text" || format == "markdown" else {
      throw UsageError(message: "The value '\(format)' is invalid for '--format'; expected text or markdown.", usage: usage)
    }
    return format
  }

  /// `--out` and `--markdown` must be files of their own (64 otherwise): the Markdown, written
  /// second, would replace the verdicts; and neither may be one of the inputs (the positional
  /// arguments: `compare`'s CSVs, `ab`'s workloads).
  static func checkDistinct(_ arguments: ParsedArguments, usage: String) throws {
    var outputs = OutputFiles()
    outputs.add("'--out'", arguments.value("out"))
    outputs.add("'--markdown'", arguments.value("markdown"))
    for path in arguments.positionals { outputs.addInput("the input '\(path)'", path) }
    try outputs.checkDistinct(usage: usage)
  }

  /// Prints `text` or `markdown` as `--format` asks, and writes `markdown` to `--markdown`'s file.
  static func write(text: String, markdown: @autoclosure () -> String, format: String, arguments: ParsedArguments) throws {
    let markdownText = format == "markdown" || arguments.value("markdown") != nil ? markdown() : ""
    try writeStandardOutput(format == "markdown" ? markdownText : text)
    if let file = arguments.value("markdown") {
      try AtomicFile.createDirectory(for: file)
      try AtomicFile.write(markdownText, to: file)
    }
  }
}
