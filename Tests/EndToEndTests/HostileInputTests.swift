import Foundation
import Testing

/// Hostile and careless input (issue 11): every case ends in seconds with its documented exit code
/// and an `Error: ...` naming what is at fault, never a crash, a hang or damage.
@Suite("Hostile input", .timeLimit(.minutes(10)))
struct HostileInputTests {
  /// One case: files to write, the command's arguments, the exit code, the start of stderr.
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let files: [String: String]
    let arguments: [String]
    let status: Int32
    let stderr: String
    var testDescription: String { name }
  }

  static let deep = 8_000
  static let operation = "query Q { a }"
  static let response = #"{"data": {"a": 1}}"#

  /// `n` fragments, each spreading the next twice (2^n paths), the last selecting `a`.
  static func bomb(_ n: Int) -> String {
    var text = "query Q { ...F0 }\n"
    for index in 0..<n {
      text += index == n - 1 ? "fragment F\(index) on Query { a }\n" : "fragment F\(index) on Query { ...F\(index + 1) ...F\(index + 1) }\n"
    }
    return text
  }

  /// A chain of `n` fragments, each spreading the next once.
  static func chain(_ n: Int) -> String {
    var text = "query Q { ...F0 }\n"
    for index in 0..<n {
      text += index == n - 1 ? "fragment F\(index) on Query { a }\n" : "fragment F\(index) on Query { ...F\(index + 1) }\n"
    }
    return text
  }

  static let cases: [Case] = [
    Case(
      name: "a workload nested 8,000 levels deep",
      files: [
        "n.json": #"{"name":"x","seed":1,"description":"# + String(repeating: "[", count: deep) + String(repeating: "]", count: deep) + "}"
      ],
      arguments: ["validate", "n.json"], status: 65, stderr: "Error: n.json:1:547: JSON nested deeper than 512 levels"),
    Case(
      name: "--variables nested 8,000 levels deep",
      files: [
        "q.graphql": operation, "r.json": response,
        "v.json": String(repeating: #"{"a":"#, count: deep) + "1" + String(repeating: "}", count: deep),
      ],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "r.json", "--variables", "v.json"], status: 65,
      stderr: "Error: v.json:1:2561: JSON nested deeper than 512 levels"),
    Case(
      name: "a response nested 8,000 levels deep",
      files: ["q.graphql": operation, "r.json": String(repeating: "[", count: deep) + String(repeating: "]", count: deep)],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "r.json"], status: 65,
      stderr: "Error: r.json:1:513: JSON nested deeper than 512 levels"),
    Case(
      name: "selections nested 6,000 levels deep",
      files: [
        "q.graphql": "query Q " + String(repeating: "{ a ", count: 6_000) + String(repeating: "}", count: 6_000), "r.json": response,
      ],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "r.json"], status: 65,
      stderr: "Error: q.graphql:1:1033: Selection sets nested deeper than 256 levels"),
    Case(
      name: "inline fragments nested 6,000 levels deep",
      files: [
        "q.graphql": "query Q { " + String(repeating: "... on Query { ", count: 6_000) + "a" + String(repeating: " }", count: 6_001),
        "r.json": response,
      ],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "r.json"], status: 65,
      stderr: "Error: q.graphql:1:3849: Selection sets nested deeper than 256 levels"),
    Case(
      name: "a list argument nested 6,000 levels deep",
      files: [
        "q.graphql": "query Q { a(x: " + String(repeating: "[", count: 6_000) + String(repeating: "]", count: 6_000) + ") }",
        "r.json": response,
      ],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "r.json"], status: 65,
      stderr: "Error: q.graphql:1:271: List values nested deeper than 256 levels"),
    Case(
      name: "a list type nested 6,000 levels deep in a schema",
      files: [
        "q.graphql": operation, "r.json": response,
        "s.graphqls": "type Query { a: " + String(repeating: "[", count: 6_000) + "Int" + String(repeating: "]", count: 6_000) + " }",
      ],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "r.json", "--schema", "s.graphqls"], status: 65,
      stderr: "Error: s.graphqls:1:273: List types nested deeper than 256 levels"),
    Case(
      name: "a chain of 20,000 fragments",
      files: ["q.graphql": chain(20_000), "r.json": response],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "r.json"], status: 65,
      stderr: "Error: q.graphql:19745:1: Fragment \"F19743\" starts a chain of spreads more than 256 fragments deep"),
    Case(
      name: "duplicate keys in a response",
      files: ["q.graphql": operation, "r.json": #"{"data": {"a": 1, "a": 2}}"#],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "r.json"], status: 65,
      stderr: #"Error: r.json:1:19: Duplicate key "a" in an object"#),
    Case(
      name: "duplicate keys in a workload",
      files: ["w.json": #"{"name": "w", "seed": 1, "seed": 2, "generator": {}}"#],
      arguments: ["validate", "w.json"], status: 65, stderr: #"Error: w.json:1:26: Duplicate key "seed" in an object"#),
    Case(
      name: "/dev/zero as a response: read up to 256 MiB, then an error naming what it is",
      files: ["q.graphql": operation],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "/dev/zero"], status: 66,
      stderr: "Error: cannot open '/dev/zero': a character device larger than 256 MiB"),
    Case(
      name: "a directory as a response",
      files: ["q.graphql": operation],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "."], status: 66,
      stderr: "Error: cannot open '.': Is a directory"),
    Case(
      name: "an extension of a type no schema file defines",
      files: [
        "q.graphql": operation, "r.json": response, "s.graphqls": "type Query { a: Int }\nextend type Boook @typePolicy(keyFields: \"id\")",
      ],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "r.json", "--schema", "s.graphqls"], status: 65,
      stderr: #"Error: s.graphqls:2:8: "extend object Boook" extends a type no schema file defines"#),
    Case(
      name: "an object given for an ID! variable",
      files: ["q.graphql": "query Q($id: ID!) { a(id: $id) }", "r.json": response, "v.json": #"{"id": {"x": 1}}"#],
      arguments: ["normalize", "--operation", "q.graphql", "--response", "r.json", "--variables", "v.json"], status: 65,
      stderr: "Error: q.graphql: variable $id of type ID! of operation Q is given an object"),
    Case(
      name: "a NUL in a workload's name",
      files: ["w.json": #"{"name": "a\u0000b", "seed": 1, "generator": {}}"#],
      arguments: ["validate", "w.json"], status: 65,
      stderr: #"Error: w.json:1:2: name: must be a non-empty name without "/" or control characters"#),
    Case(
      name: "a 10 MB string quoted in an error is cut",
      files: ["w.json": #"{"name": "w", "seed": 1, "generator": {}, "keys": [""# + String(repeating: "k", count: 10_000_000) + #""]}"#],
      arguments: ["validate", "w.json"], status: 65,
      stderr: "Error: w.json:1:43: keys: element 0 must be path, typePolicy, programmatic or programmatic:<resolver>, got kkkk"),
    Case(
      name: "generator depth 20: estimated, refused before generating",
      files: ["d.json": #"{"name":"d","seed":1,"generator":{"responses":1,"depth":20}}"#],
      arguments: ["generate", "d.json", "--out", "out"], status: 65,
      stderr:
        "Error: d.json: generator: one response would hold 1.3e+12 objects (2.1e+14 B); the limit is 2 million objects or 200 MB: pass --allow-large to run it anyway"
    ),
    Case(
      name: "generator depth 20 under validate",
      files: ["d.json": #"{"name":"d","seed":1,"generator":{"responses":1,"depth":20}}"#],
      arguments: ["validate", "d.json"], status: 65,
      stderr:
        "Error: d.json: generator: one response would hold 1.3e+12 objects (2.1e+14 B); the limit is 2 million objects or 200 MB: pass --allow-large to run it anyway"
    ),
    Case(
      name: "2,147,483,647 responses under --quick: its tenth is refused",
      files: ["d.json": #"{"name":"d","seed":1,"generator":{"responses":2147483647}}"#],
      arguments: ["run", "d.json", "--quick"], status: 65,
      stderr: "Error: d.json: generator: the responses would hold 6.4e+10 objects"),
    Case(
      name: "100 million store records under --quick: refused before anything is made",
      files: ["d.json": #"{"name":"d","seed":1,"storeRecords":{"count":100000000},"stores":[{"kind":"memory"}]}"#],
      arguments: ["run", "d.json", "--quick"], status: 65,
      stderr:
        "Error: d.json: storeRecords.count: 10000000 records would take about 3 GB (about 9 GB of memory at the run's peak); the limit is 20 million records or 2 GB: pass --allow-large to run it anyway"
    ),
    Case(
      name: "a traffic session of 100 million steps: refused before anything runs",
      files: ["d.json": #"{"name":"d","seed":1,"generator":{"responses":10},"stores":[{"kind":"memory"}],"traffic":{"steps":100000000}}"#],
      arguments: ["validate", "d.json"], status: 65,
      stderr:
        "Error: d.json: traffic: 100000000 steps over responses of about 48 KB would read and write about 4.8e+12 B per store and key strategy; the limit is 20 GB: pass --allow-large to run it anyway"
    ),
    Case(
      name: "a store kind nobody registered",
      files: ["d.json": #"{"name":"d","seed":1,"generator":{},"stores":[{"kind":"memory"},{"kind":"lru-dict"}]}"#],
      arguments: ["run", "d.json"], status: 65,
      stderr:
        #"Error: d.json:1:66: stores[1].kind: unknown store kind "lru-dict"; known kinds: chain, memory, sqlite (a package using the workbench registers its own)"#
    ),
    Case(
      name: "an eviction policy that does not exist",
      files: ["d.json": #"{"name":"d","seed":1,"generator":{},"stores":[{"kind":"sqlite","maxSizeBytes":"50%","policy":"mru"}]}"#],
      arguments: ["run", "d.json"], status: 65,
      stderr: #"Error: d.json:1:85: stores[0].policy: must be one of lru, fifo, lfu, got "mru""#),
    Case(
      name: "a budget, as a share, smaller than one record: found when the share is resolved, before measuring",
      files: [
        "q.graphql": "query Q { a { __typename id s } }",
        "r.json": #"{"data": {"a": {"__typename": "A", "id": "1", "s": ""# + String(repeating: "x", count: 2_000) + #""}}}"#,
        "w.json":
          #"{"name": "w", "seed": 1, "recorded": {"schema": [], "operations": [{"document": "q.graphql", "operationName": "Q", "response": "r.json"}]}, "keys": ["path"], "stores": [{"kind": "memory", "maxSizeBytes": "10%"}], "repetitions": 1, "warmup": 0}"#,
      ],
      arguments: ["run", "w.json", "--out", "o.csv", "--no-progress"], status: 65,
      stderr:
        #"Error: w.json: stores[0].maxSizeBytes: record "QUERY_ROOT.a" takes 2185 bytes, more than the whole budget of 236 bytes (w, memory × path)"#
    ),
    Case(
      name: "depth 32 x fanOut 16 x listLength 10,000",
      files: ["d.json": #"{"name":"d","seed":1,"generator":{"depth":32,"fanOut":16,"listLength":{"min":10000,"max":10000}}}"#],
      arguments: ["validate", "d.json"], status: 65, stderr: "Error: d.json: generator: one response would hold"),
  ]

  @Test("--allow-large lets a large generator workload through validate, with its estimate")
  func allowLarge() async throws {
    let directory = try temporaryDirectory()
    try #"{"name":"d","seed":1,"generator":{"responses":1,"depth":20}}"#.write(
      toFile: directory + "/d.json", atomically: true, encoding: .utf8)
    let run = try await cachebench(["validate", "d.json", "--allow-large"], in: directory)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout.hasPrefix("d.json: ok (d, generator, 6 configurations; about 1.3e+12 objects and 2.1e+14 B per response"), "\(run.stdout)")
    #expect(!FileManager.default.fileExists(atPath: directory + "/out"))
  }

  @Test("invalid UTF-8 in a response, an operation, a workload: an error at its byte offset, exit 65")
  func invalidUTF8() async throws {
    let directory = try temporaryDirectory()
    let valid = Array(#"{"data": {"a": "x"}}"#.utf8)
    var invalid = valid
    invalid[16] = 0xFF  // the x
    try Data(invalid).write(to: URL(fileURLWithPath: directory + "/r.json"))
    try Data(valid).write(to: URL(fileURLWithPath: directory + "/ok.json"))
    try Data(Array("query Q { a }".utf8) + [0x23, 0xC3, 0x28]).write(to: URL(fileURLWithPath: directory + "/q.graphql"))
    try "query Q { a }".write(toFile: directory + "/good.graphql", atomically: true, encoding: .utf8)
    let response = try await cachebench(["normalize", "--operation", "good.graphql", "--response", "r.json"], in: directory)
    #expect(response.status == 65)
    #expect(response.stderr.hasPrefix("Error: r.json:1:17: Invalid UTF-8 at byte offset 16 (byte 0xFF)"), "\(response.stderr)")
    let operation = try await cachebench(["normalize", "--operation", "q.graphql", "--response", "ok.json"], in: directory)
    #expect(operation.status == 65)
    #expect(operation.stderr.hasPrefix("Error: q.graphql:1:15: Invalid UTF-8 at byte offset 14 (byte 0xC3)"), "\(operation.stderr)")
    #expect(try await cachebench(["normalize", "--operation", "good.graphql", "--response", "ok.json"], in: directory).status == 0)
  }

  /// "In seconds" is held by a time limit: a regression that makes an input hang fails here
  /// instead of hanging CI (a minute is Swift Testing's smallest limit).
  @Test("each bad input: its exit code and message, in seconds", .timeLimit(.minutes(10)), arguments: cases)
  func badInput(_ testCase: Case) async throws {
    let directory = try temporaryDirectory()
    for (name, text) in testCase.files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    let run = try await cachebench(testCase.arguments, in: directory)
    #expect(run.status == testCase.status, "\(run.stderr)")
    #expect(run.stderr.hasPrefix(testCase.stderr), "\(run.stderr.prefix(300))")
    // Whatever the input quoted, the message stays readable.
    #expect(run.stderr.count < 5_000)
  }

  @Test("a fragment bomb (40 fragments each spreading the next twice: 2^40 paths) is checked and planned at once", .timeLimit(.minutes(10)))
  func fragmentBomb() async throws {
    let directory = try temporaryDirectory()
    try Self.bomb(40).write(toFile: directory + "/q.graphql", atomically: true, encoding: .utf8)
    try Self.response.write(toFile: directory + "/r.json", atomically: true, encoding: .utf8)
    let run = try await cachebench(["normalize", "--operation", "q.graphql", "--response", "r.json"], in: directory)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains(#""a": 1"#))
  }

  @Test("a chain of 200 fragments, under the limit, reads as one selection", .timeLimit(.minutes(10)))
  func longChain() async throws {
    let directory = try temporaryDirectory()
    try Self.chain(200).write(toFile: directory + "/q.graphql", atomically: true, encoding: .utf8)
    try Self.response.write(toFile: directory + "/r.json", atomically: true, encoding: .utf8)
    let run = try await cachebench(["normalize", "--operation", "q.graphql", "--response", "r.json"], in: directory)
    #expect(run.status == 0, "\(run.stderr)")
  }

  // MARK: Outputs

  static let tiny = tinyWorkload()

  @Test("a full standard output: the CSV is written first, then exit 74 with a message")
  func fullStandardOutput() async throws {
    let directory = try temporaryDirectory()
    try Self.tiny.write(toFile: directory + "/tiny.json", atomically: true, encoding: .utf8)
    let run = try await shell(#""$CB" run tiny.json --out r.csv --no-progress > /dev/full"#, in: directory)
    #expect(run.status == 74)
    #expect(run.stderr.hasPrefix("Error: cannot write standard output: No space left on device\n"), "\(run.stderr)")
    #expect(try CSVFile(path: directory + "/r.csv").rows.count > 10)
  }

  @Test("an argument that is not UTF-8 is refused with 64, never written as another file name")
  func pathNotUTF8() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Self.tiny.write(toFile: directory + "/tiny.json", atomically: true, encoding: .utf8)
    // Byte 0xFF is never UTF-8; Swift would read it as U+FFFD, which is another name.
    let run = try await shell(#""$CB" run tiny.json --out "$(printf 'r\377.csv')" --no-progress; echo "status $?"; ls"#, in: directory)
    #expect(run.stdout == "status 64\ntiny.json\n")
    #expect(
      run.stderr.hasPrefix(
        "Error: argument 4 ('r\u{FFFD}.csv') is not UTF-8 text; cachebench takes paths and values as UTF-8: rename the file\n"),
      "\(run.stderr)")
  }

  /// Needs root: it mounts a 64 KiB tmpfs and fills it (CI runs as root).
  @Test(
    "run --out on a full device: exit 74, the previous file left whole, no new file and no temporary one",
    .enabled(if: getuid() == 0, "mounts a tmpfs"))
  func fullDevice() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Self.tiny.write(toFile: directory + "/tiny.json", atomically: true, encoding: .utf8)
    let run = try await shell(
      #"""
      mkdir m && mount -t tmpfs -o size=64k tmpfs m || exit 1
      trap 'umount m' EXIT
      printf 'previous\n' > m/r.csv
      dd if=/dev/zero of=m/fill bs=4096 2>/dev/null
      "$CB" run tiny.json --out m/r.csv --no-progress; echo "status $?"
      "$CB" run tiny.json --out m/new.csv --no-progress; echo "status $?"
      cat m/r.csv; ls -A m
      """#, in: directory)
    #expect(run.stdout == "status 74\nstatus 74\nprevious\nfill\nr.csv\n", "\(run.stderr)")
    #expect(run.stderr == "Error: cannot write m/r.csv: No space left on device\nError: cannot write m/new.csv: No space left on device\n")
  }

  @Test("a closed pipe (| head -1) ends the run quietly, after the CSV is written")
  func closedPipe() async throws {
    let directory = try temporaryDirectory()
    try Self.tiny.write(toFile: directory + "/tiny.json", atomically: true, encoding: .utf8)
    let run = try await shell(#""$CB" run tiny.json --out r.csv --no-progress | head -c 1 > /dev/null"#, in: directory)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(try CSVFile(path: directory + "/r.csv").rows.count > 10)
  }

  @Test("--out through a symbolic link writes its target and keeps the link; a FIFO without a reader is 74, still a FIFO")
  func specialDestinations() async throws {
    let directory = try temporaryDirectory()
    try Self.tiny.write(toFile: directory + "/tiny.json", atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: directory + "/link.csv", withDestinationPath: "real/target.csv")
    let linked = try await cachebench(["run", "tiny.json", "--out", "link.csv", "--no-progress"], in: directory)
    #expect(linked.status == 0, "\(linked.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link.csv") == "real/target.csv")
    #expect(try CSVFile(path: directory + "/real/target.csv").rows.count > 10)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/real") == ["target.csv"])

    #expect(mkfifo(directory + "/fifo", 0o644) == 0)
    let fifo = try await cachebench(["run", "tiny.json", "--out", "fifo", "--no-progress"], in: directory)
    #expect(fifo.status == 74)
    #expect(fifo.stderr.hasPrefix("Error: cannot write fifo: No such device or address"), "\(fifo.stderr)")
    var status = stat()
    #expect(lstat(directory + "/fifo", &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFIFO)
  }

  @Test("an unwritable --samples is found before the run, and --out is not written")
  func outputsCheckedFirst() async throws {
    let directory = try temporaryDirectory()
    try Self.tiny.write(toFile: directory + "/tiny.json", atomically: true, encoding: .utf8)
    try "x".write(toFile: directory + "/file", atomically: true, encoding: .utf8)
    let run = try await cachebench(["run", "tiny.json", "--out", "r.csv", "--samples", "file/s.csv", "--no-progress"], in: directory)
    #expect(run.status == 74)
    #expect(run.stderr.hasPrefix("Error: cannot write file/s.csv: Not a directory"), "\(run.stderr)")
    #expect(run.stdout == "")
    #expect(!FileManager.default.fileExists(atPath: directory + "/r.csv"))
  }
}
