import Foundation
import Testing

/// `cachebench normalize --at … --read …` (issue 31, point 4): the examples of docs/ttl.md and
/// docs/command-line.md, run in `Fixtures/ttl`, their outputs worked out by hand from the
/// fixture's schema: Book has maxAge 60, its price 10, its author (object-typed, no
/// inheritMaxAge) none, Author none.
@Suite("cachebench normalize with a clock", .timeLimit(.minutes(10)))
struct NormalizeClockTests {
  static let directory = fixtures + "/ttl"

  /// A book written at 1000, its id and title again at 1050.
  static let bookAndTitle = [
    "normalize", "--schema", "schema.graphqls", "--at", "1000", "--operation", "Book.graphql", "--response", "book.json",
    "--at", "1050", "--operation", "BookTitle.graphql", "--response", "bookTitle.json",
  ]

  /// Every store and layout the option takes.
  static let stores: [[String]] = [[], ["--store", "sqlite"], ["--store", "sqlite", "--layout", "apollo"]]

  @Test("docs/ttl.md's example: at 1070 the price (written at 1000, maxAge 10) has expired, the refetched title has not", arguments: stores)
  func staleExample(store: [String]) async throws {
    let run = try await cachebench(
      Self.bookAndTitle + store + ["--read", "Book.graphql", "--at", "1070", "--ttl", "permissive"], in: Self.directory)
    #expect(run.stderr == "")
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        {
          "outcome": "stale",
          "data": {
            "book": {
              "id": "1",
              "title": "Dune",
              "price": 10,
              "author": {
                "id": "a1",
                "name": "Frank Herbert"
              }
            }
          },
          "expired": [
            "book.price"
          ],
          "missing": []
        }

        """)
  }

  @Test("strict is the default: the same read is a miss, without data; at 1010, the price's last fresh second, a hit")
  func strictAndBoundary() async throws {
    let strict = try await cachebench(Self.bookAndTitle + ["--read", "Book.graphql", "--at", "1070"], in: Self.directory)
    #expect(strict.status == 0)
    #expect(compact(strict.stdout) == #"{"outcome":"miss","data":null,"expired":["book.price"],"missing":[]}"#)
    let boundary = try await cachebench(Self.bookAndTitle + ["--read", "Book.graphql", "--at", "1010"], in: Self.directory)
    #expect(
      compact(boundary.stdout)
        == #"{"outcome":"hit","data":{"book":{"id":"1","title":"Dune","price":10,"author":{"id":"a1","name":"FrankHerbert"}}},"expired":[],"missing":[]}"#
    )
    // 1011: the price expired; the title, rewritten at 1050, is fresh till 1110.
    let late = try await cachebench(Self.bookAndTitle + ["--read", "BookTitle.graphql", "--at", "1110"], in: Self.directory)
    #expect(compact(late.stdout) == #"{"outcome":"hit","data":{"book":{"id":"1","title":"Dune"}},"expired":[],"missing":[]}"#)
    let later = try await cachebench(Self.bookAndTitle + ["--read", "BookTitle.graphql", "--at", "1111"], in: Self.directory)
    #expect(compact(later.stdout) == #"{"outcome":"miss","data":null,"expired":["book.id","book.title"],"missing":[]}"#)
  }

  /// The fixture's schema has `@fieldPolicy(forField: "book", keyArgs: "id")`: under type
  /// policies the read finds Book:1 by it; under path keys, which key no object by its
  /// arguments, the read follows QUERY_ROOT's field, as the workbench reads.
  @Test("the read uses field policies, except under path keys", arguments: ["typePolicy", "path"])
  func fieldPolicies(keys: String) async throws {
    let run = try await cachebench(Self.bookAndTitle + ["--keys", keys, "--read", "BookTitle.graphql", "--at", "1070"], in: Self.directory)
    #expect(compact(run.stdout) == #"{"outcome":"hit","data":{"book":{"id":"1","title":"Dune"}},"expired":[],"missing":[]}"#)
  }

  @Test("--read without --at reads at 0, and the writes without --at are written at 0")
  func clockZero() async throws {
    let run = try await cachebench(
      [
        "normalize", "--schema", "schema.graphqls", "--operation", "Book.graphql", "--response", "book.json", "--read", "BookTitle.graphql",
      ],
      in: Self.directory)
    #expect(compact(run.stdout) == #"{"outcome":"hit","data":{"book":{"id":"1","title":"Dune"}},"expired":[],"missing":[]}"#)
  }

  /// Books 1 and 2 written at 1000, book 1's id and title again at 1050; read at 1070 with their
  /// prices, which no write selected. Under type policies and the id resolver the refetch of
  /// Book:1 refreshed books.0; under path keys the list's copy of book 1 aged alone.
  @Test(
    "each key strategy and store: expired and missing paths with list indexes, sorted",
    arguments: ["typePolicy", "path", "programmatic"], stores)
  func strategies(keys: String, store: [String]) async throws {
    let run = try await cachebench(
      [
        "normalize", "--schema", "schema.graphqls", "--keys", keys, "--at", "1000", "--operation", "Books.graphql", "--response",
        "books.json", "--at", "1050", "--operation", "BookTitle.graphql", "--response", "bookTitle.json",
        "--read", "BooksWithPrices.graphql", "--at", "1070",
      ] + store, in: Self.directory)
    #expect(run.status == 0, "\(run.stderr)")
    let expired =
      keys == "path" ? #"["books.0.id","books.0.title","books.1.id","books.1.title"]"# : #"["books.1.id","books.1.title"]"#
    #expect(
      compact(run.stdout) == #"{"outcome":"miss","data":null,"expired":"# + expired + #","missing":["books.0.price","books.1.price"]}"#)
  }

  @Test("a read of what was never written: the missing field is its path, whatever the mode", arguments: ["strict", "permissive"])
  func missing(mode: String) async throws {
    let run = try await cachebench(
      [
        "normalize", "--schema", "schema.graphqls", "--at", "1000", "--operation", "Book.graphql", "--response", "book.json",
        "--read", "Books.graphql", "--at", "1000", "--ttl", mode,
      ], in: Self.directory)
    #expect(compact(run.stdout) == #"{"outcome":"miss","data":null,"expired":[],"missing":["books"]}"#)
  }

  @Test("dated records list their dates: per field in entries, one per record or per field in json", arguments: stores)
  func datedListings(store: [String]) async throws {
    let entries = try await cachebench(Self.bookAndTitle + store + ["--format", "entries"], in: Self.directory)
    #expect(entries.status == 0)
    #expect(
      entries.stdout == """
        "QUERY_ROOT": {
          "book(id:1)": "-> #Book:1" (written at 1050)
        }

        "Book:1": {
          "id": "1" (written at 1050),
          "title": "Dune" (written at 1050),
          "price": 10 (written at 1000),
          "author": "-> #Book:1.author" (written at 1000)
        }

        "Book:1.author": {
          "id": "a1" (written at 1000),
          "name": "Frank Herbert" (written at 1000)
        }

        """)
    let json = try await cachebench(Self.bookAndTitle + store, in: Self.directory)
    #expect(
      json.stdout == """
        {
          "records": {
            "Book:1": {
              "$writtenAt": {
                "author": 1000,
                "id": 1050,
                "price": 1000,
                "title": 1050
              },
              "author": {
                "$reference": "Book:1.author"
              },
              "id": "1",
              "price": 10,
              "title": "Dune"
            },
            "Book:1.author": {
              "$writtenAt": 1000,
              "id": "a1",
              "name": "Frank Herbert"
            },
            "QUERY_ROOT": {
              "$writtenAt": 1050,
              "book(id:1)": {
                "$reference": "Book:1"
              }
            }
          }
        }

        """)
  }

  @Test("without --at or --read, every store lists the seeds' records as the in-memory store always did", arguments: stores)
  func undatedThroughEveryStore(store: [String]) async throws {
    let arguments = [
      "normalize", "--schema", "schema.graphqls", "--schema", "extensions.graphqls", "--operation", "GetFavoriteBook.graphql",
      "--response", "favoriteBook.json", "--operation", "FavoriteBookYear.graphql", "--response", "favoriteBookYear.json",
    ]
    for format in ["json", "entries"] {
      let memory = try await cachebench(arguments + ["--format", format], in: fixtures + "/seeds")
      let other = try await cachebench(arguments + store + ["--format", format], in: fixtures + "/seeds")
      #expect(other.status == 0)
      #expect(other.stdout == memory.stdout)
      #expect(!other.stdout.contains("written"))
    }
  }

  @Test("a SQLite store lives in a temporary directory that is gone afterwards, after an error too")
  func temporaryStoreRemoved() async throws {
    let temporary = try temporaryDirectory()
    let good = try await cachebench(
      Self.bookAndTitle + ["--store", "sqlite", "--read", "Book.graphql", "--at", "1070"], in: Self.directory,
      environment: ["TMPDIR": temporary])
    #expect(good.status == 0)
    let bad = try await cachebench(
      Self.bookAndTitle + ["--store", "sqlite", "--read", "book.json", "--at", "1070"], in: Self.directory,
      environment: ["TMPDIR": temporary])
    #expect(bad.status == 65)
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
  }

  @Test("--help shows the clock, the read and an example")
  func help() async throws {
    let run = try await cachebench(["normalize", "--help"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("\n  --at <seconds>"))
    #expect(run.stdout.contains("\n  --read <file>"))
    #expect(run.stdout.contains("(values: strict, permissive)"))
    #expect(run.stdout.contains("--read Book.graphql --at 1070 --ttl permissive"))
  }

  /// The output without its whitespace (no example here holds a space in a string but the
  /// author's name), to compare on one line.
  func compact(_ text: String) -> String { text.filter { !$0.isWhitespace } }
}

/// Hostile and careless input to `normalize`'s clock and read (docs/command-line.md#hostile-input).
@Suite("Hostile input to normalize's clock and read", .timeLimit(.minutes(10)))
struct NormalizeClockHostileTests {
  typealias Case = HostileInputTests.Case

  static let files = [
    "s.graphqls": "type Query { book: Book }\ntype Book @cacheControl(maxAge: 2147483647) { title: String }\n",
    "q.graphql": "{ book { title } }\n",
    "r.json": #"{"data": {"book": {"title": "T"}}}"#,
    "negative.graphql": "{ book {\n  title @cacheControl(maxAge: -5) } }\n",
    "bare.graphql": "{ book { title @cacheControl } }\n",
  ]
  static let write = ["normalize", "--schema", "s.graphqls", "--operation", "q.graphql", "--response", "r.json"]
  static let range = "expected whole seconds from 0 to 253402300799 (9999-12-31T23:59:59Z).\nUsage: cachebench normalize"

  static let cases: [Case] = [
    Case(
      name: "--at -5", files: files, arguments: ["normalize", "--at", "-5"] + write.dropFirst(), status: 64,
      stderr: "Error: The value '-5' is invalid for '--at'; " + range),
    Case(
      name: "--at 1.5", files: files, arguments: ["normalize", "--at", "1.5"] + write.dropFirst(), status: 64,
      stderr: "Error: The value '1.5' is invalid for '--at'; " + range),
    Case(
      name: "--at +5", files: files, arguments: ["normalize", "--at", "+5"] + write.dropFirst(), status: 64,
      stderr: "Error: The value '+5' is invalid for '--at'; " + range),
    Case(
      name: "--at past year 9999", files: files, arguments: ["normalize", "--at", "253402300800"] + write.dropFirst(), status: 64,
      stderr: "Error: The value '253402300800' is invalid for '--at'; " + range),
    Case(
      name: "--at past Int", files: files, arguments: write + ["--read", "q.graphql", "--at", "99999999999999999999999"], status: 64,
      stderr: "Error: The value '99999999999999999999999' is invalid for '--at'; " + range),
    Case(
      name: "--at empty", files: files, arguments: write + ["--read", "q.graphql", "--at="], status: 64,
      stderr: "Error: The value '' is invalid for '--at'; " + range),
    Case(
      name: "--at after the last write, before --read: dates nothing", files: files,
      arguments: write + ["--at", "5", "--read", "q.graphql"], status: 64,
      stderr: "Error: '--at 5' dates no write: no --operation follows it before the next --at or --read"),
    Case(
      name: "two clocks for the read", files: files, arguments: write + ["--read", "q.graphql", "--at", "1", "--at", "2"], status: 64,
      stderr: "Error: The read takes one --at; got '1' and '2'."),
    Case(
      name: "--operation after --read", files: files,
      arguments: write + ["--read", "q.graphql", "--operation", "q.graphql", "--response", "r.json"], status: 64,
      stderr: "Error: --operation 'q.graphql' comes after --read: give the writes first, then the read."),
    Case(
      name: "--ttl lax", files: files, arguments: write + ["--read", "q.graphql", "--ttl", "lax"], status: 64,
      stderr: "Error: The value 'lax' is invalid for '--ttl'; expected one of: strict, permissive."),
    Case(
      name: "--ttl without --read", files: files, arguments: write + ["--ttl", "strict"], status: 64, stderr: "Error: --ttl needs --read."),
    Case(
      name: "--format with --read", files: files, arguments: write + ["--read", "q.graphql", "--format", "json"], status: 64,
      stderr: "Error: --format lists the records, and --read prints the read's outcome instead: give one of them."),
    Case(
      name: "--layout without --store sqlite", files: files, arguments: write + ["--layout", "apollo"], status: 64,
      stderr: "Error: --layout needs --store sqlite."),
    Case(
      name: "a read operation that does not exist", files: files, arguments: write + ["--read", "missing.graphql"], status: 66,
      stderr: "Error: cannot open 'missing.graphql': No such file or directory\n"),
    Case(
      name: "a read operation that is JSON", files: files, arguments: write + ["--read", "r.json"], status: 65,
      stderr: "Error: r.json:1:2: Expected Name, found String \"data\"\n"),
    Case(
      name: "a read operation with maxAge -5", files: files, arguments: write + ["--read", "negative.graphql"], status: 65,
      stderr: "Error: negative.graphql:2:9: @cacheControl(maxAge:) must be 0 or more seconds, got -5\n"),
    Case(
      name: "a read operation with a bare @cacheControl", files: files, arguments: write + ["--read", "bare.graphql"], status: 65,
      stderr: "Error: bare.graphql:1:16: @cacheControl requires an explicit maxAge argument\n"),
    Case(
      name: "read variables that are not an object", files: files.merging(["v.json": "[1]"]) { $1 },
      arguments: write + ["--read", "q.graphql", "--read-variables", "v.json"], status: 65,
      stderr: "Error: v.json: variables must be a JSON object\n"),
    Case(
      name: "the last second, with the largest maxAge: no overflow, a hit", files: files,
      arguments: ["normalize", "--at", "253402300799"] + write.dropFirst() + ["--read", "q.graphql", "--at", "253402300799"], status: 0,
      stderr: ""),
  ]

  @Test("each case: its exit code and message, in seconds", arguments: cases)
  func badInput(_ testCase: Case) async throws {
    let directory = try temporaryDirectory()
    for (name, text) in testCase.files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    let run = try await cachebench(testCase.arguments, in: directory)
    #expect(run.status == testCase.status, "\(run.stderr)")
    #expect(run.stderr.hasPrefix(testCase.stderr), "\(run.stderr.prefix(300))")
    if testCase.status != 0 { #expect(run.stdout == "") }
  }
}
