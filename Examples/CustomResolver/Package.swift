// swift-tools-version:6.0
import PackageDescription

// An app team's own cachebench: the workbench's whole command line, with the app's key resolver
// and field-policy provider registered. Depends on cachebench by path here; an app would use
// `.package(url: ..., from: ...)`.
let package = Package(
  name: "CustomResolver",
  // The package's own floor: Synchronization.Mutex, which its stores lock with, needs macOS 15.
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "cachebench", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "shop-cachebench",
      dependencies: [
        .product(name: "Workbench", package: "cachebench"),
        .product(name: "NormalizedCache", package: "cachebench"),
        .product(name: "GraphQLLanguage", package: "cachebench"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
