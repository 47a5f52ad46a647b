import GraphQLLanguage
import Results

/// Reads one JSON object of a configuration file, key by key, with the key path and line of any
/// error, and rejects the keys nobody asked for.
struct ConfigObject {
  let object: JSONObject
  let path: String
  let file: String
  let locations: [String: SourceLocation]
  private(set) var used: Set<String> = []

  init(_ object: JSONObject, path: String, file: String, locations: [String: SourceLocation]) {
    self.object = object
    self.path = path
    self.file = file
    self.locations = locations
  }

  func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  func error(_ key: String?, _ message: String) -> WorkloadError {
    let keyPath = key.map(keyPath) ?? path
    return WorkloadError(file: file, location: locations[keyPath] ?? locations[path], keyPath: keyPath, message: message)
  }

  mutating func value(_ key: String) -> JSONValue? {
    used.insert(key)
    return object[key]
  }

  mutating func has(_ key: String) -> Bool { object[key] != nil }

  mutating func string(_ key: String) throws(WorkloadError) -> String? {
    guard let value = value(key), value != .null else { return nil }
    guard case .string(let string) = value else { throw error(key, "must be a string, not \(value.kindDescription)") }
    return string
  }

  mutating func requiredString(_ key: String) throws(WorkloadError) -> String {
    guard let string = try string(key) else { throw error(key, "is required") }
    return string
  }

  mutating func bool(_ key: String) throws(WorkloadError) -> Bool? {
    guard let value = value(key), value != .null else { return nil }
    guard case .bool(let flag) = value else { throw error(key, "must be true or false, not \(value.kindDescription)") }
    return flag
  }

  mutating func int(_ key: String, in range: ClosedRange<Int>) throws(WorkloadError) -> Int? {
    guard let value = value(key), value != .null else { return nil }
    let int: Int
    switch value {
    case .int(let exact): int = exact
    case .double(let double) where double == double.rounded() && abs(double) < 1e15: int = Int(double)
    default: throw error(key, "must be an integer, not \(value.kindDescription)")
    }
    guard range.contains(int) else {
      throw error(key, "must be between \(range.lowerBound) and \(range.upperBound), got \(int)")
    }
    return int
  }

  mutating func double(_ key: String, in range: ClosedRange<Double>) throws(WorkloadError) -> Double? {
    guard let value = value(key), value != .null else { return nil }
    let double: Double
    switch value {
    case .int(let int): double = Double(int)
    case .double(let exact): double = exact
    default: throw error(key, "must be a number, not \(value.kindDescription)")
    }
    guard range.contains(double) else {
      throw error(key, "must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)), got \(Self.format(double))")
    }
    return double
  }

  mutating func object(_ key: String) throws(WorkloadError) -> ConfigObject? {
    guard let value = value(key), value != .null else { return nil }
    guard case .object(let object) = value else { throw error(key, "must be an object, not \(value.kindDescription)") }
    return ConfigObject(object, path: keyPath(key), file: file, locations: locations)
  }

  mutating func array(_ key: String) throws(WorkloadError) -> [JSONValue]? {
    guard let value = value(key), value != .null else { return nil }
    guard case .array(let array) = value else { throw error(key, "must be an array, not \(value.kindDescription)") }
    return array
  }

  /// An array of integers in `range`, none twice, at least one (`concurrency.readers`,
  /// `lists.sizes`); nil when the key is absent. `element` names what one is ("a list size"),
  /// `repeated` says what a repeated value is already, `empty` what an empty array lacks.
  mutating func distinctInts(
    _ key: String, in range: ClosedRange<Int>, element: String, repeated: (Int) -> String, empty: String
  ) throws(WorkloadError) -> [Int]? {
    guard let values = try array(key) else { return nil }
    var chosen: [Int] = []
    for (index, value) in values.enumerated() {
      guard case .int(let int) = value, range.contains(int) else {
        let got = if case .int(let number) = value { String(number) } else { value.kindDescription }
        throw error(key, "element \(index) must be \(element) from \(range.lowerBound) to \(range.upperBound), got \(got)")
      }
      guard !chosen.contains(int) else { throw error(key, "element \(index): \(repeated(int))") }
      chosen.append(int)
    }
    guard !chosen.isEmpty else { throw error(key, "must name at least one \(empty)") }
    return chosen
  }

  /// Rejects every key that was not read, suggesting a near miss.
  func finish() throws(WorkloadError) {
    for key in object.keys where !used.contains(key) {
      var message = "unknown key"
      if let suggestion = Suggestion.nearest(to: key, in: Array(used)) { message += "; did you mean \"\(suggestion)\"?" }
      throw error(key, message)
    }
  }

  static func format(_ double: Double) -> String {
    double == double.rounded() && abs(double) < 1e15 ? String(Int(double)) : String(double)
  }

}
