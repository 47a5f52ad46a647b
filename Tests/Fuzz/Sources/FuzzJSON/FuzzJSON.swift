import GraphQLLanguage

/// Any bytes: parsed as JSON or rejected with a GraphQLError, never a crash or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  if let value = try? JSONParser.parse(bytes, file: "fuzz.json") {
    // What was parsed writes back and parses again to the same value.
    let text = JSONWriter.string(value)
    let again = try? JSONParser.parse(text, file: "again.json")
    precondition(again == value, "JSON did not round-trip: \(text)")
  }
  _ = try? JSONParser.parseWithKeyLocations(Array(bytes), file: "fuzz.json")
  return 0
}
