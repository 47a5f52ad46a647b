import Foundation
import Testing

@testable import Results

@Suite("A history of runs")
struct ResultsHistoryTests {
  @Test("appending creates the file with its header, then adds after the rows already there")
  func append() throws {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/nested/history.csv"
    let first = [Fixtures.row(p50: 1), Fixtures.row("records", phase: .dedup, p50: 40, unit: .count)]
    try ResultsHistory(path: path).append(first)
    var second = Fixtures.row(p50: 2)
    second.run.runID = "r2"
    try ResultsHistory(path: path).append([second])
    let rows = try ResultsFile.read(MetricRow.self, from: path)
    #expect(rows == first + [second])
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.components(separatedBy: "\n").filter { $0.hasPrefix("run_id,") }.count == 1)
    #expect(try Fixtures.contents(of: directory + "/nested") == ["history.csv"])
  }

  @Test("a file with another header is an error naming it, and is left as it was")
  func anotherHeader() throws {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/other.csv"
    try "a,b\n1,2\n".write(toFile: path, atomically: true, encoding: .utf8)
    let error = #expect(throws: CSVError.self) { try ResultsHistory(path: path) }
    #expect(
      error?.description
        == "\(path):1: not a history of results: its header is 'a,b', not the columns of 'cachebench run'")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "a,b\n1,2\n")
  }
}
