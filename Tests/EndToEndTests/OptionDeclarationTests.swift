import Foundation
import Testing

/// An option is declared once (Sources/CachebenchCLI/CommandLine/Option.swift, issue 40): its
/// help, usage, validation and default all come from the declaration. Checked through the
/// binary, on real declarations, with exact strings.
@Suite("Options declared once", .timeLimit(.minutes(10)))
struct OptionDeclarationTests {
  /// A command's help row of one option: `--name <placeholder>`, padded to column 28, its help.
  static func row(_ left: String, _ help: String) -> String {
    "\n  " + left.padding(toLength: 26, withPad: " ", startingAt: 0) + help + "\n"
  }

  @Test(
    "an option's help row: its help, its declared default once, an enum's cases exactly",
    arguments: [
      (
        "normalize", "--ttl <mode>",
        "How the read treats an expired field: strict (a miss) or permissive (stale data). Default: strict. (values: strict, permissive)"
      ),
      (
        "normalize", "--store <store>",
        "The store the records go through; sqlite is a temporary file, removed afterwards. Default: memory. (values: memory, sqlite)"
      ),
      ("normalize", "--format <format>", "Output format of the records. Default: json. (values: json, entries)"),
      (
        "compare", "--format <FORMAT>",
        "What standard output gets: the terminal's tables (text) or GitHub-flavoured markdown. Default: text. (values: text, markdown)"
      ),
      ("ab", "--rounds <N>", "Runs of each side, taken in turns. Default: 5."),
      ("export", "--version-label <LABEL>", "apollo: the dataset's 'version'. Default: cachebench."),
    ])
  func enumHelp(command: String, left: String, help: String) async throws {
    let run = try await cachebench([command, "--help"])
    #expect(run.status == 0)
    #expect(run.stdout.contains(Self.row(left, help)), "\(run.stdout)")
  }

  /// `run --help` lists the layouts from the catalog; docs/stores.md's layout table is checked
  /// against the same catalog (LayoutCatalogTests), so the two say the same.
  @Test("run's help lists every SQLite layout with its summary, as docs/stores.md's layout table does")
  func layoutsInHelp() async throws {
    let stores = try String(contentsOf: projectRoot.appendingPathComponent("docs/stores.md"), encoding: .utf8)
    let lines = stores.split(separator: "\n", omittingEmptySubsequences: false)
    let marker = try #require(lines.firstIndex { $0.hasPrefix("<!-- layout catalog:") })
    let rows = lines[(marker + 3)...].prefix { $0.hasPrefix("|") }.map {
      $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }
    #expect(rows.count >= 5)
    let run = try await cachebench(["run", "--help"])
    let section = try #require(run.stdout.components(separatedBy: "SQLITE LAYOUTS").last?.components(separatedBy: "\n\n").first)
    let listed = section.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
    let names = rows.map { $0[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
    #expect(listed.count == rows.count, "\(section)")
    for (line, (name, row)) in zip(listed, zip(names, rows)) {
      #expect(line.hasPrefix(name + " ") && line.hasSuffix(" " + row[5]), "\(line)")
    }
  }

  @Test("a generated usage line lists the options in order, choices from the enum, internal ones left out")
  func generatedUsage() async throws {
    let compare = try await cachebench(["compare", "--help"])
    #expect(
      compare.stdout.contains(
        "\nUSAGE: cachebench compare <BASELINE.csv> <CURRENT.csv> [--threshold <PCT>] [--thresholds <FILE.csv>] [--out <FILE.csv>] [--format text|markdown] [--markdown <FILE.md>]\n"
      ))
    let export = try await cachebench(["export", "--help"])
    #expect(
      export.stdout.contains(
        "\nUSAGE: cachebench export <RESULTS.csv> --format bmf|github-action-benchmark|apollo|csv [--better lower|higher] [--deterministic-only] "
      ))
    let run = try await cachebench(["run", "--help"])
    #expect(
      run.stdout.contains(
        "\nUSAGE: cachebench run <workload>... [--out <FILE.csv>] [--samples <FILE.csv>] [--history <FILE.csv>] [--instructions] [--quick] [--shard <K/N>] [--allow-large] [--no-progress]\n"
      ))
    #expect(run.stdout.contains("\n  --instructions-only <FILE>"))
  }

  @Test(
    "a mistyped value is refused when the line is read, with the values and the nearest",
    arguments: [
      (
        ["normalize", "--ttl", "strcit", "--operation", "q.graphql", "--response", "r.json"],
        "Error: The value 'strcit' is invalid for '--ttl'; expected one of: strict, permissive. Did you mean 'strict'?\nUsage: cachebench normalize "
      ),
      (
        ["compare", "a.csv", "b.csv", "--format=markdwn"],
        "Error: The value 'markdwn' is invalid for '--format'; expected one of: text, markdown. Did you mean 'markdown'?\nUsage: cachebench compare "
      ),
      (
        ["export", "a.csv", "--format", "bencher"],
        "Error: The value 'bencher' is invalid for '--format'; expected one of: bmf, github-action-benchmark, apollo, csv.\nUsage: cachebench export "
      ),
    ])
  func mistypedValue(arguments: [String], stderr: String) async throws {
    let run = try await cachebench(arguments)
    #expect(run.status == 64)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix(stderr), "\(run.stderr)")
  }

  @Test(
    "a value outside its type keeps its message; a repeated option and a missing required one are refused",
    arguments: [
      (
        ["ab", "--base", "/nonexistent/a", "--current", "/nonexistent/b", "w.json", "--rounds", "1"],
        "Error: The value '1' is invalid for '--rounds'; expected a whole number from 2 to 1000.\nUsage: cachebench ab "
      ),
      (
        ["soak", "w.json", "--warmup", "-1"],
        "Error: The value '-1' is invalid for '--warmup'; expected a whole number from 0 to 100000000.\nUsage: cachebench soak "
      ),
      (
        ["compare", "a.csv", "b.csv", "--threshold", "-3"],
        "Error: The value '-3' is invalid for '--threshold'; expected a percentage such as 10.\nUsage: cachebench compare "
      ),
      (
        ["normalize", "--ttl", "strict", "--ttl", "permissive"],
        "Error: The option '--ttl' was given more than once.\nUsage: cachebench normalize "
      ),
      (["merge", "a.csv", "--out", "o.csv"], "Error: Missing expected option '--workload <FILE.json>'.\nUsage: cachebench merge "),
      (["merge", "a.csv"], "Error: Missing expected options '--workload <FILE.json>' and '--out <FILE.csv>'.\nUsage: cachebench merge "),
      (
        ["export", "a.csv"], "Error: Missing expected option '--format bmf|github-action-benchmark|apollo|csv'.\nUsage: cachebench export "
      ),
      // One grammar for numbers (docs/command-line.md, Conventions: Numbers): decimal only, a sign only where a
      // negative value means something.
      (
        ["compare", "a.csv", "b.csv", "--threshold", "0x10"],
        "Error: The value '0x10' is invalid for '--threshold'; expected a percentage such as 10.\nUsage: cachebench compare "
      ),
      (
        ["compare", "a.csv", "b.csv", "--threshold", "0x1p-1074"],
        "Error: The value '0x1p-1074' is invalid for '--threshold'; expected a percentage such as 10.\nUsage: cachebench compare "
      ),
      (
        ["compare", "a.csv", "b.csv", "--threshold=+5"],
        "Error: The value '+5' is invalid for '--threshold'; expected a percentage such as 10.\nUsage: cachebench compare "
      ),
      (
        ["compare", "a.csv", "b.csv", "--threshold", "inf"],
        "Error: The value 'inf' is invalid for '--threshold'; expected a percentage such as 10.\nUsage: cachebench compare "
      ),
      (
        ["soak", "w.json", "--warmup", "0x20"],
        "Error: The value '0x20' is invalid for '--warmup'; expected a whole number from 0 to 100000000.\nUsage: cachebench soak "
      ),
      (
        ["soak", "w.json", "--warmup", "3.2e1"],
        "Error: The value '3.2e1' is invalid for '--warmup'; expected a whole number from 0 to 100000000.\nUsage: cachebench soak "
      ),
      (
        ["soak", "w.json", "--warmup", "+3"],
        "Error: The value '+3' is invalid for '--warmup'; expected a whole number from 0 to 100000000.\nUsage: cachebench soak "
      ),
      (["run", "w.json", "---quick"], "Error: Unknown option '---quick'. Did you mean '--quick'?\nUsage: cachebench run "),
      (["version", "--frob"], "Error: Unknown option '--frob'. 'version' takes none.\nUsage: cachebench version\n"),
      (["--version", "extra"], "Error: Unexpected argument 'extra'. 'version' takes none.\nUsage: cachebench version\n"),
    ])
  func refused(arguments: [String], stderr: String) async throws {
    let run = try await cachebench(arguments)
    #expect(run.status == 64)
    #expect(run.stderr.hasPrefix(stderr), "\(run.stderr)")
  }

  @Test("the declared default applies when the option is absent: --format json, --ttl strict")
  func defaults() async throws {
    let seeds = fixtures + "/seeds"
    let write = ["normalize", "--operation", "GetFavoriteBook.graphql", "--response", "favoriteBook.json"]
    let absent = try await cachebench(write, in: seeds)
    let given = try await cachebench(write + ["--format", "json"], in: seeds)
    #expect(absent.status == 0)
    #expect(absent.stdout.hasPrefix("{"))
    #expect(absent.stdout == given.stdout)
    let read = write + ["--read", "GetFavoriteBook.graphql"]
    let readAbsent = try await cachebench(read, in: seeds)
    let readStrict = try await cachebench(read + ["--ttl", "strict"], in: seeds)
    #expect(readAbsent.status == 0)
    #expect(readAbsent.stdout == readStrict.stdout)
  }
}
