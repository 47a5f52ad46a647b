extension String {
  /// Whether the two keys are equal, their lengths compared first: a probe of a key table mostly
  /// meets keys of other lengths, which `==` alone compares byte by byte.
  @inline(__always)
  func equalsKey(_ other: String) -> Bool {
    utf8.count == other.utf8.count && self == other
  }

  /// Lends `body` the string's UTF-8, in place where it is stored contiguously (a copy to call
  /// `withUTF8` on would cost an atomic retain and release).
  @inline(__always)
  func withUTF8InPlace<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = self
    return copy.withUTF8(body)
  }
}
