import Testing

@testable import Results

@Suite("CSV: RFC 4180 writing and reading")
struct CSVTests {
  static let header =
    "run_id,timestamp,git_rev,host,workload,variant,store,keys,phase,metric,unit,better,"
    + "deterministic,n,min,p50,p90,p99,max,mean,stddev"

  @Test("the header has docs/csv.md's columns in docs/csv.md's order")
  func header() {
    #expect(CSV.document([MetricRow]()) == Self.header + "\n")
    #expect(MetricRow.columns.joined(separator: ",") == Self.header)
  }

  @Test("a row writes every column in order, integral numbers without a decimal point")
  func row() throws {
    let summary = try #require(Summary([1, 2, 3, 4]))
    let row = MetricRow(
      run: Fixtures.run, key: Fixtures.key(variant: "duplication=0.5"), unit: .ns, better: .lower,
      deterministic: false, summary: summary)
    #expect(
      CSV.document([row]) == Self.header + "\n"
        + "r1,2025-11-22T07:39:12Z,a3f0feb,bench-1,books,duplication=0.5,memory,path,write,latency,"
        + "ns,lower,false,4,1,2.5,3.7,3.97,4,2.5,1.2909944487358056\n")
  }

  @Test(
    "fields are quoted when they contain a comma, a quote, CR or LF",
    arguments: [
      ("plain", "plain"),
      ("", ""),
      (" spaced ", " spaced "),
      ("a,b", "\"a,b\""),
      ("say \"hi\"", "\"say \"\"hi\"\"\""),
      ("\"", "\"\"\"\""),
      ("two\nlines", "\"two\nlines\""),
      ("cr\r", "\"cr\r\""),
      ("µs, ok", "\"µs, ok\""),
    ])
  func quoting(field: String, written: String) throws {
    #expect(CSV.escape(field) == written)
    let records = try CSV.parse(CSV.line([field, "x"]), file: "t.csv")
    #expect(records == [CSV.Record(line: 1, fields: [field, "x"])])
  }

  @Test("quoted fields carry commas, doubled quotes and line breaks; records keep their line")
  func parseQuoted() throws {
    let text = "a,\"b,c\",\"d\"\"e\",\"f\ng\"\n1,2,3,4\n"
    #expect(
      try CSV.parse(text, file: "t.csv") == [
        CSV.Record(line: 1, fields: ["a", "b,c", "d\"e", "f\ng"]),
        CSV.Record(line: 3, fields: ["1", "2", "3", "4"]),
      ])
  }

  @Test("CRLF line ends, a byte order mark, empty lines and a missing last line end are accepted")
  func lenientReading() throws {
    let text = "\u{FEFF}a,b\r\n1,2\r\n\r\n3,\"4\r\n5\"\n\n6,7"
    #expect(
      try CSV.parse(text, file: "t.csv") == [
        CSV.Record(line: 1, fields: ["a", "b"]),
        CSV.Record(line: 2, fields: ["1", "2"]),
        CSV.Record(line: 4, fields: ["3", "4\r\n5"]),
        CSV.Record(line: 7, fields: ["6", "7"]),
      ])
  }

  @Test("a trailing comma is an empty last field")
  func trailingComma() throws {
    #expect(try CSV.parse("a,\n", file: "t.csv") == [CSV.Record(line: 1, fields: ["a", ""])])
  }

  @Test(
    "numbers are integers when integral, else the shortest text that reads back exactly",
    arguments: [
      (812.0, "812"), (0.0, "0"), (-0.0, "0"), (-3.0, "-3"), (12_345_678_901.0, "12345678901"),
      (2.5, "2.5"), (0.1, "0.1"), (1.0 / 3.0, "0.3333333333333333"), (0.00001, "1e-05"),
      (1e20, "1e+20"), (3.9699999999999998, "3.9699999999999998"),
    ])
  func numbers(value: Double, text: String) {
    #expect(CSVNumber.format(value) == text)
    #expect(CSVNumber.parse(text) == value)
  }

  @Test("rows read back equal to the rows written, whatever their text")
  func roundTrip() throws {
    let tricky = MetricRow(
      run: RunInfo(runID: "r,1", timestamp: "t", gitRev: "", host: "host \"a\""),
      key: Fixtures.key("hit_ratio", phase: .lookup, store: "sqlite\nwal", variant: "a=1,b=2"),
      unit: .ratio, better: .higher, deterministic: true,
      summary: Summary(
        n: 3, min: 0.1, p50: 1.0 / 3.0, p90: 0.00001, p99: 1e20, max: 12_345_678_901, mean: -2.5,
        stddev: 0))
    let rows = [tricky, Fixtures.row(p50: 812), Fixtures.row("allocations", p50: 12, unit: .count)]
    #expect(try CSV.rows(MetricRow.self, from: CSV.document(rows), file: "t.csv") == rows)
  }

  @Test("columns are found by name, in any order, and unknown columns are ignored")
  func columnsByName() throws {
    let row = Fixtures.row(p50: 812)
    var columns = MetricRow.columns
    var fields = row.csvFields
    columns.reverse()
    fields.reverse()
    let text = CSV.document(header: columns + ["note"], records: [fields + ["hello"]])
    #expect(try CSV.rows(MetricRow.self, from: text, file: "t.csv") == [row])
  }
}

@Suite("CSV: errors name the file, the line and the column")
struct CSVErrorTests {
  static let validLine = CSV.line(Fixtures.row(p50: 812).csvFields)
  static let header = CSV.line(MetricRow.columns)

  @Test(
    "malformed text fails with file, line and column",
    arguments: [
      ("a,b\n\"x,y\n", "bad.csv:2:1: unterminated quoted field"),
      // The column where the field opened, on its line, however many lines it runs on.
      ("a,b\nµ,\"x\ny\nz\n", "bad.csv:2:3: unterminated quoted field"),
      ("a,b\nx\"y,z\n", "bad.csv:2:2: quote inside an unquoted field"),
      ("a,b\n\"x\"y,z\n", "bad.csv:2:4: unexpected character after a closing quote"),
      ("a,b\rc,d\n", "bad.csv:1:4: carriage return not followed by a line feed"),
      (
        "a,\"multi\nline\",b\nµ,\"x\"y\n", "bad.csv:3:6: unexpected character after a closing quote"
      ),
    ])
  func syntax(text: String, message: String) {
    #expect(throws: (any Error).self) { try CSV.parse(text, file: "bad.csv") }
    do {
      _ = try CSV.parse(text, file: "bad.csv")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test("a row with another number of fields than the header")
  func fieldCount() {
    let short =
      Self.validLine.split(separator: ",", omittingEmptySubsequences: false).dropLast().joined(
        separator: ",") + "\n"
    expect(
      Self.header + Self.validLine + short,
      "bad.csv:3: expected 21 fields as in the header, found 20")
  }

  @Test("a header without a column the rows need")
  func missingColumn() {
    let columns = MetricRow.columns.filter { $0 != "p99" }
    expect(CSV.line(columns), "bad.csv:1: missing column 'p99'")
  }

  @Test("a header naming a column twice")
  func duplicateColumn() {
    expect(CSV.line(MetricRow.columns + ["p50"]), "bad.csv:1: duplicate column 'p50'")
  }

  @Test("an empty file")
  func emptyFile() {
    expect("", "bad.csv:1: empty file, expected a header row")
  }

  @Test(
    "a value of the wrong kind names its column",
    arguments: [
      ("p50", "fast", "bad.csv:2: column 'p50': expected a number, found 'fast'"),
      ("p50", "nan", "bad.csv:2: column 'p50': expected a number, found 'nan'"),
      ("p50", "", "bad.csv:2: column 'p50': expected a number, found ''"),
      ("n", "2.5", "bad.csv:2: column 'n': expected an integer, found '2.5'"),
      // One grammar for numbers (Support's DecimalNumber): no hexadecimal, no infinity, no plus.
      ("p50", "0x10", "bad.csv:2: column 'p50': expected a number, found '0x10'"),
      ("p50", "0x1p-1074", "bad.csv:2: column 'p50': expected a number, found '0x1p-1074'"),
      ("p50", "inf", "bad.csv:2: column 'p50': expected a number, found 'inf'"),
      ("p50", "+5", "bad.csv:2: column 'p50': expected a number, found '+5'"),
      ("p50", "1.", "bad.csv:2: column 'p50': expected a number, found '1.'"),
      ("n", "0x20", "bad.csv:2: column 'n': expected an integer, found '0x20'"),
      ("n", "3.2e1", "bad.csv:2: column 'n': expected an integer, found '3.2e1'"),
      ("n", "+3", "bad.csv:2: column 'n': expected an integer, found '+3'"),
      ("n", "0", "bad.csv:2: column 'n': expected at least 1 sample, found 0"),
      (
        "deterministic", "yes",
        "bad.csv:2: column 'deterministic': expected true or false, found 'yes'"
      ),
      (
        "phase", "wirte",
        "bad.csv:2: column 'phase': expected one of parse, write, normalize, merge, read, fragment, watch, lookup, footprint, dedup, traffic, gc, disk, concurrency, tier2, tier3, lists, ttl, refresh, shard, found 'wirte'"
      ),
      ("unit", "s", "bad.csv:2: column 'unit': expected one of ns, bytes, count, ratio, per_s, exponent, found 's'"),
      ("better", "up", "bad.csv:2: column 'better': expected one of lower, higher, found 'up'"),
      (
        // Any name: `programmatic:sku` names a registered resolver; an empty field is an error.
        "keys", "",
        "bad.csv:2: column 'keys': expected a name, found an empty field"
      ),
    ])
  func badValue(column: String, value: String, message: String) {
    var fields = Fixtures.row(p50: 812).csvFields
    fields[MetricRow.columns.firstIndex(of: column)!] = value
    expect(Self.header + CSV.line(fields), message)
  }

  @Test("the line of a record after a multi-line quoted field is its first line")
  func lineAfterMultilineField() {
    var fields = Fixtures.row(p50: 812).csvFields
    fields[3] = "a\nmulti-line\nhost"
    var bad = Fixtures.row(p50: 812).csvFields
    bad[15] = "fast"
    expect(
      Self.header + CSV.line(fields) + CSV.line(bad),
      "bad.csv:5: column 'p50': expected a number, found 'fast'")
  }

  private func expect(
    _ text: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let rows = try CSV.rows(MetricRow.self, from: text, file: "bad.csv")
      Issue.record("read \(rows.count) rows, expected: \(message)", sourceLocation: sourceLocation)
    } catch {
      #expect(error.description == message, sourceLocation: sourceLocation)
    }
  }
}
