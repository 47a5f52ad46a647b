import Foundation

/// The links of a Markdown page and the anchors its headings give, read as GitHub renders them
/// (GitHub-flavoured Markdown; anchors as github-slugger makes them). Only what the project's
/// pages use: inline links and images `[text](target)`, ATX headings, fenced code blocks and code
/// spans (whose contents are not links).
///
/// ```swift
/// let page = MarkdownLinks(text: "# A `b` c\n\nSee [x](other.md#d-e).\n")
/// page.anchors    // ["a-b-c"]
/// page.links      // [MarkdownLinks.Link(line: 3, target: "other.md#d-e")]
/// ```
struct MarkdownLinks {
  struct Link: Equatable {
    var line: Int
    var target: String
  }

  /// The anchors of the page's headings, duplicates numbered as GitHub does (`a`, `a-1`, `a-2`).
  private(set) var anchors: Set<String> = []
  private(set) var links: [Link] = []
  /// The line of a code fence that is never closed: GitHub then renders the rest of the page as
  /// code, links and headings included, which is never what a page means.
  private(set) var unclosedFence: Int? = nil

  init(text: String) {
    var counts: [String: Int] = [:]
    let (blocks, unclosedFence) = Self.blocks(of: text)
    self.unclosedFence = unclosedFence
    for block in blocks {
      for line in block.lines {
        guard let heading = Self.headingText(line) else { continue }
        let slug = Self.slug(heading)
        let seen = counts[slug, default: 0]
        counts[slug] = seen + 1
        anchors.insert(seen == 0 ? slug : "\(slug)-\(seen)")
      }
      links += Self.links(in: block)
    }
  }

  /// GitHub's anchor for a heading's text: the text as rendered (code spans, emphasis and links
  /// reduced to their text), lower-cased, every character but letters, digits, `-`, `_` and spaces
  /// removed, and each space made a `-`.
  static func slug(_ heading: String) -> String {
    var text = heading.replacing(#/!?\[([^\]]*)\]\([^)]*\)/#) { String($0.output.1) }
    text.removeAll { $0 == "`" || $0 == "*" }
    let kept = text.trimmingCharacters(in: .whitespaces).lowercased().filter {
      $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " "
    }
    return String(kept.map { $0 == " " ? "-" : $0 })
  }

  /// A paragraph or other run of lines outside fenced code, with the number of its first line.
  private struct Block {
    var firstLine: Int
    var lines: [String]
  }

  /// The page's lines outside fenced code blocks, cut at blank lines and fences, and the line of
  /// a fence left open at the end.
  private static func blocks(of text: String) -> ([Block], unclosedFence: Int?) {
    var blocks: [Block] = []
    var current = Block(firstLine: 1, lines: [])
    var fence: String? = nil
    var fenceLine = 0
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
      let trimmed = line.drop { $0 == " " }
      let marker = trimmed.hasPrefix("```") ? "```" : trimmed.hasPrefix("~~~") ? "~~~" : nil
      if let marker, fence == nil || fence == marker {
        fence = fence == nil ? marker : nil
        fenceLine = index + 1
      } else if fence == nil, !line.allSatisfy(\.isWhitespace) {
        if current.lines.isEmpty { current.firstLine = index + 1 }
        current.lines.append(line)
        continue
      }
      if !current.lines.isEmpty { blocks.append(current) }
      current = Block(firstLine: index + 2, lines: [])
    }
    if !current.lines.isEmpty { blocks.append(current) }
    return (blocks, fence == nil ? nil : fenceLine)
  }

  /// The text of an ATX heading (`## Text ##`), or nil for any other line.
  private static func headingText(_ line: String) -> String? {
    guard let match = line.wholeMatch(of: #/ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*/#) else { return nil }
    return String(match.output.1)
  }

  /// The targets of the block's inline links and images, code spans left out (a code span may
  /// run over a line break, and so may a link's text).
  private static func links(in block: Block) -> [Link] {
    let text = withoutCodeSpans(block.lines.joined(separator: "\n"))
    return text.matches(of: #/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/#).map { match in
      let line = block.firstLine + text[..<match.range.lowerBound].filter { $0 == "\n" }.count
      return Link(line: line, target: String(match.output.1))
    }
  }

  /// The text with every code span (a run of backticks up to the next run as long) replaced by
  /// spaces, line breaks kept, so that offsets still give lines.
  private static func withoutCodeSpans(_ text: String) -> String {
    var characters = Array(text)
    var index = 0
    while index < characters.count {
      guard characters[index] == "`" else {
        index += 1
        continue
      }
      var length = 0
      while index + length < characters.count, characters[index + length] == "`" { length += 1 }
      var end = index + length
      var closed: Int? = nil
      while end < characters.count {
        guard characters[end] == "`" else {
          end += 1
          continue
        }
        var run = 0
        while end + run < characters.count, characters[end + run] == "`" { run += 1 }
        if run == length {
          closed = end + run
          break
        }
        end += run
      }
      guard let closed else {
        index += length
        continue
      }
      for position in index..<closed where characters[position] != "\n" { characters[position] = " " }
      index = closed
    }
    return String(characters)
  }
}
