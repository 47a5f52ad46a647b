import Foundation
import Testing

@testable import Workloads

/// Writes a workload file into a fresh directory and loads it (warnings with the directory cut).
private func loadWarnings(_ text: String) throws -> [String] {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workload-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let path = directory.appendingPathComponent("w.json").path
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  return try Workload.load(path).warnings.map {
    $0.replacingOccurrences(of: #"^/[^ ]*/workload-[0-9A-F-]+/"#, with: "", options: .regularExpression)
  }
}

@Suite("--quick of recorded workloads, and settings that change nothing")
struct QuickAndWarningsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test("--quick of layouts-narrow.json keeps its whole read and both narrow ones")
  func layoutsNarrow() throws {
    let workload = try Workload.load(Self.root.appendingPathComponent("Workloads/layouts-narrow.json").path)
    guard case .recorded(let recorded) = workload.quick().source else {
      Issue.record("layouts-narrow.json is not recorded")
      return
    }
    #expect(recorded.operations.map(\.operationName) == ["ItemsQuery", "ItemTitlesQuery", "ItemAgendaQuery"])
  }

  @Test("--quick keeps the first tenth, then the first operation of each document not among them, in order")
  func firstOfEachDocument() {
    func operation(_ file: String, _ name: String?, _ index: Int) -> RecordedOperation {
      RecordedOperation(documents: [file], operationName: name, response: "r\(index).json")
    }
    // 30: A 25 times, then B, C (two names in one file), B again, then A.
    var operations = (0..<25).map { operation("a.graphql", nil, $0) }
    operations += [operation("b.graphql", nil, 25), operation("c.graphql", "C1", 26), operation("c.graphql", "C2", 27)]
    operations += [operation("b.graphql", nil, 28), operation("a.graphql", nil, 29)]
    #expect(Workload.quick(operations).map(\.response) == ["r0.json", "r1.json", "r2.json", "r25.json", "r26.json", "r27.json"])
    // A tenth that holds every document: only the tenth.
    let alternating = (0..<20).map { operation($0 % 2 == 0 ? "a.graphql" : "b.graphql", nil, $0) }
    #expect(Workload.quick(alternating).map(\.response) == ["r0.json", "r1.json"])
    // One operation: itself.
    #expect(Workload.quick([operation("a.graphql", nil, 0)]).map(\.response) == ["r0.json"])
  }

  static let why = "changes nothing here: generator.narrowReads"

  @Test("a sweep of a knob narrowReads does not use beside it is a warning at its key; fieldsPerType, its of, is used")
  func sweepBesideNarrowReads() throws {
    let head =
      #"{"name": "n", "seed": 1, "generator": {"responses": 4, "narrowReads": {"fields": 2, "of": 6}},"#
      + "\n" + #" "read": {"verify": false},"# + "\n"
    // fieldsPerType is narrowReads.of: a sweep of it sets the fields every point reads.
    #expect(try loadWarnings(head + #" "sweep": {"generator.fieldsPerType": [6, 12]}}"#).isEmpty)
    #expect(
      try loadWarnings(head + #" "sweep": {"generator.depth": [2, 3]}}"#) == [
        "w.json:3:12: sweep.generator.depth: \(Self.why) makes the operations (a list and a detail per keyed type), which depth does not shape, so every point runs the same workload"
      ])
    // A knob narrowReads uses, or no narrowReads: nothing to say.
    #expect(try loadWarnings(head + #" "sweep": {"generator.duplication": [0, 1]}}"#).isEmpty)
    #expect(
      try loadWarnings(#"{"name": "n", "seed": 1, "generator": {"responses": 4}, "sweep": {"generator.fieldsPerType": [2, 6]}}"#).isEmpty)
  }

  @Test("refreshOnExpiry with no watchers is a warning at its key; with watchers, none")
  func refreshWithoutWatchers() throws {
    let head = #"{"name": "t", "seed": 1, "generator": {"responses": 4}, "stores": [{"kind": "memory", "dates": true}],"# + "\n"
    #expect(
      try loadWarnings(head + #" "traffic": {"steps": 100, "watchers": 0, "refreshOnExpiry": true}}"#) == [
        "w.json:2:43: traffic.refreshOnExpiry: changes nothing here: it sets the watched operations' timers, and traffic.watchers is 0: none is watched"
      ])
    #expect(try loadWarnings(head + #" "traffic": {"steps": 100, "watchers": 1, "refreshOnExpiry": true}}"#).isEmpty)
    #expect(try loadWarnings(head + #" "traffic": {"steps": 100, "watchers": 0, "refreshOnExpiry": false}}"#).isEmpty)
  }
}
