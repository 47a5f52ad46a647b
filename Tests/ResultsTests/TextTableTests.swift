import Results
import Testing

@Suite("readable tables and numbers")
struct TextTableTests {
  @Test("columns align, numbers to the right, with no trailing spaces")
  func render() {
    let table = TextTable(
      columns: ["store", "keys", "p50", "note"],
      rows: [["memory", "path", "812 ns", "ok"], ["sqlite-wal", "typePolicy", "12.1 ms"]])
    #expect(
      table.render() == """
        store       keys            p50  note
        ----------  ----------  -------  ----
        memory      path         812 ns  ok
        sqlite-wal  typePolicy  12.1 ms

        """)
  }

  @Test("a \"-\" for no value keeps a column of numbers to the right; a column of \"-\" alone stays left")
  func placeholders() {
    let table = TextTable(columns: ["store", "p50", "x"], rows: [["memory", "1.2 ms", "-"], ["limit", "-", "-"]])
    #expect(
      table.render() == """
        store      p50  x
        ------  ------  -
        memory  1.2 ms  -
        limit        -  -

        """)
  }

  @Test("alignment can be forced")
  func forced() {
    let table = TextTable(
      columns: [
        TextTable.Column("id", alignment: .left), TextTable.Column("name", alignment: .right),
      ],
      rows: [["1", "a"], ["22", "bbb"]])
    #expect(
      table.description == """
        id  name
        --  ----
        1      a
        22   bbb

        """)
  }

  @Test(
    "nanoseconds read as ns, µs, ms or s",
    arguments: [
      (0.0, "0 ns"), (812.0, "812 ns"), (812.4, "812 ns"), (3_400.0, "3.4 µs"),
      (12_100_000.0, "12.1 ms"), (250_000_000.0, "250 ms"), (999_960.0, "1.0 ms"),
      (1_500_000_000.0, "1.5 s"), (1_250_000_000_000.0, "1250 s"),
    ])
  func nanoseconds(value: Double, text: String) {
    #expect(HumanFormat.nanoseconds(value) == text)
  }

  @Test(
    "bytes read in decimal units",
    arguments: [
      (640.0, "640 B"), (1_234.0, "1.2 kB"), (1_200_000.0, "1.2 MB"), (999_999.0, "1.0 MB"),
      (512_000.0, "512 kB"), (3e9, "3.0 GB"),
    ])
  func bytes(value: Double, text: String) {
    #expect(HumanFormat.bytes(value) == text)
  }

  @Test("counts, ratios and changes")
  func others() {
    #expect(HumanFormat.count(1234) == "1234")
    #expect(HumanFormat.count(3.5) == "3.5")
    #expect(HumanFormat.count(2.25) == "2.25")
    #expect(HumanFormat.ratio(0.8123) == "0.812")
    #expect(HumanFormat.value(1, unit: .ratio) == "1.000")
    #expect(HumanFormat.change(ratio: 1.2) == "+20.0%")
    #expect(HumanFormat.change(ratio: 0.95) == "-5.0%")
    #expect(HumanFormat.change(ratio: 1) == "0.0%")
  }
}
