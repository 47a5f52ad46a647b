import GraphQLLanguage

extension RecordValue {
  /// The value in JSON (docs/records.md): a reference is `{"$reference": "Book:bk123"}`.
  public var jsonValue: JSONValue {
    switch self {
    case .null: .null
    case .bool(let flag): .bool(flag)
    case .int(let int): .int(int)
    case .double(let double): .double(double)
    case .string(let string): .string(string)
    case .reference(let reference): ["$reference": .string(reference.key)]
    case .list(let values): .array(values.map(\.jsonValue))
    }
  }

  /// A value from its JSON form.
  /// - Throws: ``NormalizationError`` for an object that is not a `{"$reference": KEY}`.
  public init(json: JSONValue) throws(NormalizationError) {
    switch json {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .int(let int): self = .int(int)
    case .double(let double): self = .double(double)
    case .string(let string): self = .string(string)
    case .array(let values):
      var elements: [RecordValue] = []
      elements.reserveCapacity(values.count)
      for value in values { elements.append(try RecordValue(json: value)) }
      self = .list(elements)
    case .object(let object):
      guard object.count == 1, case .string(let key)? = object["$reference"] else {
        throw NormalizationError("a record value cannot be an object other than {\"$reference\": KEY}", path: [])
      }
      self = .reference(CacheReference(key))
    }
  }
}

extension Record {
  /// The fields as a JSON object, in order, references as `{"$reference": KEY}`.
  public var jsonObject: JSONObject {
    JSONObject(members: fields.map { JSONObject.Member(key: $0.key, value: $0.value.jsonValue) })
  }

  /// A record from its JSON fields object.
  public init(key: CacheKey, json: JSONObject) throws(NormalizationError) {
    var builder = Builder(key: key)
    for member in json { builder.set(member.key, try RecordValue(json: member.value)) }
    self = builder.build()
  }
}

/// The two printed forms of records of `cachebench normalize` (docs/command-line.md#normalize).
/// A record with dates (docs/records.md#dates) lists them too; one without lists as it always did.
public enum RecordListing: String, Sendable, CaseIterable {
  /// `{"records": {KEY: {FIELD: VALUE}}}`, keys and fields sorted, two-space indent; a dated
  /// record has one more member, `"$writtenAt"` (``Record/listedDates``).
  case json
  /// The listing style of Apollo's documentation: `"QUERY_ROOT.favoriteBook": {` … `"-> #KEY"`,
  /// records and fields in the order they were written; a field of a dated record ends in
  /// `(written at SECONDS)`.
  case entries

  public func render(_ records: RecordSet) -> String {
    switch self {
    case .json:
      var all = JSONObject()
      for record in records.records.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
        var object = record.jsonObject
        if let dates = record.listedDates { object.append(key: "$writtenAt", value: dates) }
        all.append(key: record.key, value: .object(object))
      }
      return JSONWriter.string(["records": .object(all)], style: .pretty(sortedKeys: true)) + "\n"
    case .entries:
      return records.records.map { record in
        var writer = JSONWriter()
        writer.writeString(record.key)
        let dates = record.writtenAt
        let fields = record.fields.enumerated().map { position, field in
          var name = JSONWriter()
          name.writeString(field.key)
          let date = dates.map { " (written at \($0[position].writtenAt))" } ?? ""
          return "  " + String(decoding: name.bytes, as: UTF8.self) + ": " + field.value.listingDescription + date
        }
        let body = fields.isEmpty ? "{}" : "{\n" + fields.joined(separator: ",\n") + "\n}"
        return String(decoding: writer.bytes, as: UTF8.self) + ": " + body + "\n"
      }.joined(separator: "\n")
    }
  }
}

extension Record {
  /// A dated record's dates as `normalize --format json` lists them, under `"$writtenAt"` (a
  /// GraphQL field's name cannot start with `$`): one number when every field was written at that
  /// second, else an object of each field's date. Nil for a record without
  /// dates, or without fields.
  public var listedDates: JSONValue? {
    guard let dates = writtenAt, let first = dates.first else { return nil }
    if dates.allSatisfy({ $0.writtenAt == first.writtenAt }) { return .int(first.writtenAt) }
    return .object(JSONObject(members: dates.map { JSONObject.Member(key: $0.key, value: .int($0.writtenAt)) }))
  }
}
