import Foundation
import Testing

@Suite("DocC symbol links")
struct SymbolLinkTests {
  @Test("every DocC symbol link in a doc comment of Sources names a declaration of Sources")
  func everySymbolLinkResolves() throws {
    let files = try swiftFiles(under: "Sources", root: projectRoot)
    #expect(files.count > 100)
    let broken = try brokenSymbolLinks(in: files, root: projectRoot)
    #expect(broken == [], "\(broken.joined(separator: "\n"))")
  }

  @Test(
    "a link is read as its components, labels and all",
    arguments: [
      ("Record", [SymbolLink.Component(name: "Record", labels: nil)]),
      ("init()", [.init(name: "init", labels: [])]),
      ("LayoutStore/keys(matching:)", [.init(name: "LayoutStore", labels: nil), .init(name: "keys", labels: ["matching"])]),
      ("Connection/inBatches(_:sql:_:)", [.init(name: "Connection", labels: nil), .init(name: "inBatches", labels: ["_", "sql", "_"])]),
      ("A/B/c-swift.property", [.init(name: "A", labels: nil), .init(name: "B", labels: nil), .init(name: "c", labels: nil)]),
    ])
  func readsLinks(text: String, components: [SymbolLink.Component]) {
    #expect(SymbolLink(text).components == components)
  }

  @Test("members are read with their labels from funcs, inits, subscripts, cases and properties, not from comments, strings or bodies")
  func readsDeclarations() {
    var swift = SwiftDeclarations()
    swift.read(
      #"""
      /// struct Commented { func hidden() }
      public struct Outer<T: Equatable>: Sendable where T: Hashable {
        public static func `default`(for value: Int) -> Outer { fatalError("struct Quoted { func inString() }") }
        init?<S: Sequence>(_ items: S, sql: (Int) -> String = { "\("a(") \(1)" }, _ body: (Int, Int) throws -> Void) {
          let local = 1
          func nested(x: Int) {}
        }
        subscript(key: String, at index: Int) -> Int { get { 0 } }
        var count: Int { 0 }
        enum Problem { case tooDeep(Int), malformed(at: Int, reason: String), empty = 3, last }
        class func make(with value: Int) -> Outer { fatalError() }
      }
      extension Outer.Problem { static let all = [1] }
      func topLevel(matching pattern: String) {}
      """#)
    #expect(swift.types == ["Outer", "Problem"])
    #expect(
      swift.members["Outer"] == [
        .init(name: "default", labels: ["for"]), .init(name: "init", labels: ["_", "sql", "_"]),
        .init(name: "subscript", labels: ["_", "at"]), .init(name: "count"), .init(name: "Problem"),
        .init(name: "make", labels: ["with"]),
      ])
    #expect(
      swift.members["Problem"] == [
        .init(name: "tooDeep", labels: ["_"]), .init(name: "malformed", labels: ["at", "reason"]), .init(name: "empty"),
        .init(name: "last"), .init(name: "all"),
      ])
    #expect(swift.members[""] == [.init(name: "topLevel", labels: ["matching"])])
  }

  @Test("a link to a missing type, member or label is found with its file and line; code blocks are not links")
  func findsBrokenLinks() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("symbols-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/A"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let store = """
      /// A store: ``Store/keys(matching:)``, ``Store/Kind/rows(withoutRowid:)``, ``Store/count``,
      /// ``keys(matching:)``, ``Store``, ``Kind``.
      struct Store {
        enum Kind { case rows(withoutRowid: Bool) }
        var count = 0
        func keys(matching pattern: String) -> [String] { [] }
      }
      """
    let user = """
      /// See ``Store/keys(matching:)`` and ``Store/keys(like:)``.
      ///
      /// ```swift
      /// ``Nothing`` here is a link
      /// ```
      /// ``Stored`` is not a type, ``Store/size`` not a member,
      /// ``Store/Kind/rows`` is and ``Store/Kind/columns`` is not, ``keys(like:)`` is nothing.
      func use() {}
      """
    try store.write(to: root.appendingPathComponent("Sources/A/Store.swift"), atomically: true, encoding: .utf8)
    try user.write(to: root.appendingPathComponent("Sources/A/User.swift"), atomically: true, encoding: .utf8)
    let files = try swiftFiles(under: "Sources", root: root)
    #expect(files == ["Sources/A/Store.swift", "Sources/A/User.swift"])
    #expect(
      try brokenSymbolLinks(in: files, root: root) == [
        "Sources/A/User.swift:1: ``Store/keys(like:)``: Store declares no keys(like:)",
        "Sources/A/User.swift:6: ``Stored``: no type or member Stored in Sources",
        "Sources/A/User.swift:6: ``Store/size``: Store declares no size",
        "Sources/A/User.swift:7: ``Store/Kind/columns``: Kind declares no columns",
        "Sources/A/User.swift:7: ``keys(like:)``: no type or member keys(like:) in Sources",
      ])
  }
}
