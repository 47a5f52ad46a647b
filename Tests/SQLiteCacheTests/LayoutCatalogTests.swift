import Foundation
import Testing

@testable import SQLiteCache

/// The layout catalog (``LayoutDescriptor``) is the one place a layout is described: the docs'
/// tables, the pages' labels and the sources are checked against it, so that a layout added
/// without its docs, or a layout fact written a second time, fails here.
@Suite("Layout catalog")
struct LayoutCatalogTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The row docs/stores.md's layout table gives a layout.
  static func storesRow(_ descriptor: LayoutDescriptor) -> String {
    let origin = descriptor.origin.rawValue
    let shape = descriptor.dataColumn.map { "a row a record (`\($0)`)" } ?? "a row a field"
    let table = descriptor.withoutRowid ? "`WITHOUT ROWID`" : "rowid"
    let splits = descriptor.splitsRecords ? "yes" : "no"
    return "| `\(descriptor.layout)` | \(origin) | \(shape) | \(table) | \(splits) | \(descriptor.summary) |"
  }

  @Test("the catalog is every case of Layout, in order, each its own descriptor")
  func catalogIsEveryCase() {
    #expect(LayoutDescriptor.all.map(\.layout) == SQLiteNormalizedCache.Layout.allCases)
    for descriptor in LayoutDescriptor.all {
      // A data column is one of the table's; only a row a record is split; Apollo 3.0's tables
      // are the ones known by their schema version.
      if let column = descriptor.dataColumn { #expect(descriptor.columns.contains(column)) }
      #expect(!descriptor.splitsRecords || descriptor.dataColumn != nil)
      #expect((descriptor.origin == .apollo3) == (descriptor.schemaVersion != nil))
      #expect(!descriptor.label.isEmpty && !descriptor.summary.contains("|") && !descriptor.summary.contains("\n"))
    }
  }

  @Test("docs/stores.md's layout table is the catalog, row for row")
  func storesTable() throws {
    let lines = try Self.text("docs/stores.md").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let marker = try #require(lines.firstIndex { $0.hasPrefix("<!-- layout catalog:") })
    let rows = lines[(marker + 3)...].prefix { $0.hasPrefix("|") }
    #expect(Array(rows) == LayoutDescriptor.all.map(Self.storesRow))
  }

  @Test("docs/workloads.md's layout values are the catalog's names and all")
  func workloadValues() throws {
    let line = try #require(
      try Self.text("docs/workloads.md").split(separator: "\n").first { $0.hasPrefix("| `layout` | string |") })
    let values = line.split(separator: "|")[3].split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
    }
    #expect(values == SQLiteNormalizedCache.Layout.allCases.map(\.rawValue) + ["all"])
    let options = try #require(try Self.text("docs/stores.md").split(separator: "\n").first { $0.hasPrefix("| `layout` | `layout` |") })
    let names = SQLiteNormalizedCache.Layout.allCases.map { "`\($0)`" }.joined(separator: ", ")
    #expect(options == "| `layout` | `layout` | one of the [layouts](#layouts): \(names) | `compact` |")
  }

  @Test("scripts/layout_labels.py gives the pages the catalog's store labels and labels")
  func pageLabels() throws {
    let script = try Self.text("scripts/layout_labels.py")
    for descriptor in LayoutDescriptor.all {
      #expect(script.contains("\"sqlite-\(descriptor.layout)\": \"\(descriptor.label)\","), "\(descriptor.layout)")
    }
    let names = LayoutDescriptor.all.map { "\"sqlite-\($0.layout)\"" }
    let listed = try #require(script.split(separator: "\n").first { $0.hasPrefix("LAYOUTS = [") })
    #expect(Set(listed.dropFirst("LAYOUTS = [".count).dropLast().split(separator: ", ").map(String.init)) == Set(names))
  }

  /// Adding a layout touches its case, its descriptor, its store and format, and nothing else
  /// (docs/guide-how-it-works.md#adding-a-sqlite-layout): the files of `Sources` whose code names
  /// a layout case are these; a new one fails until it takes its fact from the descriptor, or the
  /// guide says why it cannot.
  @Test("only the catalog, the formats and Tier3Operations name a layout case in the sources")
  func filesNamingALayout() throws {
    let pattern = try Regex(
      #"\.rowsRowid\b|\.rowsOrdered\b|case \.rows\b|layout (==|!=) \.[a-z]|Layout\.(compact|apollo|rows)\b|layout: \.(compact|apollo|rows)\b|Layout \{ \."#
    )
    let sources = Self.root.appendingPathComponent("Sources")
    var naming: [String] = []
    let files = try #require(FileManager.default.enumerator(atPath: sources.path))
    for case let file as String in files where file.hasSuffix(".swift") {
      let code = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
        .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
      if code.contains(where: { $0.contains(pattern) }) { naming.append(file) }
    }
    #expect(
      naming.sorted() == [
        "SQLiteCache/ApolloRecordFormat.swift", "SQLiteCache/CompactRecordFormat.swift", "SQLiteCache/LayoutDescriptor.swift",
        "SQLiteCache/Tier3Operations.swift",
      ])
  }
}
