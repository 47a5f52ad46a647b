import JSON

/// Parses JSON text ([RFC 8259](https://www.rfc-editor.org/rfc/rfc8259)) into a ``JSONValue``.
///
/// Integers that fit in 64 bits become `.int`; numbers with a fraction or an exponent, or too
/// large for 64 bits, become `.double`. Errors name the file, line and column:
/// `r.json:3:9: Expected ',' or '}' after an object member, found '"'`.
public enum JSONParser {
  /// Parses a whole JSON text; anything but whitespace after the value is an error.
  /// - Throws: ``GraphQLError`` at the first byte that does not fit.
  public static func parse(_ text: String, file: String = "<json>") throws(GraphQLError) -> JSONValue {
    try parse(Array(text.utf8), file: file)
  }

  /// Parses JSON from UTF-8 bytes, as read from a file.
  public static func parse(_ bytes: [UInt8], file: String = "<json>") throws(GraphQLError) -> JSONValue {
    let result: Result<JSONValue, GraphQLError> = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(GraphQLError) in try parse(buffer, file: file) }
    }
    return try result.get()
  }

  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(GraphQLError) -> JSONValue {
    var reader = Reader(bytes: bytes, file: file)
    try reader.checkUTF8()
    return try reader.parseDocument()
  }

  /// Parses JSON and records where every object key is, by its path: `stores[1].kind`, `generator.depth`.
  ///
  /// For configuration files, whose errors name the line of the key at fault.
  ///
  /// - Complexity: O(n) in the length of `bytes`: the keys are met in the order of the text, and
  ///   each key's line and column resume the scan where the previous key's stopped
  ///   (``SourceLocation/Locator``). Scanning from the start for each key made a 10 MB dataset
  ///   take hours.
  public static func parseWithKeyLocations(
    _ bytes: [UInt8], file: String
  ) throws(GraphQLError) -> (value: JSONValue, locations: [String: SourceLocation]) {
    let result: Result<(JSONValue, [String: SourceLocation]), GraphQLError> = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(GraphQLError) in
        var reader = Reader(bytes: buffer, file: file)
        reader.keyOffsets = []
        try reader.checkUTF8()
        let value = try reader.parseDocument()
        let keys = reader.keyOffsets ?? []
        var locations: [String: SourceLocation] = [:]
        locations.reserveCapacity(keys.count)
        var locator = SourceLocation.Locator(file: file)
        for key in keys { locations[key.path] = locator.location(of: key.offset, in: buffer) }
        return (value, locations)
      }
    }
    return try result.get()
  }
}
