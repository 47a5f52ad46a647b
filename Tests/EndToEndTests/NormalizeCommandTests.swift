import Foundation
import Testing

let normalizeUsage =
  "Usage: cachebench normalize [--at <seconds>] --operation <Q.graphql> --response <R.json> ... [--schema <F.graphqls> ...] [--document <F.graphql> ...] [--variables <V.json>] [--operation-name <name>] [--keys path|typePolicy|programmatic] [--resolver <name>] [--store memory|sqlite] [--layout compact|apollo|rows|rows-rowid|rows-ordered] [--format json|entries] [--read <Q.graphql> [--read-variables <V.json>] [--read-operation-name <name>] [--at <seconds>] [--ttl strict|permissive]]\n"

@Suite("cachebench normalize", .timeLimit(.minutes(10)))
struct NormalizeCommandTests {
  @Test("reproduces the seed's first listing: QUERY_ROOT, QUERY_ROOT.favoriteBook and its author")
  func seedListing() async throws {
    let run = try await cachebench(
      ["normalize", "--operation", "GetFavoriteBook.graphql", "--response", "favoriteBook.json", "--format", "entries"],
      in: fixtures + "/seeds")
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        "QUERY_ROOT": {
          "favoriteBook": "-> #QUERY_ROOT.favoriteBook"
        }

        "QUERY_ROOT.favoriteBook": {
          "id": "bk123",
          "title": "Les Guerriers du silence",
          "author": "-> #QUERY_ROOT.favoriteBook.author"
        }

        "QUERY_ROOT.favoriteBook.author": {
          "id": "au456",
          "name": "Pierre Bordage"
        }

        """)
  }

  @Test("merges several responses in order and keys Book:bk123 by the schema extension's type policy")
  func mergedListing() async throws {
    let run = try await cachebench(
      [
        "normalize", "--schema", "schema.graphqls", "--schema", "extensions.graphqls", "--keys", "typePolicy",
        "--operation", "GetFavoriteBook.graphql", "--response", "favoriteBook.json",
        "--operation", "FavoriteBookYear.graphql", "--response", "favoriteBookYear.json",
        "--operation", "BestFriendsFavoriteBook.graphql", "--response", "bestFriendsFavoriteBook.json",
        "--format", "entries",
      ], in: fixtures + "/seeds")
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        "QUERY_ROOT": {
          "favoriteBook": "-> #Book:bk123",
          "bestFriend": "-> #QUERY_ROOT.bestFriend"
        }

        "Book:bk123": {
          "id": "bk123",
          "title": "Les guerriers du silence",
          "author": "-> #Book:bk123.author",
          "yearPublished": 1993,
          "genre": "SCIENCE_FICTION"
        }

        "Book:bk123.author": {
          "id": "au456",
          "name": "Pierre Bordage"
        }

        "QUERY_ROOT.bestFriend": {
          "favoriteBook": "-> #Book:bk123"
        }

        """)
  }

  @Test("the json format: records by sorted key, fields sorted, references as $reference")
  func jsonFormat() async throws {
    let run = try await cachebench(
      ["normalize", "--operation", "FavoriteBookYear.graphql", "--response", "favoriteBookYear.json"],
      in: fixtures + "/seeds")
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        {
          "records": {
            "QUERY_ROOT": {
              "favoriteBook": {
                "$reference": "QUERY_ROOT.favoriteBook"
              }
            },
            "QUERY_ROOT.favoriteBook": {
              "id": "bk123",
              "yearPublished": 1993
            }
          }
        }

        """)
  }

  @Test("the calendar corpus under the id resolver")
  func calendar() async throws {
    let fragments = [
      "ItemFragment", "ItemTypeFragment", "IconFragment", "CategoryFragment", "CalendarFragment",
      "CalendarProviderFragment", "DateTimeFragment", "PageInfoFragment",
    ].flatMap { ["--document", "Workloads/calendar/\($0).graphql"] }
    let run = try await cachebench(
      [
        "normalize", "--operation", "Workloads/calendar/ItemsQuery.graphql", "--response",
        "Workloads/calendar/calendar_response.json", "--schema", "Workloads/calendar/schema.graphqls",
        "--variables", "Workloads/calendar/variables.json", "--resolver", "id", "--format", "entries",
      ] + fragments)
    #expect(run.status == 0)
    let entries = run.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("\"") && $0.hasSuffix("{") }
    #expect(entries.count == 1109)
    #expect(entries.contains("\"Icon:General\": {"))
  }

  @Test(
    "bad input: a clear error on stderr (a usage error with the usage line), and the documented exit code",
    arguments: [
      (
        ["--operation", "GetFavoriteBook.graphql", "--response", "missing.json"], Int32(66),
        "Error: cannot open 'missing.json': No such file or directory\n"
      ),
      (
        ["--operation", "GetFavoriteBook.graphql", "--response", "schema.graphqls"], Int32(65),
        "Error: schema.graphqls:1:1: Expected a JSON value, found '#'\n"
      ),
      (
        ["--operation", "favoriteBook.json", "--response", "favoriteBook.json"], Int32(65),
        "Error: favoriteBook.json:2:3: Expected Name, found String \"favoriteBook\"\n"
      ),
      (
        ["--operation", "FavoriteBookYear.graphql", "--response", "favoriteBook.json"], Int32(65),
        "Error: favoriteBook.json: missing field \"yearPublished\" at data.favoriteBook\n"
      ),
      (
        ["--operation", "GetFavoriteBook.graphql", "--response", "favoriteBook.json", "--formt", "entries"], Int32(64),
        "Error: Unknown option '--formt'. Did you mean '--format'?\n" + normalizeUsage
          + "  See 'cachebench normalize --help'.\n"
      ),
      (
        ["--operation", "GetFavoriteBook.graphql"], Int32(64),
        "Error: Give one --response per --operation (got 1 operations and 0 responses).\n" + normalizeUsage
          + "  See 'cachebench normalize --help'.\n"
      ),
      (
        ["--operation", "GetFavoriteBook.graphql", "--response", "favoriteBook.json", "--resolver", "isbn"], Int32(64),
        "Error: unknown key resolver 'isbn'; known resolvers: id, interface-group, seed-books.\n" + normalizeUsage
          + "  See 'cachebench normalize --help'.\n"
      ),
    ])
  func errors(arguments: [String], status: Int32, stderr: String) async throws {
    let run = try await cachebench(["normalize"] + arguments, in: fixtures + "/seeds")
    #expect(run.status == status)
    #expect(run.stderr == stderr)
    #expect(run.stdout == "")
  }

  @Test("--help prints OVERVIEW, USAGE and OPTIONS and exits 0")
  func help() async throws {
    let run = try await cachebench(["normalize", "--help"])
    #expect(run.status == 0)
    #expect(
      run.stdout.hasPrefix(
        "OVERVIEW: Normalize responses into records and print them, or read an operation back at a time.\n\nUSAGE: cachebench normalize"))
    #expect(run.stdout.contains("\nOPTIONS:\n  --operation <file>"))
  }
}
