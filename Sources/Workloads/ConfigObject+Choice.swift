extension ConfigObject {
  /// A string that must be one of `T`'s raw values.
  mutating func choice<T: RawRepresentable & CaseIterable>(
    _ key: String, of type: T.Type
  ) throws(WorkloadError) -> T? where T.RawValue == String {
    guard let text = try string(key) else { return nil }
    guard let value = T(rawValue: text) else {
      throw error(key, "must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"")
    }
    return value
  }
}
