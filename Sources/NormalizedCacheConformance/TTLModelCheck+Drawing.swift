import GraphQLLanguage
import NormalizedCache
import Support

/// The random parts of ``TTLModelCheck``'s steps: which fields a write or a read selects, the
/// operation's text, and a response that fits it.
extension TTLModelSchema {
  /// A random part of a selection. A write keeps `__typename` and `id` (Apollo's generated
  /// operations always select `__typename`, and the type policies key by `id`) and each other
  /// field at 70% (the wide fields at 50%, or at 97% in one write of four): a partial refetch. A read keeps each field at 75%,
  /// at least one per object, aliases one in ten (the paths are response keys) and puts
  /// `@cacheControl(maxAge:)` of 0, 7 or 90 on one in ten (the operation's beats the schema's).
  static func part(of selection: [Selected], write: Bool, _ random: inout SplitMix64) -> [Selected] {
    // The wide fields: half of them, or (a write in four) nearly all, past 64 in one record.
    let wideShare = write && random.chance(percent: 25) ? 97 : 50
    var part: [Selected] = []
    for var field in selection {
      let required = field.name == "__typename" || field.name == "id"
      let isWide = field.name.first == "f" && Int(field.name.dropFirst()) != nil
      let share = isWide ? wideShare : write ? 70 : 75
      guard write && required || random.chance(percent: share) else { continue }
      if let children = field.children { field.children = self.part(of: children, write: write, &random) }
      if !write {
        if random.chance(percent: 10) { field.alias = "a_" + field.name }
        if random.chance(percent: 10) { field.operationMaxAge = [0, 7, 90][random.int(below: 3)] }
      }
      part.append(field)
    }
    if part.isEmpty, let first = selection.first { part = self.part(of: [first], write: true, &random) }
    return part
  }

  /// The selection with `book(id:)`'s id drawn, and the record its field policy names.
  static func withIDs(_ selection: [Selected], _ random: inout SplitMix64) -> [Selected] {
    selection.map { field in
      var field = field
      if field.name == "book", field.type == "Book" {
        let id = ids["Book"]![random.int(below: ids["Book"]!.count)]
        field.id = id
        field.policyKey = "Book:\(id)"
      }
      return field
    }
  }

  /// The text of a query of `selection`.
  static func text(_ name: String, _ selection: [Selected]) -> String { "query \(name) " + text(selection) }

  static func text(_ selection: [Selected]) -> String {
    let fields = selection.map { field in
      var text = field.alias.map { "\($0): " } ?? ""
      text += field.name + (field.id.map { #"(id: "\#($0)")"# } ?? "")
      if let maxAge = field.operationMaxAge { text += " @cacheControl(maxAge: \(maxAge))" }
      if let children = field.children { text += " " + self.text(children) }
      return field.onType.map { "... on \($0) { \(text) }" } ?? text
    }
    return "{ " + fields.joined(separator: " ") + " }"
  }

  /// A response to `selection` on an object of `type` whose id is `id`: values drawn from a few
  /// (so that a refetch often writes what was there), nulls where the schema allows them, lists of
  /// 0 to 3 objects.
  static func response(_ selection: [Selected], type: String, id: String?, _ random: inout SplitMix64) -> JSONObject {
    var object = JSONObject()
    for field in selection where field.onType == nil || field.onType == type {
      guard let kind = fields[type]?[field.name]?.kind else { preconditionFailure("\(type).\(field.name) is not in the schema") }
      let value: JSONValue =
        switch kind {
        case .typename: .string(type)
        case .id: .string(id!)
        case .string: random.chance(percent: 10) ? .null : .string(["A", "B"][random.int(below: 2)])
        case .int: random.chance(percent: 10) ? .null : .int(random.int(below: 2))
        case .strings:
          random.chance(percent: 10) ? .null : .array((0..<random.int(below: 3)).map { _ in .string(["x", "y"][random.int(below: 2)]) })
        case .object(let type, let nullable):
          nullable && random.chance(percent: 10) ? .null : .object(newObject(of: type, field, &random))
        case .objects(let type, let nullable):
          nullable && random.chance(percent: 10)
            ? .null : .array((0..<random.int(below: 4)).map { _ in .object(newObject(of: type, field, &random)) })
        }
      object.append(key: field.responseKey, value: value)
    }
    return object
  }

  /// An object of `type` (an implementation of it, drawn, for an interface) for `field`, with the
  /// id its argument names, else one of its type's few.
  private static func newObject(of type: String, _ field: Selected, _ random: inout SplitMix64) -> JSONObject {
    let concrete = implementations[type].map { $0[random.int(below: $0.count)] } ?? type
    let id = field.id ?? ids[concrete].map { $0[random.int(below: $0.count)] }
    return response(field.children ?? [], type: concrete, id: id, &random)
  }
}
