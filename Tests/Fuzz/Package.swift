// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for the parsers and the workload loader (issue 11). Built and run by
// `make fuzz SECONDS=N` with `swift build --sanitize=fuzzer,address`; libFuzzer supplies `main`,
// hence -parse-as-library. A package of its own so that cachebench itself needs no unsafe flags.
let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
  name: "Fuzz",
  dependencies: [.package(name: "cachebench", path: "../..")],
  targets: [
    .executableTarget(
      name: "FuzzJSON",
      dependencies: [.product(name: "GraphQLLanguage", package: "cachebench")],
      swiftSettings: fuzzer),
    .executableTarget(
      name: "FuzzGraphQL",
      dependencies: [
        .product(name: "GraphQLLanguage", package: "cachebench"),
        .product(name: "NormalizedCache", package: "cachebench"),
      ],
      swiftSettings: fuzzer),
    .executableTarget(
      name: "FuzzWorkload",
      dependencies: [.product(name: "Workloads", package: "cachebench")],
      swiftSettings: fuzzer),
  ],
  swiftLanguageModes: [.v6]
)
