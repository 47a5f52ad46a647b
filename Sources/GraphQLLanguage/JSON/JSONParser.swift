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
  public static func parseWithKeyLocations(
    _ bytes: [UInt8], file: String
  ) throws(GraphQLError) -> (value: JSONValue, locations: [String: SourceLocation]) {
    let result: Result<(JSONValue, [String: SourceLocation]), GraphQLError> = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(GraphQLError) in
        var reader = Reader(bytes: buffer, file: file)
        reader.keyOffsets = [:]
        try reader.checkUTF8()
        let value = try reader.parseDocument()
        var locations: [String: SourceLocation] = [:]
        for (path, offset) in reader.keyOffsets ?? [:] {
          locations[path] = SourceLocation.of(offset: offset, in: buffer, file: file)
        }
        return (value, locations)
      }
    }
    return try result.get()
  }

  struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    var position = 0
    /// Objects and arrays nested deeper than this are an error, as JSONSerialization's 512: the
    /// parser, the normalizer and a value's release all recurse once per level, and at about
    /// 1 KB a level 10,000 overflowed an 8 MB stack before the limit was reached.
    static let maximumDepth = 512
    /// When not nil, the byte offset of every object key, by path.
    var keyOffsets: [String: Int]?
    private var path: [String] = []

    /// Invalid UTF-8 anywhere is an error at its offset, before anything is parsed.
    mutating func checkUTF8() throws(GraphQLError) {
      guard let offset = UTF8Validation.firstInvalidOffset(bytes) else { return }
      position = offset
      throw error("Invalid UTF-8 at byte offset \(offset) (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))")
    }

    mutating func parseDocument() throws(GraphQLError) -> JSONValue {
      skipWhitespace()
      let value = try parseValue(depth: 0)
      skipWhitespace()
      if position < bytes.count {
        throw error("Unexpected \(describeCurrent()) after the JSON value")
      }
      return value
    }

    private var currentPath: String {
      var text = ""
      for component in path {
        if component.hasPrefix("[") || text.isEmpty { text += component } else { text += "." + component }
      }
      return text
    }

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
      self.bytes = bytes
      self.file = file
    }

    func error(_ message: String, at offset: Int? = nil) -> GraphQLError {
      GraphQLError(message, at: SourceLocation.of(offset: offset ?? position, in: bytes, file: file))
    }

    func describeCurrent() -> String {
      guard position < bytes.count else { return "end of input" }
      let byte = bytes[position]
      if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
      return "byte 0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
    }

    @inline(__always)
    mutating func skipWhitespace() {
      while position < bytes.count {
        let byte = bytes[position]
        guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
        position += 1
      }
    }

    mutating func parseValue(depth: Int) throws(GraphQLError) -> JSONValue {
      guard position < bytes.count else { throw error("Expected a JSON value, found end of input") }
      switch bytes[position] {
      case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
      case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
      case UInt8(ascii: "\""): return .string(try parseString())
      case UInt8(ascii: "t"):
        try expectLiteral("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try expectLiteral("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try expectLiteral("null")
        return .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        return try parseNumber()
      default:
        throw error("Expected a JSON value, found \(describeCurrent())")
      }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(GraphQLError) {
      let count = literal.utf8CodeUnitCount
      guard position + count <= bytes.count,
        memcmpBytes(bytes.baseAddress! + position, literal.utf8Start, count)
      else {
        throw error("Expected a JSON value, found \(describeCurrent())")
      }
      position += count
    }

    private mutating func parseObject(depth: Int) throws(GraphQLError) -> JSONObject {
      guard depth <= Self.maximumDepth else { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
      position += 1
      var object = JSONObject()
      // The keys so far, once the object is large enough that a linear scan per key would cost.
      var seen: Set<String>?
      skipWhitespace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
        position += 1
        return object
      }
      while true {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
          throw error("Expected a string key in an object, found \(describeCurrent())")
        }
        let keyOffset = position
        let key = try parseString()
        // A key given twice is an error: which one a reader would keep is a guess (JSONSerialization
        // keeps the last, others the first), and a record would silently lose the other value.
        let duplicate: Bool
        if object.count < 16 {
          duplicate = object.members.contains { $0.key == key }
        } else {
          if seen == nil { seen = Set(object.keys) }
          duplicate = !seen!.insert(key).inserted
        }
        if duplicate {
          position = keyOffset
          let shown = key.count > 80 ? String(key.prefix(80)) + "…" : key
          throw error("Duplicate key \"\(shown)\" in an object")
        }
        if keyOffsets != nil {
          path.append(key)
          keyOffsets![currentPath] = keyOffset
        }
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
          throw error("Expected ':' after an object key, found \(describeCurrent())")
        }
        position += 1
        skipWhitespace()
        object.append(key: key, value: try parseValue(depth: depth))
        if keyOffsets != nil { path.removeLast() }
        skipWhitespace()
        guard position < bytes.count else { throw error("Expected ',' or '}' after an object member, found end of input") }
        let byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: "}") { return object }
        if byte != UInt8(ascii: ",") {
          position -= 1
          throw error("Expected ',' or '}' after an object member, found \(describeCurrent())")
        }
      }
    }

    private mutating func parseArray(depth: Int) throws(GraphQLError) -> [JSONValue] {
      guard depth <= Self.maximumDepth else { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
      position += 1
      var array: [JSONValue] = []
      skipWhitespace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
        position += 1
        return array
      }
      while true {
        skipWhitespace()
        if keyOffsets != nil { path.append("[\(array.count)]") }
        array.append(try parseValue(depth: depth))
        if keyOffsets != nil { path.removeLast() }
        skipWhitespace()
        guard position < bytes.count else { throw error("Expected ',' or ']' after an array element, found end of input") }
        let byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: "]") { return array }
        if byte != UInt8(ascii: ",") {
          position -= 1
          throw error("Expected ',' or ']' after an array element, found \(describeCurrent())")
        }
      }
    }

    /// A string, with the fast path of no escapes decoded straight from the input bytes.
    mutating func parseString() throws(GraphQLError) -> String {
      let start = position
      position += 1
      let contentStart = position
      while position < bytes.count {
        let byte = bytes[position]
        if byte == UInt8(ascii: "\"") {
          let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<position])
          position += 1
          return String(decoding: slice, as: UTF8.self)
        }
        if byte == UInt8(ascii: "\\") { break }
        if byte < 0x20 { throw error("Unescaped control character in a string") }
        position += 1
      }
      guard position < bytes.count else { throw error("Unterminated string", at: start) }
      // Slow path: escapes.
      var buffer = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<position]))
      while position < bytes.count {
        let byte = bytes[position]
        if byte == UInt8(ascii: "\"") {
          position += 1
          return String(decoding: buffer, as: UTF8.self)
        }
        if byte < 0x20 { throw error("Unescaped control character in a string") }
        if byte != UInt8(ascii: "\\") {
          buffer.append(byte)
          position += 1
          continue
        }
        guard position + 1 < bytes.count else { break }
        let escape = bytes[position + 1]
        position += 2
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
          var scalarValue = try readHex4()
          if (0xD800...0xDBFF).contains(scalarValue) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
              bytes[position + 1] == UInt8(ascii: "u")
            else { throw error("Unpaired surrogate in a \\u escape") }
            position += 2
            let low = try readHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("Unpaired surrogate in a \\u escape") }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00...0xDFFF).contains(scalarValue) {
            throw error("Unpaired surrogate in a \\u escape")
          }
          guard let scalar = Unicode.Scalar(scalarValue) else { throw error("Invalid \\u escape") }
          buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
          position -= 1
          throw error("Invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
        }
      }
      throw error("Unterminated string", at: start)
    }

    private mutating func readHex4() throws(GraphQLError) -> UInt32 {
      guard position + 4 <= bytes.count else { throw error("Expected four hex digits after \\u") }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[position]
        let digit: UInt32
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
        default: throw error("Expected four hex digits after \\u")
        }
        value = value << 4 | digit
        position += 1
      }
      return value
    }

    private mutating func parseNumber() throws(GraphQLError) -> JSONValue {
      let start = position
      var negative = false
      if bytes[position] == UInt8(ascii: "-") {
        negative = true
        position += 1
      }
      func isDigit(_ index: Int) -> Bool {
        index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
      }
      guard isDigit(position) else { throw error("Expected a digit in a number, found \(describeCurrent())") }
      var magnitude: UInt64 = 0
      var overflow = false
      if bytes[position] == UInt8(ascii: "0") {
        position += 1
        if isDigit(position) { throw error("A number cannot have a leading zero") }
      } else {
        while isDigit(position) {
          let digit = UInt64(bytes[position] - UInt8(ascii: "0"))
          let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
          let (sum, o2) = times10.addingReportingOverflow(digit)
          overflow = overflow || o1 || o2
          magnitude = sum
          position += 1
        }
      }
      var isInteger = true
      if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
        isInteger = false
        position += 1
        guard isDigit(position) else { throw error("Expected a digit after '.', found \(describeCurrent())") }
        while isDigit(position) { position += 1 }
      }
      if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
        isInteger = false
        position += 1
        if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
          position += 1
        }
        guard isDigit(position) else { throw error("Expected a digit in an exponent, found \(describeCurrent())") }
        while isDigit(position) { position += 1 }
      }
      if isInteger, !overflow {
        if negative {
          if magnitude <= UInt64(Int64.max) + 1 { return .int(magnitude == UInt64(Int64.max) + 1 ? Int.min : -Int(magnitude)) }
        } else if magnitude <= UInt64(Int64.max) {
          return .int(Int(magnitude))
        }
      }
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
      guard let double = Double(text), double.isFinite else { throw error("Number \(text) is out of range", at: start) }
      return .double(double)
    }
  }
}

@inline(__always)
func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
  for index in 0..<count where a[index] != b[index] { return false }
  return true
}
