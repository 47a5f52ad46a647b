// swift-tools-version:6.0
import PackageDescription

// An app team's own cachebench: the workbench's whole command line, with the app's key resolver,
// field-policy provider and its own store registered. Depends on cachebench by path here; an app
// would use `.package(url: ..., from: ...)`.
let package = Package(
  name: "AppTeam",
  // The package's own floor: Synchronization.Mutex, which its stores lock with, needs macOS 15.
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "cachebench", path: "../..")
  ],
  targets: [
    // The app's own store, which the workbench measures beside its own: it needs cachebench's
    // store protocols only.
    .target(
      name: "ShopCache",
      dependencies: [
        .product(name: "NormalizedCache", package: "cachebench")
      ]
    ),
    .executableTarget(
      name: "shop-cachebench",
      dependencies: [
        "ShopCache",
        .product(name: "CachebenchCLI", package: "cachebench"),
        .product(name: "Workloads", package: "cachebench"),
        .product(name: "NormalizedCache", package: "cachebench"),
        .product(name: "GraphQLLanguage", package: "cachebench"),
      ]
    ),
    // The store's evictions against cachebench's reference model.
    .testTarget(
      name: "ShopCacheTests",
      dependencies: [
        "ShopCache",
        .product(name: "NormalizedCache", package: "cachebench"),
        .product(name: "NormalizedCacheConformance", package: "cachebench"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
