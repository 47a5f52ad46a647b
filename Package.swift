// swift-tools-version:6.0
import PackageDescription

// Sanitizer builds (`make asan`, `make tsan`) leave jemalloc out: AddressSanitizer and
// ThreadSanitizer replace malloc themselves, and with jemalloc's malloc linked in as well the test
// binary fails before its first test (a free of memory the other allocator gave). Without it,
// Measurement's jemalloc calls fail with a clear error, so the workbench's runs (and their tests)
// need the normal build; the stores, the normalizer, the reader and the parsers do not.
let withoutJemalloc = Context.environment["CACHEBENCH_NO_JEMALLOC"] != nil

// cachebench: a benchmark and profiling workbench for GraphQL normalized caches.
// No package dependencies: the Swift toolchain, Foundation, libsqlite3 and libjemalloc only.
let package = Package(
  name: "cachebench",
  // Synchronization.Atomic (the lock-wait counters, the load timer) needs macOS 15; Linux has it with the
  // Swift 6 toolchain. iOS and the others are not declared: the workbench is a command-line tool,
  // and the library targets have not been built there.
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "cachebench", targets: ["cachebench"]),
    .library(name: "GraphQLLanguage", targets: ["GraphQLLanguage"]),
    .library(name: "NormalizedCache", targets: ["NormalizedCache"]),
    .library(name: "SQLiteCache", targets: ["SQLiteCache"]),
    .library(name: "NormalizedCacheConformance", targets: ["NormalizedCacheConformance"]),
    // The workbench as a library, one product per module a package of yours imports: the whole
    // command line as a function (`Cachebench.main`), and the registry it runs with (`Workloads`:
    // key resolvers, field-policy providers and stores of your own). The modules behind them
    // (Workbench, Results, Measurement, Support) are the package's own: their helpers are `package`, not
    // `public`.
    .library(name: "CachebenchCLI", targets: ["CachebenchCLI"]),
    .library(name: "Workloads", targets: ["Workloads"]),
  ],
  targets: [
    // System libraries, found through pkg-config.
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    .systemLibrary(
      name: "CJemalloc",
      pkgConfig: "jemalloc",
      providers: [.apt(["libjemalloc-dev"]), .brew(["jemalloc"])]
    ),

    // The system under test.
    // JSON text's strings and numbers, written and read by one escaper, one unescaper and one
    // number lexer: the response parser (GraphQLLanguage), the apollo layout's records
    // (SQLiteCache), a record's listing (NormalizedCache) and the exports (Results) share them.
    .target(name: "JSON"),
    .target(name: "GraphQLLanguage", dependencies: ["JSON"]),
    .target(name: "NormalizedCache", dependencies: ["GraphQLLanguage", "JSON"]),
    // A VFS over SQLite's default that counts the syncs, writes and reads it passes on (the
    // `fsyncs` and `writes` metrics), written in C as SQLite's own VFS shims are. Its debug
    // information in DWARF 4: valgrind 3.19 (callgrind, `run --instructions`, the gate) gives up
    // on the binary when this file's DWARF 5, which clang writes by default, is in it.
    .target(name: "CSQLiteIO", dependencies: ["CSQLite"], cSettings: [.unsafeFlags(["-gdwarf-4"])]),
    .target(name: "SQLiteCache", dependencies: ["NormalizedCache", "GraphQLLanguage", "JSON", "CSQLite", "CSQLiteIO"]),
    // Checks a store of yours against the rules both stores here follow (eviction, and dates and
    // reads with a clock, against reference models), without a test framework: each check
    // returns the first disagreement.
    .target(name: "NormalizedCacheConformance", dependencies: ["NormalizedCache", "GraphQLLanguage", "Support"]),

    // The workbench around it. Dependencies run downward only, and SwiftPM enforces them: the
    // results know nothing of how they were measured, measurement nothing of workloads, and only
    // the runner drives stores and key strategies.
    // What the workbench asks of the system: child processes (valgrind, git, the paired worker),
    // files written whole or not at all, input files read with their lines, standard streams,
    // and the exit codes every command returns.
    .target(name: "Support"),
    // JSON: its one string escaper writes the exports' strings.
    .target(name: "Results", dependencies: ["Support", "JSON"]),
    // Valgrind's client requests for callgrind, written out in C (no valgrind header needed to build).
    .target(name: "CCallgrind"),
    .target(
      name: "Measurement", dependencies: ["Results", "Support", "CCallgrind"] + (withoutJemalloc ? [] : ["CJemalloc"]),
      swiftSettings: withoutJemalloc ? [.define("NO_JEMALLOC")] : []),
    .target(name: "Generator", dependencies: ["Support", "GraphQLLanguage"]),
    .target(
      name: "Workloads",
      dependencies: ["Results", "Support", "Generator", "GraphQLLanguage", "NormalizedCache", "SQLiteCache"]
    ),
    .target(
      name: "Workbench",
      dependencies: [
        "Workloads", "Measurement", "Results", "Support", "Generator", "GraphQLLanguage", "NormalizedCache", "SQLiteCache",
      ]
    ),
    .target(
      name: "CachebenchCLI",
      dependencies: ["Workbench", "Workloads", "Results", "Support", "GraphQLLanguage", "NormalizedCache", "SQLiteCache"]
    ),
    .executableTarget(name: "cachebench", dependencies: ["CachebenchCLI"]),
    // `make crash-test`: kills a process merging into SQLite and checks what is left.
    .executableTarget(name: "crashtest", dependencies: ["SQLiteCache", "NormalizedCache", "NormalizedCacheConformance", "Support"]),

    .testTarget(name: "JSONTests", dependencies: ["JSON", "GraphQLLanguage"]),
    .testTarget(name: "GraphQLLanguageTests", dependencies: ["GraphQLLanguage", "Generator", "Support"]),
    .testTarget(
      name: "NormalizedCacheTests",
      dependencies: ["NormalizedCache", "GraphQLLanguage", "NormalizedCacheConformance", "Generator", "Support"]),
    .testTarget(
      name: "SQLiteCacheTests",
      dependencies: ["SQLiteCache", "NormalizedCache", "GraphQLLanguage", "JSON", "NormalizedCacheConformance", "Generator", "Support"]),
    .testTarget(name: "ResultsTests", dependencies: ["Results", "Support", "Generator"]),
    .testTarget(name: "MeasurementTests", dependencies: ["Measurement", "Results"]),
    .testTarget(name: "GeneratorTests", dependencies: ["Generator", "Results", "Support", "GraphQLLanguage", "NormalizedCache"]),
    .testTarget(
      name: "WorkloadsTests",
      dependencies: ["Workloads", "Generator", "Results", "GraphQLLanguage", "NormalizedCache", "SQLiteCache"]
    ),
    .testTarget(
      name: "WorkbenchTests",
      dependencies: ["Workbench", "Workloads", "Measurement", "Results", "Support", "NormalizedCache", "SQLiteCache", "GraphQLLanguage"]
    ),
    .testTarget(name: "EndToEndTests", dependencies: ["cachebench", "crashtest", "Results", "Support"], exclude: ["Fixtures"]),
    // The README's and docs/'s links and anchors; no module of the package, so no jemalloc.
    .testTarget(name: "DocumentationTests"),
  ],
  swiftLanguageModes: [.v6]
)
