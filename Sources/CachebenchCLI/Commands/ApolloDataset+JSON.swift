import GraphQLLanguage
import Results
import Support

extension ApolloDataset {
  /// Reads a dataset in Apollo's format (§5.1 of their performance plan, docs/apollo.md), such as
  /// their `baseline-2.x.json`: `version`, `captured_at`, `git_sha` and `device` strings, and
  /// `results`, each with `tier`, `scenario`, `mean_ms`, `std_ms`, `p50_ms`, `p95_ms`, `p99_ms` and
  /// `iterations`. Other keys (`baseline_version`, a result's `verdict`, ...) are let be.
  ///
  /// - Throws: ``InputError`` (66) when the file cannot be read; ``GraphQLError`` (65) when it is
  ///   not JSON, with its line and column; ``ApolloDatasetError`` (65) naming the line and key of
  ///   a missing key, a value of the wrong type, a number below 0, or a tier below 0 or an
  ///   iteration count below 1, or the line of a last line without a line end (a file cut short).
  static func read(_ path: String) throws -> ApolloDataset {
    let bytes = try InputFile.bytes(path)
    if let line = InputFile.unendedLastLine(bytes) {
      throw ApolloDatasetError("\(path):\(line): \(InputFile.unendedLastLineMessage)")
    }
    let (value, locations) = try JSONParser.parseWithKeyLocations(bytes, file: path)
    let reader = DatasetReader(file: path, locations: locations)
    guard case .object(let top) = value else {
      throw reader.error("", "must be a JSON object, Apollo's dataset (docs/apollo.md), not \(value.kindDescription)")
    }
    guard case .array(let list)? = top["results"] else {
      throw reader.error(
        "results", top["results"] == nil ? "is missing" : "must be an array of results, not \(top["results"]!.kindDescription)")
    }
    var results: [Result] = []
    for (index, element) in list.enumerated() {
      let path = "results[\(index)]"
      guard case .object(let object) = element else { throw reader.error(path, "must be an object, not \(element.kindDescription)") }
      results.append(try reader.result(object, at: path))
    }
    return ApolloDataset(
      version: try reader.string(top, "version"), capturedAt: try reader.string(top, "captured_at"),
      gitSHA: try reader.string(top, "git_sha"), device: try reader.string(top, "device"), results: results)
  }
}

/// The keys of one dataset file, each read with the line it is on.
private struct DatasetReader {
  let file: String
  let locations: [String: SourceLocation]

  /// `file:line:column: key: message`; for a key that is missing, the line of its object's first
  /// key, or of the key that holds its object.
  func error(_ keyPath: String, _ message: String) -> ApolloDatasetError {
    let parent = keyPath.lastIndex { $0 == "." || $0 == "[" }.map { String(keyPath[..<$0]) } ?? ""
    let siblings = locations.filter { parent.isEmpty ? !$0.key.contains(".") : $0.key.hasPrefix(parent + ".") }.map(\.value)
    let location = locations[keyPath] ?? siblings.min { ($0.line, $0.column) < ($1.line, $1.column) } ?? locations[parent]
    let place = location.map(\.description) ?? file
    return ApolloDatasetError(keyPath.isEmpty ? "\(place): \(message)" : "\(place): \(keyPath): \(message)")
  }

  func path(_ parent: String, _ key: String) -> String { parent.isEmpty ? key : "\(parent).\(key)" }

  func string(_ object: JSONObject, _ key: String, in parent: String = "") throws(ApolloDatasetError) -> String {
    switch object[key] {
    case .string(let text)?: return text
    case nil: throw error(path(parent, key), "is missing")
    case let value?: throw error(path(parent, key), "must be a string, not \(value.kindDescription)")
    }
  }

  func number(_ object: JSONObject, _ key: String, in parent: String) throws(ApolloDatasetError) -> Double {
    let number: Double
    switch object[key] {
    case .int(let value)?: number = Double(value)
    case .double(let value)?: number = value
    case nil: throw error(path(parent, key), "is missing")
    case let value?: throw error(path(parent, key), "must be a number, not \(value.kindDescription)")
    }
    guard number >= 0 else { throw error(path(parent, key), "must be 0 or more, got \(CSVNumber.format(number))") }
    return number
  }

  func integer(_ object: JSONObject, _ key: String, in parent: String, from lowest: Int) throws(ApolloDatasetError) -> Int {
    guard case .int(let value)? = object[key] else {
      throw error(path(parent, key), object[key].map { "must be an integer, not \($0.kindDescription)" } ?? "is missing")
    }
    guard value >= lowest else { throw error(path(parent, key), "must be \(lowest) or more, got \(value)") }
    return value
  }

  func result(_ object: JSONObject, at parent: String) throws(ApolloDatasetError) -> ApolloDataset.Result {
    ApolloDataset.Result(
      tier: try integer(object, "tier", in: parent, from: 0), scenario: try string(object, "scenario", in: parent),
      meanMs: try number(object, "mean_ms", in: parent), stdMs: try number(object, "std_ms", in: parent),
      p50Ms: try number(object, "p50_ms", in: parent), p95Ms: try number(object, "p95_ms", in: parent),
      p99Ms: try number(object, "p99_ms", in: parent), iterations: try integer(object, "iterations", in: parent, from: 1))
  }
}
