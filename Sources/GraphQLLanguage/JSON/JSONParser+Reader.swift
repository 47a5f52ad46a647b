import JSON

extension JSONParser {
  struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    var position = 0
    /// Objects and arrays nested deeper than this are an error, as JSONSerialization's 512: the
    /// parser, the normalizer and a value's release all recurse once per level, and at about
    /// 1 KB a level 10,000 overflowed an 8 MB stack before the limit was reached.
    static let maximumDepth = 512
    /// When not nil, the path and byte offset of every object key, in the order of the text.
    var keyOffsets: [(path: String, offset: Int)]?
    private var path: [String] = []
    /// The members of the objects being parsed, and their keys' numbers in ``strings`` (-1 for a
    /// key not there), innermost object last; the elements of the arrays being parsed.
    private let members = ScratchStack<JSONObject.Member>()
    private let memberKeys = ScratchStack<Int32>()
    private let elements = ScratchStack<JSONValue>()
    /// The short strings met so far: a key or value met again is the same `String`.
    private var strings = StringTable()

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
      // Anything above a space returns at the first test: most calls find no whitespace at all.
      guard position < bytes.count, bytes[position] <= 0x20 else { return }
      skipWhitespaceRun()
    }

    /// Space, tab, LF and CR from `position` on, eight bytes at a time (indentation comes in runs).
    private mutating func skipWhitespaceRun() {
      if let base = bytes.baseAddress {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        /// The high bit of each byte of `word` that is not zero, exactly (no borrows between bytes).
        @inline(__always) func nonzero(_ word: UInt64) -> UInt64 { (((word & lows) &+ lows) | word) & ~lows }
        while position + 8 <= bytes.count {
          let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
          let other =
            nonzero(word ^ (ones &* 0x20)) & nonzero(word ^ (ones &* 0x09)) & nonzero(word ^ (ones &* 0x0A))
            & nonzero(word ^ (ones &* 0x0D))
          if other != 0 {
            position += other.trailingZeroBitCount / 8
            return
          }
          position += 8
        }
      }
      let whitespace: UInt64 = 1 << 0x20 | 1 << 0x09 | 1 << 0x0A | 1 << 0x0D
      while position < bytes.count {
        let byte = bytes[position]
        guard byte <= 0x20, whitespace & (1 << UInt64(byte)) != 0 else { return }
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

    /// An object: its members pushed on ``members`` and moved into an array of their exact count
    /// at its end, so that an object allocates once, not once per doubling.
    private mutating func parseObject(depth: Int) throws(GraphQLError) -> JSONObject {
      guard depth <= Self.maximumDepth else { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
      position += 1
      let first = members.count
      // The keys so far, once the object is large enough that comparing with each would cost.
      var seen: Set<String>?
      // Whether a key so far is not in the string table: then keys compare as strings too.
      var untabled = false
      defer {
        // Only on an error: a finished object has taken its members.
        members.removeAll(from: first)
        memberKeys.removeAll(from: first)
      }
      skipWhitespace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
        position += 1
        return JSONObject()
      }
      while true {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
          throw error("Expected a string key in an object, found \(describeCurrent())")
        }
        let keyOffset = position
        let (key, number) = try parseStringAndNumber()
        try checkNotDuplicate(key, number, at: keyOffset, from: first, seen: &seen, untabled: &untabled)
        if keyOffsets != nil {
          path.append(key)
          keyOffsets!.append((currentPath, keyOffset))
        }
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
          throw error("Expected ':' after an object key, found \(describeCurrent())")
        }
        position += 1
        skipWhitespace()
        let value = try parseValue(depth: depth)
        members.push(JSONObject.Member(key: key, value: value))
        memberKeys.push(number)
        if keyOffsets != nil { path.removeLast() }
        skipWhitespace()
        guard position < bytes.count else { throw error("Expected ',' or '}' after an object member, found end of input") }
        let byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: "}") {
          memberKeys.removeAll(from: first)
          return JSONObject(members: members.popArray(from: first))
        }
        if byte != UInt8(ascii: ",") {
          position -= 1
          throw error("Expected ',' or '}' after an object member, found \(describeCurrent())")
        }
      }
    }

    /// Fails the parse at `keyOffset` when the object whose members start at `first` has a member
    /// keyed `key` already. A key given twice is an error: which one a reader would keep is a
    /// guess (JSONSerialization keeps the last, others the first), and a record would silently
    /// lose the other value. Keys of the table compare by number; others (long ones) as strings.
    @inline(__always)
    private mutating func checkNotDuplicate(
      _ key: String, _ number: Int32, at keyOffset: Int, from first: Int, seen: inout Set<String>?, untabled: inout Bool
    ) throws(GraphQLError) {
      let duplicate =
        members.count - first < 16 && number >= 0 && !untabled
        ? memberKeys.withElements(from: first) { $0.contains(number) }
        : isDuplicate(key, number, from: first, seen: &seen)
      if number < 0 { untabled = true }
      guard duplicate else { return }
      position = keyOffset
      let shown = key.count > 80 ? String(key.prefix(80)) + "…" : key
      throw error("Duplicate key \"\(shown)\" in an object")
    }

    /// Whether the object whose members start at `first` has a member keyed `key` already.
    ///
    /// Keys in the string table (number 0 or more) are equal exactly when their numbers are; keys
    /// not there (-1: long, or written with escapes, whose text may equal a key in the table)
    /// are compared as strings, with every member when the new key is one, else with those. From
    /// 16 members on, every key goes into `seen`, a set of the object's keys, instead.
    private func isDuplicate(_ key: String, _ number: Int32, from first: Int, seen: inout Set<String>?) -> Bool {
      let count = members.count - first
      if count >= 16 {
        if seen == nil {
          seen = Set(minimumCapacity: count * 2)
          for index in first..<(first + count) { seen!.insert(members[index].key) }
        }
        return !seen!.insert(key).inserted
      }
      if number >= 0, memberKeys.withElements(from: first, { $0.contains(number) }) { return true }
      let all = number < 0
      for index in first..<(first + count) where (all || memberKeys[index] < 0) && members[index].key == key {
        return true
      }
      return false
    }

    /// An array: its elements pushed on ``elements`` and moved into an array of their exact count.
    private mutating func parseArray(depth: Int) throws(GraphQLError) -> [JSONValue] {
      guard depth <= Self.maximumDepth else { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
      position += 1
      let first = elements.count
      defer { elements.removeAll(from: first) }
      skipWhitespace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
        position += 1
        return []
      }
      while true {
        skipWhitespace()
        if keyOffsets != nil { path.append("[\(elements.count - first)]") }
        let value = try parseValue(depth: depth)
        elements.push(value)
        if keyOffsets != nil { path.removeLast() }
        skipWhitespace()
        guard position < bytes.count else { throw error("Expected ',' or ']' after an array element, found end of input") }
        let byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: "]") { return elements.popArray(from: first) }
        if byte != UInt8(ascii: ",") {
          position -= 1
          throw error("Expected ',' or ']' after an array element, found \(describeCurrent())")
        }
      }
    }

    /// A string, with the fast path of no escapes decoded straight from the input bytes.
    mutating func parseString() throws(GraphQLError) -> String {
      try parseStringAndNumber().string
    }

    /// A string, and its number in ``strings`` (-1 when it is not there: long, or with escapes).
    ///
    /// The fast path, no escapes, scans eight bytes at a time and takes a short string from the
    /// table when it was met before: keys and type names repeat in every object of a response.
    mutating func parseStringAndNumber() throws(GraphQLError) -> (string: String, number: Int32) {
      let start = position
      position += 1
      let contentStart = position
      position = JSONString.endOfPlainRun(bytes, from: position)
      while position < bytes.count {
        let byte = bytes[position]
        if byte == UInt8(ascii: "\"") {
          let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<position])
          position += 1
          return strings.string(for: slice, in: bytes)
        }
        if byte == UInt8(ascii: "\\") { break }
        if byte < 0x20 { throw error("Unescaped control character in a string") }
        position += 1
      }
      guard position < bytes.count else { throw error("Unterminated string", at: start) }
      return (try parseEscapedString(start: start, contentStart: contentStart), -1)
    }

    /// The slow path of ``parseStringAndNumber()``: a string with escapes, from the first (at
    /// ``position``) on; the bytes before it copied as they are, each escape resolved by
    /// `JSONString.unescape` (a lone surrogate is an error: docs/records.md#reading-json). Out of
    /// line: a string with an escape is rare, and the unescaper is inlined here, not into
    /// ``parseStringAndNumber()``'s fast path.
    @inline(never)
    private mutating func parseEscapedString(start: Int, contentStart: Int) throws(GraphQLError) -> String {
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
        do {
          try JSONString.unescape(bytes, at: &position, into: &buffer)
        } catch {
          throw escapeError(error, stringStart: start)
        }
      }
      throw error("Unterminated string", at: start)
    }

    /// The error of an escape that `JSONString.unescape` refused, at the position it left.
    private func escapeError(_ failure: JSONString.EscapeFailure, stringStart: Int) -> GraphQLError {
      switch failure {
      case .endOfInput: return error("Unterminated string", at: stringStart)
      case .unknownEscape(let byte): return error("Invalid escape '\\\(describe(byte))' in a string")
      case .notHex: return error("Expected four hex digits after \\u")
      case .loneSurrogate(let unit): return error("Unpaired surrogate \\u\(String(unit, radix: 16, uppercase: true)) in a string")
      }
    }

    private func describe(_ byte: UInt8) -> String {
      byte >= 0x20 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func parseNumber() throws(GraphQLError) -> JSONValue {
      let start = position
      switch JSONNumber.scan(bytes, at: &position) {
      case .success(.int(let int)):
        return .int(int)
      case .success(.notInt):
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else { throw error("Number \(text) is out of range", at: start) }
        return .double(double)
      case .failure(.noDigit): throw error("Expected a digit in a number, found \(describeCurrent())")
      case .failure(.leadingZero): throw error("A number cannot have a leading zero")
      case .failure(.noDigitAfterPoint): throw error("Expected a digit after '.', found \(describeCurrent())")
      case .failure(.noDigitInExponent): throw error("Expected a digit in an exponent, found \(describeCurrent())")
      }
    }
  }
}

@inline(__always)
func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
  for index in 0..<count where a[index] != b[index] { return false }
  return true
}
