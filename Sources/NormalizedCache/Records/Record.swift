import GraphQLLanguage
import JSON

/// One object of a normalized cache: a key and its fields (docs/records.md).
///
/// ```swift
/// let book = Record(key: "Book:bk123", ["id": "bk123", "title": "Les guerriers du silence",
///                                       "author": .reference("QUERY_ROOT.favoriteBook.author")])
/// book["title"]   // .string("Les guerriers du silence")
/// ```
/// Fields keep the order they were first written in. The fields are held in the compact encoding
/// of ``RecordCodec``, one allocation per record: stores keep records as they are, so a load costs
/// a reference count, not a decode. Two records are equal when they have the same key and the same
/// fields with equal values, in any order.
public struct Record: Sendable, CustomStringConvertible {
  public let key: CacheKey
  /// The fields in ``RecordCodec``'s encoding.
  public private(set) var encodedFields: [UInt8]

  /// A record with these fields, in this order; a repeated field keeps its first place and its last value.
  public init(key: CacheKey, _ fields: KeyValuePairs<String, RecordValue> = [:]) {
    self.init(key: key, fields: fields.map { ($0.key, $0.value) })
  }

  public init(key: CacheKey, fields: [(String, RecordValue)]) {
    var builder = Builder(key: key)
    for (name, value) in fields { builder.set(name, value) }
    self = builder.build()
  }

  /// A record whose fields were all written at `writtenAt` (seconds; docs/records.md#dates).
  public init(key: CacheKey, writtenAt: Int, _ fields: KeyValuePairs<String, RecordValue> = [:]) {
    var builder = Builder(key: key, writtenAt: writtenAt)
    for (name, value) in fields { builder.set(name, value) }
    self = builder.build()
  }

  /// A record from bytes in ``RecordCodec``'s encoding, checked first: for a store of your own
  /// that keeps records' ``encodedFields`` somewhere and rebuilds records from them.
  ///
  /// ```swift
  /// let record = try Record(key: "Book:1", encodedFields: bytesFromMyFile)
  /// ```
  /// - Throws: ``RecordCodec/EncodingError`` when the bytes are not a well-formed encoding (a
  ///   length past the end, an unknown tag, a field twice): the accessors read them unchecked.
  /// - Complexity: O(n) in the bytes.
  public init(key: CacheKey, encodedFields: [UInt8]) throws(RecordCodec.EncodingError) {
    let problem = encodedFields.withUnsafeBytes { bytes in
      Result { () throws(RecordCodec.EncodingError) in try RecordCodec.validate(bytes) }
    }
    try problem.get()
    self.init(key: key, uncheckedEncodedFields: encodedFields)
  }

  /// A record from bytes this package made (a ``Record``'s ``encodedFields``, or a store's decode
  /// of what it wrote), taken as they are: the accessors read them without bounds checks.
  package init(key: CacheKey, uncheckedEncodedFields encodedFields: [UInt8]) {
    self.key = key
    self.encodedFields = encodedFields
  }

  /// The value of a field, or nil when the record has no such field.
  ///
  /// - Complexity: O(number of fields), a scan of the encoding.
  public subscript(field: String) -> RecordValue? {
    var name = field
    return name.withUTF8 { nameBytes in
      encodedFields.withUnsafeBytes { bytes -> RecordValue? in
        guard let span = Self.find(UnsafeRawBufferPointer(nameBytes), in: bytes) else { return nil }
        var offset = span.value.lowerBound
        return RecordCodec.readValue(bytes, &offset)
      }
    }
  }

  /// A field by name among the record's fields (the dates field is not one).
  private static func find(_ name: UnsafeRawBufferPointer, in bytes: UnsafeRawBufferPointer) -> RecordCodec.FieldSpan? {
    guard !name.isEmpty else { return nil }
    return RecordCodec.find(name, in: bytes)
  }

  /// Whether the record has a field of this name.
  public func hasField(_ field: String) -> Bool {
    var name = field
    return name.withUTF8 { nameBytes in
      encodedFields.withUnsafeBytes { Self.find(UnsafeRawBufferPointer(nameBytes), in: $0) != nil }
    }
  }

  /// All fields, in order.
  public var fields: [(key: String, value: RecordValue)] {
    encodedFields.withUnsafeBytes { bytes in
      var result: [(key: String, value: RecordValue)] = []
      var offset = RecordDates.fieldsStart(bytes)
      while offset < bytes.count {
        let span = RecordCodec.readField(bytes, &offset)
        var valueOffset = span.value.lowerBound
        result.append(
          (
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[span.name]), as: UTF8.self),
            RecordCodec.readValue(bytes, &valueOffset)
          ))
      }
      return result
    }
  }

  /// The field names, in order.
  public var fieldKeys: [String] {
    encodedFields.withUnsafeBytes { bytes in
      var result: [String] = []
      var offset = RecordDates.fieldsStart(bytes)
      while offset < bytes.count {
        let span = RecordCodec.readField(bytes, &offset)
        result.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[span.name]), as: UTF8.self))
      }
      return result
    }
  }

  public var fieldCount: Int { encodedFields.withUnsafeBytes(RecordCodec.fieldCount(of:)) }

  public var isEmpty: Bool { encodedFields.isEmpty }

  /// Whether the record keeps the date each field was written at (docs/records.md#dates).
  public var isDated: Bool { encodedFields.withUnsafeBytes { RecordDates.isDated($0) } }

  /// When the field was written, in seconds; nil when the record has no such field or no dates.
  public func writtenAt(_ field: String) -> Int? {
    var name = field
    return name.withUTF8 { nameBytes in
      encodedFields.withUnsafeBytes { bytes -> Int? in
        guard let view = RecordDates.View(bytes), let span = Self.find(UnsafeRawBufferPointer(nameBytes), in: bytes) else {
          return nil
        }
        if view.isUniform { return view.base }
        return view.date(ofFieldAt: RecordDates.position(ofValueAt: span.value.lowerBound, in: bytes), in: bytes)
      }
    }
  }

  /// Every field's date, in the fields' order; nil when the record has no dates.
  public var writtenAt: [(key: String, writtenAt: Int)]? {
    guard isDated else { return nil }
    let dates = encodedFields.withUnsafeBytes { RecordDates.dates($0) }
    return zip(fieldKeys, dates).map { ($0, $1) }
  }

  /// Merges another record's fields into this one (docs/records.md): its fields overwrite, others
  /// stay.
  ///
  /// - Returns: the names of the fields that changed; empty when nothing did.
  @discardableResult
  public mutating func merge(_ other: Record) -> [String] {
    precondition(other.key == key, "merging record \(other.key) into \(key)")
    guard let (merged, changed) = RecordCodec.merge(existing: encodedFields, new: other.encodedFields) else {
      return []
    }
    encodedFields = merged
    return changed
  }

  public var description: String {
    "\(key) {" + fields.map { "\($0.key): \($0.value.listingDescription)" }.joined(separator: ", ") + "}"
  }

  /// Builds a record field by field, encoding as it goes.
  public struct Builder {
    public let key: CacheKey
    var bytes: [UInt8] = []
    /// The date every field is written at; nil for a record without dates.
    public let writtenAt: Int?

    public init(key: CacheKey, capacity: Int = 0, writtenAt: Int? = nil) {
      self.key = key
      self.writtenAt = writtenAt
      bytes.reserveCapacity(capacity)
    }

    /// Appends a field the builder does not have yet; the caller vouches for that.
    @inline(__always)
    public mutating func append(_ name: String, _ value: RecordValue) {
      precondition(!name.isEmpty, "a field name must not be empty (the empty name holds a record's dates)")
      RecordCodec.appendField(name, value, to: &bytes)
    }

    /// Sets a field: replaces its value in place if the builder has it, else appends it.
    public mutating func set(_ name: String, _ value: RecordValue) {
      precondition(!name.isEmpty, "a field name must not be empty (the empty name holds a record's dates)")
      var existing: RecordCodec.FieldSpan?
      var nameCopy = name
      nameCopy.withUTF8 { nameBytes in
        bytes.withUnsafeBytes { existing = RecordCodec.find(UnsafeRawBufferPointer(nameBytes), in: $0) }
      }
      if let existing {
        var replacement: [UInt8] = []
        RecordCodec.appendField(name, value, to: &replacement)
        bytes.replaceSubrange(existing.entry, with: replacement)
      } else {
        RecordCodec.appendField(name, value, to: &bytes)
      }
    }

    /// The record, its buffer trimmed to size when growing left much unused: stores keep the
    /// buffer as it is.
    public func build() -> Record {
      if let writtenAt {
        let dated = RecordWriter.encoded(capacity: bytes.count + 16) { writer in
          RecordDates.appendField(writtenAt: writtenAt, to: writer)
          bytes.withUnsafeBytes { writer.append($0) }
        }
        return Record(key: key, uncheckedEncodedFields: dated)
      }
      if bytes.capacity - bytes.count > 32 {
        return Record(key: key, uncheckedEncodedFields: bytes.withUnsafeBufferPointer { Array($0) })
      }
      return Record(key: key, uncheckedEncodedFields: bytes)
    }
  }
}

extension Record: Equatable {
  public static func == (lhs: Record, rhs: Record) -> Bool {
    guard lhs.key == rhs.key else { return false }
    if lhs.encodedFields == rhs.encodedFields { return true }
    let left = lhs.fields
    let right = rhs.fields
    guard left.count == right.count else { return false }
    let rightMap = Dictionary(right.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    guard left.allSatisfy({ rightMap[$0.key] == $0.value }) else { return false }
    // Dates too (Apollo iOS's ADR 0002): the same values written at other times are another record.
    guard lhs.isDated || rhs.isDated else { return true }
    let rightDates = Dictionary(rhs.writtenAt ?? right.map { ($0.key, 0) }, uniquingKeysWith: { $1 })
    return (lhs.writtenAt ?? left.map { ($0.key, 0) }).allSatisfy { rightDates[$0.key] == $0.writtenAt }
  }
}

extension RecordValue {
  /// The value as Apollo's documentation lists it: `"bk123"`, `1993`, `"-> #Book:bk123"`.
  public var listingDescription: String {
    switch self {
    case .null: "null"
    case .bool(let flag): flag ? "true" : "false"
    case .int(let int): String(int)
    case .double(let double): double.isFinite ? String(double) : "null"
    case .string(let string): quoted(string)
    case .reference(let reference): quoted(reference.description)
    case .list(let values): "[" + values.map(\.listingDescription).joined(separator: ", ") + "]"
    }
  }

  private func quoted(_ string: String) -> String { JSONString.quoted(string) }
}
