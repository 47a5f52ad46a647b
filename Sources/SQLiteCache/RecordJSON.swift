import JSON
@_spi(RecordBytes) import NormalizedCache

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A record's fields as the JSON text Apollo iOS stores in its SQLite `record` column
/// (`SQLiteSerialization`): one object, field keys to values, a reference written as
/// `{"$reference":"KEY"}`, fields in the record's order, no spaces.
///
/// ```swift
/// RecordJSON.string(of: Record(key: "Book:1", ["title": "Dune", "author": .reference("Author:2")]))
/// // {"title":"Dune","author":{"$reference":"Author:2"}}
/// ```
/// Both directions work straight on ``RecordCodec`` bytes, without building ``RecordValue``s.
/// An Int prints as digits and reads back as an Int; a Double prints as Swift's `String(Double)`
/// (`1.0`, `1e-05`), as `JSONWriter` does, and so reads back as a Double. A non-finite Double has
/// no JSON form and is written as `null`. See [RFC 8259](https://www.rfc-editor.org/rfc/rfc8259).
enum RecordJSON {
  /// The JSON text of a record's fields.
  static func string(of record: Record) -> String {
    var json: [UInt8] = []
    record.encodedFields.withUnsafeBytes { append(fields: $0, to: &json) }
    return String(decoding: json, as: UTF8.self)
  }

  /// How deep lists may nest in a record's JSON text, and so in the compact layout's stored form.
  static var maximumDepth: Int { 1_000 }

  /// Appends the JSON object of ``RecordCodec``-encoded fields: to an array, or (the apollo
  /// layout's writes) to a `RecordWriter`.
  static func append<Sink: JSONByteSink>(fields: UnsafeRawBufferPointer, to json: inout Sink) {
    // The printer writes through a pointer to the caller's sink: an array is not copied.
    withUnsafeMutablePointer(to: &json) { json in
      var printer = Printer(json: json)
      json.pointee.append(UInt8(ascii: "{"))
      var offset = 0
      while offset < fields.count {
        let span = RecordCodec.readField(fields, &offset)
        if span.entry.lowerBound > 0 { json.pointee.append(UInt8(ascii: ",")) }
        appendString(UnsafeRawBufferPointer(rebasing: fields[span.name]), to: &json.pointee)
        json.pointee.append(UInt8(ascii: ":"))
        var valueOffset = span.value.lowerBound
        RecordValueWalk.walk(fields, &valueOffset, &printer)
      }
      json.pointee.append(UInt8(ascii: "}"))
    }
  }

  /// A value straight from its bytes to JSON text, a visitor of the one walk of the value grammar
  /// (``RecordValueWalk``), without the ``RecordValue`` that ``RecordCodec/readValue(_:_:)`` would
  /// allocate for each string and list (the apollo layout writes every record this way); tested
  /// against ``RecordValue``'s own JSON in RecordJSONTests.
  private struct Printer<Sink: JSONByteSink>: RecordValueVisitor {
    typealias Value = Void
    /// The elements still to come.
    typealias List = Int
    typealias Failure = Never
    static var source: RecordValueSource { .trusted }
    let json: UnsafeMutablePointer<Sink>

    @inline(__always) mutating func null(_ token: Range<Int>) { appendASCII("null") }
    @inline(__always) mutating func bool(_ value: Bool, _ token: Range<Int>) { appendASCII(value ? "true" : "false") }
    @inline(__always)
    mutating func int(_ value: Int, _ token: Range<Int>) {
      // Digits written last first into a buffer on the stack, then appended: no String made.
      if value < 0 { json.pointee.append(UInt8(ascii: "-")) }
      var magnitude = value.magnitude
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
        var start = digits.count
        repeat {
          start -= 1
          digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
          magnitude /= 10
        } while magnitude > 0
        json.pointee.append(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: digits[start...])))
      }
    }
    @inline(__always)
    mutating func double(_ value: Double, _ token: Range<Int>) {
      guard value.isFinite else { return appendASCII("null") }
      var text = String(value)
      text.withUTF8 { json.pointee.append(UnsafeRawBufferPointer($0)) }
    }
    @inline(__always) mutating func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) { appendString(utf8, to: &json.pointee) }
    @inline(__always)
    mutating func reference(_ key: UnsafeRawBufferPointer, _ token: Range<Int>) {
      appendASCII("{\"$reference\":")
      appendString(key, to: &json.pointee)
      json.pointee.append(UInt8(ascii: "}"))
    }
    @inline(__always)
    mutating func beginList(count: Int, _ token: Range<Int>) -> Int {
      json.pointee.append(UInt8(ascii: "["))
      return count
    }
    @inline(__always)
    mutating func append(_ element: consuming Void, to list: inout Int) {
      list -= 1
      if list > 0 { json.pointee.append(UInt8(ascii: ",")) }
    }
    @inline(__always) mutating func endList(_ list: consuming Int) { json.pointee.append(UInt8(ascii: "]")) }

    @inline(__always)
    func appendASCII(_ text: StaticString) {
      json.pointee.append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
  }

  /// Appends a key as a JSON string, for `json_each`; appends nothing and returns false when the
  /// key holds U+0000, which `json_each` would cut short.
  static func appendKey(_ key: String, to json: inout [UInt8]) -> Bool {
    if let appended = key.utf8.withContiguousStorageIfAvailable({ appendKey(utf8: $0, to: &json) }) { return appended }
    var key = key
    return key.withUTF8 { appendKey(utf8: $0, to: &json) }
  }

  private static func appendKey(utf8: UnsafeBufferPointer<UInt8>, to json: inout [UInt8]) -> Bool {
    // Eight bytes at a time up to the first byte to escape, if any (keys seldom have one).
    var plain = true
    for byte in utf8[JSONString.endOfPlainRun(utf8, from: 0)...]
    where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
      if byte == 0 { return false }
      plain = false
    }
    if plain {
      // The common case: nothing to escape, one copy.
      json.append(UInt8(ascii: "\""))
      json.append(contentsOf: utf8)
      json.append(UInt8(ascii: "\""))
    } else {
      appendString(UnsafeRawBufferPointer(utf8), to: &json)
    }
    return true
  }

  /// A JSON string literal, quotes included, as ``JSONString`` escapes it: the bytes up to the
  /// next one to escape (``JSONString/endOfPlainBytes(_:from:)``, eight bytes at a time) in one
  /// copy. The loop is here, not in JSON, so that it is specialized for the sink: a
  /// `package` function of that module is called, not inlined, and a generic one then appends
  /// through witness calls (the 1,000-record merge's 13.4 M instructions held 2.3 M of them).
  @inline(__always)
  static func appendString<Sink: JSONByteSink>(_ utf8: UnsafeRawBufferPointer, to json: inout Sink) {
    let bytes = utf8.assumingMemoryBound(to: UInt8.self)
    json.append(UInt8(ascii: "\""))
    var start = 0
    while start < bytes.count {
      let end = JSONString.endOfPlainBytes(bytes, from: start)
      if end > start { json.append(UnsafeRawBufferPointer(rebasing: utf8[start..<end])) }
      guard end < bytes.count else { break }
      JSONString.appendEscaped(bytes[end], to: &json)
      start = end + 1
    }
    json.append(UInt8(ascii: "\""))
  }
}
