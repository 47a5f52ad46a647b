// swift-tools-version:6.0
import PackageDescription

// cachebench: a benchmark and profiling workbench for GraphQL normalized caches.
// No package dependencies: the Swift toolchain, Foundation, libsqlite3 and libjemalloc only.
let package = Package(
  name: "cachebench",
  products: [
    .executable(name: "cachebench", targets: ["cachebench"]),
    .library(name: "NormalizedCache", targets: ["NormalizedCache"]),
    .library(name: "SQLiteCache", targets: ["SQLiteCache"]),
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
    .target(name: "GraphQLLanguage"),
    .target(name: "NormalizedCache", dependencies: ["GraphQLLanguage"]),
    .target(name: "SQLiteCache", dependencies: ["NormalizedCache", "CSQLite"]),

    // The workbench around it.
    .target(
      name: "Workbench",
      dependencies: ["GraphQLLanguage", "NormalizedCache", "SQLiteCache", "CJemalloc"]
    ),
    .executableTarget(name: "cachebench", dependencies: ["Workbench"]),

    .testTarget(name: "GraphQLLanguageTests", dependencies: ["GraphQLLanguage"]),
    .testTarget(name: "NormalizedCacheTests", dependencies: ["NormalizedCache", "GraphQLLanguage"]),
    .testTarget(name: "SQLiteCacheTests", dependencies: ["SQLiteCache", "NormalizedCache", "GraphQLLanguage"]),
    .testTarget(name: "WorkbenchTests", dependencies: ["Workbench", "GraphQLLanguage", "NormalizedCache"]),
    .testTarget(name: "EndToEndTests", dependencies: ["cachebench"], exclude: ["Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)
