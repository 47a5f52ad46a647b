import GraphQLLanguage

/// Where two JSON values first differ, as a path: `data.items.edges.3.node.title: "A" != "B"`.
enum JSONDifference {
  static func first(between expected: JSONValue, and actual: JSONValue, path: String = "data") -> String? {
    switch (expected, actual) {
    case (.object(let a), .object(let b)):
      for member in a {
        guard let other = b[member.key] else { return "\(path).\(member.key): missing from the read-back" }
        if let difference = first(between: member.value, and: other, path: "\(path).\(member.key)") { return difference }
      }
      for member in b where a[member.key] == nil { return "\(path).\(member.key): not in the response" }
      return nil
    case (.array(let a), .array(let b)):
      if a.count != b.count { return "\(path): \(a.count) elements in the response, \(b.count) read back" }
      for (index, pair) in zip(a, b).enumerated() {
        if let difference = first(between: pair.0, and: pair.1, path: "\(path).\(index)") { return difference }
      }
      return nil
    default:
      return expected == actual ? nil : "\(path): \(JSONWriter.string(expected)) in the response, \(JSONWriter.string(actual)) read back"
    }
  }
}
