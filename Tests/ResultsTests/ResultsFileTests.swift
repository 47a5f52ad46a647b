import Foundation
import Testing

@testable import Results
@testable import Support

@Suite("results files: atomic writing and reading back")
struct ResultsFileTests {
  @Test("a write leaves the file and no temporary file")
  func write() throws {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/books.csv"
    let rows = [Fixtures.row(p50: 812), Fixtures.row("allocations", p50: 12, unit: .count)]
    try ResultsFile.write(rows, to: path)
    #expect(try Fixtures.contents(of: directory) == ["books.csv"])
    #expect(try String(contentsOfFile: path, encoding: .utf8) == CSV.document(rows))
    #expect(try ResultsFile.read(MetricRow.self, from: path) == rows)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o644)
  }

  @Test("a results file with one metric in two rows is refused, naming both lines")
  func metricTwice() throws {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/books.csv"
    let latency = Fixtures.row(p50: 812)
    let allocations = Fixtures.row("allocations", p50: 12, unit: .count)
    // The header is line 1: latency on 2 and 4, with other figures on 4.
    try ResultsFile.write([latency, allocations, Fixtures.row(p50: 900)], to: path)
    #expect(throws: CSVError(file: path, line: 4, message: "a second row of books/memory/path/write/latency: line 2 holds it already")) {
      try ResultsFile.readMetricRows(from: path)
    }
    #expect(throws: CSVError.self) { try ResultsFile.readResults(from: path) }
    // The same rows once each read back as written, in order.
    try ResultsFile.write([latency, allocations], to: path)
    #expect(try ResultsFile.readMetricRows(from: path) == [latency, allocations])
  }

  @Test("a write replaces an existing file whole")
  func replace() throws {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/books.csv"
    try AtomicFile.write(String(repeating: "old\n", count: 1000), to: path)
    try AtomicFile.write("new\n", to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    #expect(try Fixtures.contents(of: directory) == ["books.csv"])
  }

  @Test("a bare file name writes in the current directory's terms")
  func split() {
    #expect(AtomicFile.split("books.csv") == (".", "books.csv"))
    #expect(AtomicFile.split("/books.csv") == ("/", "books.csv"))
    #expect(AtomicFile.split("results/books.csv") == ("results", "books.csv"))
  }

  @Test("writing into a missing directory fails with the path and leaves nothing")
  func missingDirectory() throws {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/missing/books.csv"
    #expect(throws: OutputError(path: path, operation: "create a temporary file", code: ENOENT)) {
      try ResultsFile.write([Fixtures.row(p50: 1)], to: path)
    }
    do {
      try AtomicFile.write("x", to: path)
    } catch {
      #expect(error.description == "cannot write \(path): No such file or directory")
    }
    #expect(try Fixtures.contents(of: directory) == [])
  }

  @Test("a directory at the destination is refused: left as it was, no temporary file")
  func directoryDestination() throws {
    // A non-empty directory: before symbolic links and devices were handled, this was where the
    // rename failed; now the destination is looked at first.
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/books.csv"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    try AtomicFile.write("old\n", to: path + "/kept.txt")
    do {
      try AtomicFile.write("new\n", to: path)
      Issue.record("the rename over a directory succeeded")
    } catch {
      #expect(error.path == path)
      #expect(error.operation == "open")
      #expect(error.description == "cannot write \(path): Is a directory")
    }
    #expect(try Fixtures.contents(of: directory) == ["books.csv"])
    #expect(try Fixtures.contents(of: path) == ["kept.txt"])
    #expect(try String(contentsOfFile: path + "/kept.txt", encoding: .utf8) == "old\n")
  }

  @Test("reading a missing file fails with its path")
  func missingFile() throws {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/baseline.csv"
    #expect(throws: InputError(path: path, code: ENOENT)) {
      _ = try ResultsFile.read(MetricRow.self, from: path)
    }
    #expect(
      InputError(path: path, code: ENOENT).description
        == "cannot open '\(path)': No such file or directory")
  }

  @Test("a malformed file fails with its path and line")
  func malformedFile() throws {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/baseline.csv"
    try AtomicFile.write(CSV.line(MetricRow.columns) + "\"unterminated\n", to: path)
    do {
      _ = try ResultsFile.read(MetricRow.self, from: path)
      Issue.record("read a malformed file")
    } catch {
      #expect("\(error)" == "\(path):2:1: unterminated quoted field")
    }
  }

  @Test("a file cut short (its last line without a line end) fails with its path and the last line")
  func cutShort() throws {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/baseline.csv"
    // The last row's standard deviation (its last field) 1234.5678, cut to 1234.56: every field is
    // still there, and the last one still a number.
    var whole = CSV.document([Fixtures.row(p50: 1), Fixtures.row("allocations", p50: 12, unit: .count)])
    #expect(whole.hasSuffix(",12\n"))
    whole = whole.dropLast(3) + "1234.5678\n"
    try AtomicFile.write(String(whole.dropLast(3)), to: path)
    do {
      _ = try ResultsFile.read(MetricRow.self, from: path)
      Issue.record("read a file cut short")
    } catch {
      #expect(
        "\(error)"
          == "\(path):3: the last line has no line end: the file was cut short or not written whole (cachebench ends every file it writes with one)"
      )
    }
    try AtomicFile.write(whole, to: path)
    #expect(try ResultsFile.read(MetricRow.self, from: path).count == 2)
  }

  @Test(
    "the last line without a line end, by its number",
    arguments: [("", nil), ("a\n", nil), ("a", 1), ("a\nb", 2), ("a\r\nb\r", 2), ("a\n\n", nil), ("a\n\nb", 3)] as [(String, Int?)])
  func unendedLastLine(text: String, line: Int?) {
    #expect(InputFile.unendedLastLine(Array(text.utf8)) == line)
  }

  @Test("what cachebench writes ends with a line end: a CSV with no rows, every CSV line, the JSON of export")
  func writtenFilesEnd() {
    #expect(CSV.document([MetricRow]()).hasSuffix("\n"))
    #expect(CSV.document([Fixtures.row(p50: 1)]).hasSuffix("\n"))
    #expect(CSV.line(["a", "b\nc"]).hasSuffix("\n"))
    #expect(ResultsExport.bmf([]).hasSuffix("\n") && ResultsExport.bmf([Fixtures.row(p50: 1)]).hasSuffix("\n"))
    #expect(ResultsExport.githubActionBenchmark([Fixtures.row(p50: 1)], better: .lower).hasSuffix("\n"))
  }

  @Test("a file that is not UTF-8 fails with the line of the first bad byte")
  func notUTF8() throws {
    let directory = try Fixtures.scratchDirectory()
    defer { Fixtures.remove(directory) }
    let path = directory + "/baseline.csv"
    try Data("a,b\n1,".utf8 + [0xFF] + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
    do {
      _ = try ResultsFile.read(MetricRow.self, from: path)
      Issue.record("read a file that is not UTF-8")
    } catch {
      #expect("\(error)" == "\(path):2: not UTF-8 text")
    }
  }
}

@Suite("samples CSV")
struct SampleRowTests {
  @Test("one row per sample, indexed from 0, in the documented columns")
  func rows() throws {
    let rows = SampleRow.rows(runID: "r1", key: Fixtures.key(), unit: .ns, samples: [812, 790.5])
    #expect(
      CSV.document(rows) == """
        run_id,workload,variant,store,keys,phase,metric,unit,index,value
        r1,books,,memory,path,write,latency,ns,0,812
        r1,books,,memory,path,write,latency,ns,1,790.5

        """)
    #expect(try CSV.rows(SampleRow.self, from: CSV.document(rows), file: "s.csv") == rows)
  }
}
