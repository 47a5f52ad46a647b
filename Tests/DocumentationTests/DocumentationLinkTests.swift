import Foundation
import Testing

/// The repository's root: this file is Tests/DocumentationTests/DocumentationLinkTests.swift.
let projectRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// What is wrong with the links of the Markdown pages at `paths` (from `root`): a relative link to
/// a file that does not exist, or an anchor (`#name`, in the same page or in another `.md` page)
/// that no heading of that page gives; or a code fence never closed, which hides the links after
/// it. One line each, `path:line: target: what is wrong`.
func brokenLinks(in paths: [String], root: URL) throws -> [String] {
  var pages: [String: MarkdownLinks] = [:]
  func page(_ path: String) throws -> MarkdownLinks {
    if let known = pages[path] { return known }
    let read = MarkdownLinks(text: try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
    pages[path] = read
    return read
  }
  var problems: [String] = []
  for path in paths {
    if let line = try page(path).unclosedFence {
      problems.append("\(path):\(line): a code fence that is never closed (the rest of the page is code)")
    }
    for link in try page(path).links {
      if link.target.contains(":") { continue }  // https:, mailto:: not the repository's
      let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      let file = parts[0].removingPercentEncoding ?? parts[0]
      let anchor = parts.count > 1 ? parts[1] : nil
      let directory = (path as NSString).deletingLastPathComponent
      let target = file.isEmpty ? path : normalized((directory as NSString).appendingPathComponent(file))
      let say = { (what: String) in problems.append("\(path):\(link.line): \(link.target): \(what)") }
      guard FileManager.default.fileExists(atPath: root.appendingPathComponent(target).path) else {
        say("no file \(target)")
        continue
      }
      guard let anchor, target.hasSuffix(".md") else { continue }
      if !(try page(target).anchors.contains(anchor)) { say("no heading in \(target) has the anchor #\(anchor)") }
    }
  }
  return problems
}

/// A relative path with its `.` and `..` components resolved (`results/../docs/a.md` is
/// `docs/a.md`); a `..` above the start is kept.
func normalized(_ path: String) -> String {
  var parts: [Substring] = []
  for part in path.split(separator: "/") where part != "." {
    if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
  }
  return parts.joined(separator: "/")
}

@Suite("Documentation links")
struct DocumentationLinkTests {
  /// README.md, results/README.md and every page of docs/.
  static func pages() throws -> [String] {
    let docs = try FileManager.default.contentsOfDirectory(atPath: projectRoot.appendingPathComponent("docs").path)
    return ["README.md", "results/README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }

  @Test("every relative link and anchor in README.md and docs/ leads somewhere")
  func everyLinkResolves() throws {
    let pages = try Self.pages()
    #expect(pages.count > 15)
    let broken = try brokenLinks(in: pages, root: projectRoot)
    #expect(broken == [], "\(broken.joined(separator: "\n"))")
  }

  @Test("the README is a tour: at most 300 lines")
  func readmeIsShort() throws {
    let text = try String(contentsOf: projectRoot.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(text.filter { $0 == "\n" }.count <= 300)
  }

  @Test("docs/README.md lists every page of docs/")
  func indexListsEveryPage() throws {
    let index = MarkdownLinks(text: try String(contentsOf: projectRoot.appendingPathComponent("docs/README.md"), encoding: .utf8))
    let listed = Set(index.links.map { $0.target.split(separator: "#").first.map(String.init) ?? "" })
    for page in try Self.pages() where page.hasPrefix("docs/") && page != "docs/README.md" {
      #expect(listed.contains(String(page.dropFirst("docs/".count))), "docs/README.md does not list \(page)")
    }
  }

  @Test("a missing file, a missing anchor and an anchor of another page are found; code is not a link")
  func findsBrokenLinks() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root.appendingPathComponent("docs"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let page = """
      # A page
      ## `run WORKLOAD... [--out FILE.csv]`
      ## Twice
      ## Twice

      [ok](#a-page), [ok](#run-workload---out-filecsv), [ok](#twice-1), [ok](docs/b.md#bs-heading),
      [missing
      anchor](#twice-2), [gone](docs/c.md), [no anchor](docs/b.md#a-page),
      ![image](docs/b.md) `[code](nowhere.md)` [web](https://example.com/#x)

      ```
      [fenced](nowhere.md)
      ```
      """
    try page.write(to: root.appendingPathComponent("a.md"), atomically: true, encoding: .utf8)
    try "# B's heading\n\n[back](../a.md#twice) [./](./b.md#bs-heading) [up](../docs/../a.md#nothing)\n".write(
      to: root.appendingPathComponent("docs/b.md"), atomically: true, encoding: .utf8)
    try "# C\n\n[fine](#c)\n\n```sh\nmake\n```\n\n```\n[hidden](nowhere.md)\n".write(
      to: root.appendingPathComponent("docs/open.md"), atomically: true, encoding: .utf8)
    #expect(
      try brokenLinks(in: ["docs/open.md"], root: root) == [
        "docs/open.md:9: a code fence that is never closed (the rest of the page is code)"
      ])
    #expect(
      try brokenLinks(in: ["a.md", "docs/b.md"], root: root) == [
        "a.md:8: #twice-2: no heading in a.md has the anchor #twice-2",
        "a.md:8: docs/c.md: no file docs/c.md",
        "a.md:8: docs/b.md#a-page: no heading in docs/b.md has the anchor #a-page",
        "docs/b.md:3: ../docs/../a.md#nothing: no heading in a.md has the anchor #nothing",
      ])
  }
}

@Suite("DocC symbol links")
struct SymbolLinkTests {
  /// Names from the standard library and Foundation that doc comments link to.
  static let known: Set<String> = [
    "String", "Int", "Int64", "UInt8", "UInt64", "Double", "Bool", "Array", "Dictionary", "Set", "Optional", "Sequence",
    "Collection", "Data", "URL", "Error", "Hashable", "Sendable", "Never", "Character", "Substring", "Range",
    "UnsafeRawBufferPointer", "UnsafeBufferPointer", "ContiguousArray", "KeyValuePairs", "Duration", "Date",
  ]

  @Test("every DocC symbol link in Sources names a declaration")
  func everySymbolLinkResolves() throws {
    let broken = try brokenSymbolLinks(under: ["Sources"], root: projectRoot, known: Self.known)
    #expect(broken == [], "\(broken.joined(separator: "\n"))")
  }

  @Test("a link to a member that is not there, or of a type that is not there, is found; nested scopes and labels are read")
  func findsBrokenSymbolLinks() {
    var index = SymbolIndex()
    index.add(
      source: #"""
        /// ``Outer/Inner/value`` and ``Outer/missing``.
        public struct Outer {
          public enum Inner: String { case value, other(Int), last; static let text = "} { func fake()" }
          func run(with argument: Int) { let local = 1; func nested() {} }
          init(path: String) {}
          /* struct Hidden { func hidden() } */
        }
        extension Outer.Inner { var extra: Int { 0 } }
        func topLevel() {}
        """#)
    #expect(index.resolves("Outer/Inner/value"))
    #expect(index.resolves("Outer/Inner/other(_:)"))
    #expect(index.resolves("Outer/Inner/last"))
    #expect(index.resolves("Outer/Inner/extra"))
    #expect(index.resolves("Outer/run(with:)"))
    #expect(index.resolves("Outer/init(path:)"))
    #expect(index.resolves("topLevel()"))
    #expect(index.resolves("Inner"))
    #expect(!index.resolves("Outer/missing"))
    #expect(!index.resolves("Outer/fake()"), "a string's text is not code")
    #expect(!index.resolves("Outer/local"), "a function's locals are not members")
    #expect(!index.resolves("Outer/nested()"))
    #expect(!index.resolves("Hidden"), "a comment's text is not code")
    #expect(!index.resolves("Missing/value"))
  }
}
