import Results
import Support

/// How `compare` and `ab` print their verdicts: the terminal's tables (the default) or Markdown
/// (`--format markdown`), and Markdown to a file besides (`--markdown FILE`).
enum VerdictOutput {
  /// What standard output gets.
  enum Format: String, CaseIterable, OptionValue {
    case text, markdown
  }

  static let format = Option<Format>(
    "format", placeholder: "FORMAT", help: "What standard output gets: the terminal's tables (text) or GitHub-flavoured markdown.",
    default: .text)
  static let markdown = Option<String?>(
    "markdown", placeholder: "FILE.md", help: "Write the markdown summary to this file as well (e.g. for $GITHUB_STEP_SUMMARY).")
  static let options: [any OptionDeclaration] = [format, markdown]

  /// `--out` and `--markdown` must be files of their own (64 otherwise): the Markdown, written
  /// second, would replace the verdicts; and neither may be one of the inputs (the positional
  /// arguments: `compare`'s CSVs, `ab`'s workloads) or of the input options named in `inputs`
  /// (`compare --thresholds`).
  static func checkDistinct(_ arguments: ParsedArguments, out: Option<String?>, inputs: [Option<String?>] = []) throws {
    var outputs = OutputFiles()
    outputs.add("'--\(out.name)'", try arguments[out])
    outputs.add("'--\(markdown.name)'", try arguments[markdown])
    for path in arguments.positionals { outputs.addInput("the input '\(path)'", path) }
    for option in inputs { outputs.addInput("'--\(option.name)'", try arguments[option]) }
    try outputs.checkDistinct(usage: arguments.usage)
  }

  /// Prints `text` or `markdown` as `--format` asks, and writes `markdown` to `--markdown`'s file.
  static func write(text: String, markdown markdownSummary: @autoclosure () -> String, arguments: ParsedArguments) throws {
    let format = try arguments[format]
    let file = try arguments[markdown]
    let markdownText = format == .markdown || file != nil ? markdownSummary() : ""
    try writeStandardOutput(format == .markdown ? markdownText : text)
    if let file {
      try AtomicFile.createDirectory(for: file)
      try AtomicFile.write(markdownText, to: file)
    }
  }
}
